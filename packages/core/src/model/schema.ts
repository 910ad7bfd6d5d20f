/**
 * model/schema: the schema as the rest of svc sees it, after SDL is parsed, names are resolved,
 * inheritance is flattened and every rule is checked (schema/build). Immutable and JSON-safe
 * (plain objects and arrays, no Maps, no classes) so it can be stored, diffed and compared.
 *
 * Names are always fully qualified: `default::User`, `std::str`, `cal::local_date`.
 * Expressions stay as syntax trees (`ql.Expr`); the compiler stages turn them into SQL.
 *
 * Invariants a built Schema guarantees:
 * - every TypeRef names a type that exists (`std::BaseObject` and `std::Object`, the implicit
 *   roots of every object type, are not listed in `objectTypes`); no array of arrays in a stored
 *   type (queries may build them: docs/gel-differences.md);
 * - `ObjectType.pointers` holds every pointer, inherited ones included, `id` first, then in
 *   declaration order (bases first, in MRO order);
 * - `ObjectType.ancestors` is the C3 linearisation of the bases (without the type itself);
 * - lists (`objectTypes`, `scalarTypes`, ...) are sorted by name, so equal schemas are equal JSON.
 */
import type * as ql from '../syntax/ast';

export type SourceSpan = ql.Span;

/** The std scalar types a property may have (the storage layer maps each to a PostgreSQL type). */
export const STD_SCALARS = [
  'std::str',
  'std::bool',
  'std::int16',
  'std::int32',
  'std::int64',
  'std::float32',
  'std::float64',
  'std::bigint',
  'std::decimal',
  'std::uuid',
  'std::json',
  'std::bytes',
  'std::datetime',
  'std::duration',
  'std::sequence',
  'cal::local_datetime',
  'cal::local_date',
  'cal::local_time',
  'cal::relative_duration',
  'cal::date_duration',
] as const;
export type StdScalarName = (typeof STD_SCALARS)[number];

/**
 * Gel's std and sys enums, which every schema has without declaring them, with their values in
 * order. Each is stored as a text DOMAIN in `svc_meta` named by its short name (storage/
 * types, schema/bootstrap), so no two of them may share one.
 */
export const STD_ENUMS: Readonly<Record<string, readonly string[]>> = {
  'std::Endian': ['Little', 'Big'],
  // json_set's `empty_treatment`; a pointer's cardinality (introspection).
  'std::JsonEmpty': ['ReturnEmpty', 'ReturnTarget', 'Error', 'UseNull', 'DeleteKey'],
  // std::enc::base64_encode / base64_decode's `alphabet`.
  'std::enc::Base64Alphabet': ['standard', 'urlsafe'],
  'schema::Cardinality': ['One', 'Many'],
  // sys::get_version()'s `stage` (std/version).
  'sys::VersionStage': ['dev', 'alpha', 'beta', 'rc', 'final'],
};

/** The element types a `range<T>` may have (Gel's `anypoint`). */
export const RANGE_ELEMENTS = [
  'std::int32',
  'std::int64',
  'std::float32',
  'std::float64',
  'std::decimal',
  'std::datetime',
  'cal::local_datetime',
  'cal::local_date',
] as const;
export type RangeElementName = (typeof RANGE_ELEMENTS)[number];
const RANGE_ELEMENT_SET: ReadonlySet<string> = new Set(RANGE_ELEMENTS);
/** The range element types whose ranges are discrete (Gel's `anydiscrete`): canonical `[lo, hi)`. */
const DISCRETE_RANGE_ELEMENTS: ReadonlySet<string> = new Set([
  'std::int32',
  'std::int64',
  'cal::local_date',
]);
export const isRangeElement = (name: string): name is RangeElementName =>
  RANGE_ELEMENT_SET.has(name);
export const isDiscreteRangeElement = (name: string): boolean => DISCRETE_RANGE_ELEMENTS.has(name);

