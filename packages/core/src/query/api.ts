/**
 * query/api: the contract between the EdgeQL query compiler (query/compile), the engine that runs
 * compiled queries (query/engine) and their callers (@svc/server's `POST /query`, `svc query`,
 * later @svc/rest). Types only; each stage is a pure function over these.
 *
 * text ─syntax.parseQuery→ AST ─bind(schema index)→ IR (types, cardinality)
 *      ─plan(access hook)→ SQL AST ─printSql→ CompiledQuery
 * engine: cache lookup (schema version, text, cardinality, access mode) → compile on miss →
 *         validate + bind variables and globals by name → one round trip → JSON text.
 */
import type { DefaultAccess } from '../model/catalogue';
import type { Schema, TypeRef } from '../model/schema';

/** What the caller asked for (docs/http.md, `POST /query`): `many` by default. */
export type RequestedCardinality = 'many' | 'atMostOne' | 'one';

/** What the compiler proved about the result before running anything. */
export type InferredCardinality = 'atMostOne' | 'one' | 'many' | 'atLeastOne';

/**
 * Who runs the query. `policies` is what compilation depends on (part of the cache key): the
 * service credential, a superuser or the `simple` protocol compile without access policies;
 * `policies` compiles them in. `readOnly` is enforced in one place, the engine, after compiling:
 * a query whose `CompiledQuery.writes` is true (any insert, update or delete, however nested) is
 * refused with 503 READ_ONLY, so one compiled query serves both modes.
 */
export interface AccessMode {
  readonly policies: boolean;
  readonly readOnly: boolean;
  /**
   * Under `policies`, what a type without access policies allows: `open` (Gel's rule, the
   * default) lets every caller read and write it; `deny` makes it reachable only by the service
   * credential (see docs/gel-differences.md).
   * @default 'open'
   */
  readonly defaultAccess?: DefaultAccess;
}

export type { DefaultAccess };

export interface CompileOptions {
  readonly cardinality?: RequestedCardinality;
  readonly access?: CompileAccess;
  /**
   * How a single link shown with a sub-shape (`author: { name }`) is answered: `array`, an array
   * of one object (`null` when unset), as `POST /query` answers it (see docs/http.md); `object`,
   * the object itself or `null` (the REST routes' form, so no answer is reshaped in Node).
   * @default 'array'
   */
  readonly singleLinks?: SingleLinkForm;
  /**
   * An insert may give the new object's `id` (`insert T { id := <uuid>$id, ... }`), as Gel's
   * `allow_user_specified_id` session setting allows: the id must be new among the objects of
   * every type (ConstraintViolationError otherwise, or no insert under `unless conflict`).
   * @default false
   */
  readonly allowUserSpecifiedId?: boolean;
  /** Also describe the query's input and output types (CompiledQuery.description). */
  readonly describe?: boolean;
}

/** How a single link with a sub-shape is answered (CompileOptions.singleLinks). */
export type SingleLinkForm = 'array' | 'object';

/** The part of `AccessMode` compilation reads. */
export type CompileAccess = Pick<AccessMode, 'policies' | 'defaultAccess'>;

/**
 * One SQL parameter, in `$n` order. Variables and globals are bound by name, never spliced.
 * Encoding (one rule, owned by the engine): every value is sent as its JSON text
 * (`JSON.stringify(value)`; an absent optional value is SQL NULL), and the compiled SQL decodes it
 * from `$n::jsonb` into the parameter's type (std's decode form for that type).
 */
export interface QueryParam {
  /**
   * `variable` for `$name` / `<type>$name`; `global` for a declared `global name`; `auth` for what
   * the caller's verified auth context provides (never the request): `name` is `current_user_id` (uuid),
   * `current_user_email` (str), `current_role` (str), `current_user_is_anonymous` (bool),
   * `permissions` (array<str>, `global sys::current_permissions`) or `roles` (array<str>, read by
   * `has_role`): std/caller.
   */
  readonly source: 'variable' | 'global' | 'auth';
  /** The EdgeQL name as written (`$id` → `id`; positional `$0` → `0`; globals fully qualified). */
  readonly name: string;
  /** The EdgeQL type, printed (`std::uuid`, `array<std::str>`): for messages. */
  readonly type: string;
  /** The same type, as the engine checks a value's JSON kind against it (std/params). */
  readonly valueType: TypeRef;
  /** `<optional T>$x` and globals are optional; other variables are required. */
  readonly required: boolean;
}