/**
 * Why `range<element>` / `multirange<element>` is no type (Gel's UnsupportedFeatureError, in
 * schemas and queries alike), or null when it is one.
 */
export function rangeElementProblem(
  element: TypeRef,
): { readonly message: string; readonly hint: string } | null {
  if (element.kind === 'scalar' && isRangeElement(element.name)) return null;
  return {
    message: `unsupported range subtype: ${printTypeRef(element)}`,
    hint: `a range's element type is one of ${RANGE_ELEMENTS.join(', ')}`,
  };
}

/** A reference to a type, resolved. */
export type TypeRef =
  /** A std scalar or a custom scalar (`default::Color`). */
  | { readonly kind: 'scalar'; readonly name: string }
  /** An object type, or `std::BaseObject` / `std::Object`: the root every object type extends. */
  | { readonly kind: 'object'; readonly name: string }
  /**
   * `A | B` as a link target: several object types, none including another, sorted by name
   * (a union with a common base is still a union; `A | A` and `A | SubOfA` are just `A`).
   */
  | { readonly kind: 'union'; readonly members: readonly string[] }
  | { readonly kind: 'array'; readonly element: TypeRef }
  /** `range<std::int64>`: a range over one of the range element types (`RANGE_ELEMENTS`). */
  | { readonly kind: 'range'; readonly element: TypeRef }
  /** `multirange<std::int64>`: a set of non-overlapping ranges of one range element type. */
  | { readonly kind: 'multirange'; readonly element: TypeRef }
  | {
      readonly kind: 'tuple';
      /** Names are all null (an unnamed tuple) or all set (a named tuple). */
      readonly elements: readonly { readonly name: string | null; readonly type: TypeRef }[];
    };

/** How `printTypeRef` writes names: as they are, or quoted for EdgeQL text a parser reads back. */
export interface TypeNamePrinter {
  /** A qualified type name (`default::User`). */
  readonly type: (qualified: string) => string;
  /** A named tuple element's name. */
  readonly element: (name: string) => string;
}

const PLAIN_NAMES: TypeNamePrinter = { type: (q) => q, element: (n) => n };

/** The EdgeQL spelling of a type, as Gel prints it in messages and catalogues: `std::str`,
 * `array<std::int64>`, `tuple<a: std::str, b: default::User>`. The one type printer; `names`
 * quotes the names where the text is EdgeQL to be parsed (@svc/rest's casts). */
export function printTypeRef(type: TypeRef, names: TypeNamePrinter = PLAIN_NAMES): string {
  const print = (t: TypeRef): string => printTypeRef(t, names);
  switch (type.kind) {
    case 'scalar':
    case 'object':
      return names.type(type.name);
    case 'union':
      return type.members.map(names.type).join(' | ');
    case 'array':
      return `array<${print(type.element)}>`;
    case 'range':
      return `range<${print(type.element)}>`;
    case 'multirange':
      return `multirange<${print(type.element)}>`;
    case 'tuple':
      return `tuple<${type.elements
        .map((e) =>
          e.name === null ? print(e.type) : `${names.element(e.name)}: ${print(e.type)}`,
        )
        .join(', ')}>`;
  }
}

export type Annotations = Readonly<Record<string, string>>;

/** A constraint on a pointer, a scalar type or an object type. */
export interface Constraint {
  /** `std::exclusive`, `std::max_value`, `std::expression`, ... or a user abstract constraint. */
  readonly name: string;
  readonly args: readonly ql.Expr[];
  /** `on (...)`: the subject expression (for type-level constraints, required). */
  readonly subjectExpr: ql.Expr | null;
  readonly except: ql.Expr | null;
  readonly delegated: boolean;
  readonly errmessage: string | null;
  /** The type that declared it (for inherited constraints, the ancestor). */
  readonly declaredIn: string;
  readonly span: SourceSpan | null;
}

/**
 * Which splats list a pointer (Gel's `splat_strategy`): `Default` (`*` lists properties, `**`
 * links too), `Explicit` (only when named), `Implicit` (listed by `*` as well, even a link).
 */
export type SplatStrategy = 'Default' | 'Explicit' | 'Implicit';
export const SPLAT_STRATEGIES: readonly SplatStrategy[] = ['Default', 'Explicit', 'Implicit'];

export type OnTargetDelete = 'restrict' | 'delete source' | 'allow' | 'deferred restrict';
export type OnSourceDelete = 'allow' | 'delete target' | 'delete target if orphan';

export interface Pointer {
  readonly name: string;
  readonly kind: 'property' | 'link';
  readonly required: boolean;
  /** `single` is `one`, `multi` is `many`. */
  readonly cardinality: 'one' | 'many';
  /** For a computed pointer, the type inferred from its expression. */
  readonly target: TypeRef;
  /** `name := expr`; null for a stored pointer. */
  readonly computed: ql.Expr | null;
  readonly default: ql.Expr | null;
  readonly readonly: boolean;
  /** `splat_strategy := '...'`; `Default` unless set. */
  readonly splatStrategy: SplatStrategy;
  readonly constraints: readonly Constraint[];
  readonly annotations: Annotations;
  /** Links only; `restrict` by default. */
  readonly onTargetDelete: OnTargetDelete | null;
  readonly onSourceDelete: OnSourceDelete | null;
  /** Links only: link properties. */
  readonly properties: readonly Pointer[];
  /** The object type that first declared it (itself when not inherited). */
  readonly declaredIn: string;
  readonly span: SourceSpan | null;
}

export interface Index {
  /** `index fts::index on (...)`, `index pg::gin on (...)`; null for a plain index. */
  readonly kind: string | null;
  readonly expr: ql.Expr;
  readonly except: ql.Expr | null;
  readonly annotations: Annotations;
  readonly declaredIn: string;
  readonly span: SourceSpan | null;
}

export type AccessKind = 'select' | 'insert' | 'update read' | 'update write' | 'delete';

export interface AccessPolicy {
  readonly name: string;
  readonly action: 'allow' | 'deny';
  /** Expanded: `all` and `update` become their parts. */
  readonly kinds: readonly AccessKind[];
  readonly when: ql.Expr | null;
  readonly using: ql.Expr | null;
  readonly errmessage: string | null;
  readonly declaredIn: string;
  readonly span: SourceSpan | null;
}

export interface ObjectType {
  readonly name: string;
  readonly abstract: boolean;
  readonly bases: readonly string[];
  readonly ancestors: readonly string[];
  readonly pointers: readonly Pointer[];
  readonly constraints: readonly Constraint[];
  readonly indexes: readonly Index[];
  readonly policies: readonly AccessPolicy[];
  readonly annotations: Annotations;
  readonly span: SourceSpan | null;
}

export interface ScalarType {
  readonly name: string;
  readonly abstract: boolean;
  /** The immediate base: a std scalar, another custom scalar, or `std::anyenum` for enums. */
  readonly base: string;
  /** The std scalar it is stored as (`std::str` for enums). */
  readonly stdBase: StdScalarName;
  readonly enumValues: readonly string[] | null;
  readonly constraints: readonly Constraint[];
  readonly annotations: Annotations;
  readonly span: SourceSpan | null;
}

export interface Global {
  readonly name: string;
  readonly target: TypeRef;
  readonly required: boolean;
  readonly cardinality: 'one' | 'many';
  readonly default: ql.Expr | null;
  readonly computed: ql.Expr | null;
  readonly annotations: Annotations;
  readonly span: SourceSpan | null;
}

export interface FunctionParam {
  readonly name: string;
  readonly kind: 'positional' | 'variadic' | 'named only';
  readonly typeModifier: 'optional' | null;
  readonly type: TypeRef;
  readonly default: ql.Expr | null;
}