/**
 * A compiled query: one SQL statement returning exactly one row with one column, `result`,
 * holding the JSON text of the whole result array (PostgreSQL builds it; Node forwards it).
 */
export interface CompiledQuery {
  /** The statement: one row, whose `result` column is the JSON array of the query's elements. */
  readonly sql: string;
  /**
   * The same statement answering the inside of that array only: the elements' JSON texts joined
   * with `', '`, NULL for none (`resultArrayText` puts the brackets back). Present when the
   * elements are JSON text the compiler built, nearly always. The engine runs this form:
   * PostgreSQL would otherwise copy a result twice more to add two characters, and past about
   * 30 KB those copies move its heap's top (glibc trims it and faults it back in on every
   * query), which doubled the database's time for a 100-row page.
   */
  readonly elementsSql?: string;
  readonly params: readonly QueryParam[];
  readonly cardinality: InferredCardinality;
  /** The result's EdgeQL type, printed (for errors and `svc query`). */
  readonly resultType: string;
  /** True when the statement writes (insert, update, delete anywhere in it). */
  readonly writes: boolean;
  /** The types of its variables and result (query/describe), when compiled with `describe`. */
  readonly description?: QueryDescription;
}

/** The cardinality of a set, as Gel names it. */
export type DescribedCardinality = 'empty' | 'atMostOne' | 'one' | 'many' | 'atLeastOne';

/** The type of a value in a query's input or output, as EdgeQL names it. */
export type TypeDescriptor =
  /** A std scalar (`std::int64`) or a custom scalar (`base`: the std scalar it is stored as). */
  | { readonly kind: 'scalar'; readonly name: string; readonly base?: string }
  | { readonly kind: 'enum'; readonly name: string; readonly values: readonly string[] }
  | { readonly kind: 'array'; readonly element: TypeDescriptor }
  | { readonly kind: 'tuple'; readonly elements: readonly TypeDescriptor[] }
  | {
      readonly kind: 'namedtuple';
      readonly elements: readonly { readonly name: string; readonly type: TypeDescriptor }[];
    }
  | { readonly kind: 'range'; readonly element: TypeDescriptor }
  | { readonly kind: 'multirange'; readonly element: TypeDescriptor }
  /**
   * An object as a JSON object: a shape's elements, `{id}` for an object without a shape, or a
   * free object (`name` `std::FreeObject`). `name` is a union (`A | B`) when several types may
   * come.
   */
  | {
      readonly kind: 'object';
      readonly name: string;
      readonly pointers: readonly PointerDescriptor[];
    }
  /** An object answered as its id, a JSON string (a link shown without a sub-shape). */
  | { readonly kind: 'id'; readonly name: string }
  /** `{}` with no type: no value is ever answered. */
  | { readonly kind: 'empty' };

export interface PointerDescriptor {
  readonly name: string;
  /** `many` and `atLeastOne` are JSON arrays; the others a value or null. */
  readonly cardinality: DescribedCardinality;
  readonly type: TypeDescriptor;
}

/** A query's variables: each by name, with its type and whether it must be given. */
export interface ArgumentsDescriptor {
  readonly kind: 'arguments';
  readonly arguments: readonly {
    readonly name: string;
    readonly type: TypeDescriptor;
    readonly required: boolean;
  }[];
}

export interface QueryDescription {
  readonly input: ArgumentsDescriptor;
  readonly output: TypeDescriptor;
  readonly cardinality: DescribedCardinality;
}

/** The compiler's entry point (query/compile). Throws QueryError subclasses with positions. */
export type CompileQuery = (
  schema: Schema,
  text: string,
  options?: CompileOptions,
) => CompiledQuery;

/**
 * The SQL that runs for `compiled`: `elementsSql` when the compiler gave it (`elements`), else
 * `sql`. Its `result` column is read by `resultArrayText(result, elements)`.
 */
export function runnableStatement(compiled: CompiledQuery): {
  readonly sql: string;
  readonly elements: boolean;
} {
  return compiled.elementsSql === undefined
    ? { sql: compiled.sql, elements: false }
    : { sql: compiled.elementsSql, elements: true };
}

/**
 * The JSON array text of a compiled statement's `result` column: as it is for `sql`, between
 * brackets for `elementsSql` (`elements`). A missing value is the empty array; a driver that
 * parsed a `json` column hands back a value, serialised again here.
 */
export function resultArrayText(result: unknown, elements: boolean): string {
  if (result === undefined || result === null) return '[]';
  if (typeof result !== 'string') return JSON.stringify(result);
  return elements ? `[${result}]` : result;
}