export interface FunctionDef {
  readonly name: string;
  readonly params: readonly FunctionParam[];
  readonly returnType: TypeRef;
  readonly returnModifier: 'set of' | 'optional' | null;
  /** The EdgeQL body (`using (...)`); SDL functions are inlined at compile time. */
  readonly body: ql.Expr;
  readonly volatility: 'Immutable' | 'Stable' | 'Volatile';
  readonly annotations: Annotations;
  readonly span: SourceSpan | null;
}

export interface Alias {
  readonly name: string;
  readonly expr: ql.Expr;
  readonly span: SourceSpan | null;
}

export interface AbstractConstraint {
  readonly name: string;
  readonly params: readonly FunctionParam[];
  readonly expr: ql.Expr;
  readonly errmessage: string | null;
  readonly span: SourceSpan | null;
}

export interface AbstractAnnotation {
  readonly name: string;
  readonly inheritable: boolean;
}

export interface Schema {
  readonly modules: readonly string[];
  readonly objectTypes: readonly ObjectType[];
  readonly scalarTypes: readonly ScalarType[];
  readonly globals: readonly Global[];
  readonly functions: readonly FunctionDef[];
  readonly aliases: readonly Alias[];
  readonly constraints: readonly AbstractConstraint[];
  readonly annotations: readonly AbstractAnnotation[];
}

/**
 * Module names a schema may not declare: svc's own PostgreSQL schemas (`svc_*`), PostgreSQL's
 * (`pg_*`, `public`), and the modules of the standard library and introspection (`std`,
 * `schema`, `sys`, `cal`, `math`). The rule reads the first segment (`std::x` is reserved too:
 * Gel's standard modules are read-only, their submodules included); and, as Gel, no module may
 * be called `super` at any depth (`foo::super`).
 */
export function reservedModule(module: string): boolean {
  const segments = module.split('::');
  const first = segments[0] ?? module;
  return (
    first.startsWith('svc_') ||
    first.startsWith('pg_') ||
    ['public', 'std', 'schema', 'sys', 'cal', 'math'].includes(first) ||
    segments.includes('super')
  );
}

/**
 * The boolean each std constraint with a body checks, `__subject__` being the constrained value
 * and the parameters named as here (`exclusive` is an index, `expression` is its `on (...)`,
 * `one_of` a list). One table for the builder (an abstract constraint extending one of these
 * takes its body) and the storage layout (CHECKs).
 */
export const STD_CONSTRAINT_BODIES: Readonly<
  Record<
    string,
    { readonly params: readonly string[]; readonly expr: string; readonly variadic?: boolean }
  >
> = {
  'std::max_value': { params: ['max'], expr: '__subject__ <= max' },
  'std::min_value': { params: ['min'], expr: '__subject__ >= min' },
  'std::max_ex_value': { params: ['max'], expr: '__subject__ < max' },
  'std::min_ex_value': { params: ['min'], expr: '__subject__ > min' },
  'std::max_len_value': { params: ['max'], expr: 'len(__subject__) <= max' },
  'std::min_len_value': { params: ['min'], expr: 'len(__subject__) >= min' },
  'std::regexp': { params: ['pattern'], expr: 're_test(pattern, __subject__)' },
  'std::one_of': { params: [], expr: '', variadic: true },
};

/** The implicit root object types: every object type extends `std::Object` (a `BaseObject`). */
export const ROOT_OBJECT_TYPES = ['std::BaseObject', 'std::Object'] as const;

/** The object types a link target may hold rows of (a union's members, or the one type). */
export function targetObjectTypes(type: TypeRef): readonly string[] {
  if (type.kind === 'object') return [type.name];
  if (type.kind === 'union') return type.members;
  return [];
}

/** The built-in annotations every schema may use without declaring them. */
export const BUILTIN_ANNOTATIONS = [
  'std::title',
  'std::description',
  'std::deprecated',
  'rest::hidden',
  'rest::expand',
] as const;
