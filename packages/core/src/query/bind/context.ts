/**
 * bind/context: what the binder carries while it walks a query — the schema index, the
 * parameters met so far (by name: the same `$x` twice is one slot), binding ids, the recursion
 * depth guard, the binding mode, and the lexical `Scope` (module, names in scope, what a partial
 * path `.x` and `@x` start from, the path-id namespace `detached` opens).
 *
 * Modes: `query` binds a whole statement. Schema expressions bind through the same code as
 * restricted modes: `schema` (no parameters, no mutations; `.x` is the declaring type; schema
 * inference: schema/build/computed.ts and bound.ts) and `ddl` (DDL expressions, ./ddl: additionally
 * only std overloads marked `ddl`, no object type roots, no globals, InvalidDefinitionError;
 * what still needs a table is refused by the planner's row mode). The mode is consulted where a
 * node kind is refused.
 */
import type * as ql from '../../syntax';
import {
  EdgeQLSyntaxError,
  InvalidReferenceError,
  QueryError,
  type QueryErrorClass,
} from '../../errors';
import type { TypeRef } from '../../model/schema';
import type { Binding, IrExpr } from '../ir';
import type { Guard } from '../ir';
import type { SchemaIndex } from '../schema-index';

/** Deeper than this, a query is refused instead of overflowing the stack. */
export const MAX_DEPTH = 200;

export type BindMode = 'query' | 'schema' | 'ddl';

export interface ParamSlot {
  readonly index: number;
  readonly source: 'variable' | 'global' | 'auth';
  readonly name: string;
  readonly type: TypeRef;
  readonly required: boolean;
}

export interface Scope {
  /** The module unqualified names resolve in (then `std`). */
  readonly module: string;
  /** `with m as module x`: alias → module. */
  readonly moduleAliases: ReadonlyMap<string, string>;
  /** `with` aliases, `for` variables, select aliases, inlined function parameters. */
  readonly names: ReadonlyMap<string, Binding>;
  /** What `.x` starts from; null where a partial path means nothing. */
  readonly subject: IrExpr | null;
  /** The link `@x` reads properties of (inside a link's sub-shape or filter). */
  readonly link: IrExpr | null;
  /** Path ids bound to one element here (the subjects of enclosing shapes and statements). */
  readonly singletons: ReadonlySet<string>;
  /**
   * Path ids that stand for another set here: a view's computed element bound again for a new
   * source maps the shape's original subject to that source.
   */
  readonly pathAliases: ReadonlyMap<string, IrExpr>;
  /** Shapes whose computed elements `.x` reaches for a subject here (a select's own shape). */
  readonly views: ReadonlyMap<string, IrExpr>;
  /**
   * Appended to the path ids of type roots that are not an enclosing subject: a `with` alias
   * body names its sets afresh.
   */
  readonly aliasNamespace: string;
  /** Appended to path ids: `detached` and each statement-level rebinding start afresh. */
  readonly namespace: string;
  /** Inside a branch of `if ... else` or the right of `??`: the conditions a mutation bound
   * here runs under (query/ir `Guard`). */
  readonly guards?: readonly Guard[];
  /** Inside an insert's shape: the type inserted, which may not be read there (Gel refuses a
   * self-referencing insert; `detached T` reads the type's objects). */
  readonly inserting?: string;
  /** Inside an insert or update shape element that uses `__default__`: the pointer's default
   * (bind/dunder-default). */
  readonly dunderDefault?: IrExpr;
  /** Inside a link's value whose link properties ride on the value's shapes (bind/mutation's
   * carried parts): binds a shape's `@p := x` element as a write of the link property. */
  readonly linkWrite?: (el: ql.ShapeElement, scope: Scope) => IrExpr;
  /** Inside the `else` of an insert's `unless conflict`: the type inserted and the path-id
   * namespace there (an insert of the same type in the same namespace is a self-referencing
   * insert, as in Gel; `detached` opens another namespace). */
  readonly conflictElse?: {
    readonly type: string;
    readonly namespace: string;
    /** The name standing for the conflicting object there (`detached` reads the type again). */
    readonly binding: Binding;
  };
  /**
   * Gel's simple scoping (bind/scoping): the roots (a type, an alias, a `with` name, each by its
   * occurrence key) bound to one element here, the subjects of enclosing shapes and statements,
   * mapped to the path id of that occurrence. A root named elsewhere is a set of its own.
   */
  readonly roots?: ReadonlyMap<string, string>;
}

export class BindContext {
  readonly params = new Map<string, ParamSlot>();
  private nextId = 1;
  private depth = 0;

  constructor(
    readonly index: SchemaIndex,
    readonly mode: BindMode,
    /** The statement is compiled with access policies applied (cardinality depends on it). */
    readonly policies = false,
    /** An insert may give the new object's `id` (CompileOptions.allowUserSpecifiedId). */
    readonly userSpecifiedId = false,
  ) {}

  private readonly aliases = new Map<string, IrExpr>();
  /**
   * Computed elements of shapes, by shape node: a shape's computed element is a pointer of the
   * set the shape makes (`with U := User { n := 1 } select U.n`), bound again for each use.
   */
  readonly viewElements = new WeakMap<
    IrExpr,
    Map<string, { element: ql.ShapeElement; scope: Scope }>
  >();
  /** View elements being bound again: inside its own definition, `x` is the real pointer. */
  readonly rebinding = new WeakMap<IrExpr, Set<string>>();
  private readonly inProgress = new Set<string>();

  /** A schema alias's bound expression (bound once per query). */
  aliasExpr(name: string, bind: () => IrExpr): IrExpr {
    const known = this.aliases.get(name);
    if (known) return known;
    const expr = this.guard(`alias ${name}`, bind);
    this.aliases.set(name, expr);
    return expr;
  }

  /** A computed pointer's expression bound for one source; refuses a computed that reads itself. */
  computedExpr(type: string, pointer: string, bind: () => IrExpr): IrExpr {
    return this.guard(`computed ${type}.${pointer}`, bind);
  }

  private guard(key: string, bind: () => IrExpr): IrExpr {
    if (this.inProgress.has(key)) {
      throw new QueryError(`${key} refers to itself`);
    }
    this.inProgress.add(key);
    try {
      return bind();
    } finally {
      this.inProgress.delete(key);
    }
  }

  freshId(): number {
    return this.nextId++;
  }

  /** Runs `fn` one level deeper, refusing absurd nesting before the JS stack would overflow. */
  nested<T>(span: ql.Span, fn: () => T): T {
    if (++this.depth > MAX_DEPTH) {
      this.depth = 0;
      throw new EdgeQLSyntaxError(
        `the query is nested too deeply (more than ${MAX_DEPTH} levels)`,
        {
          position: position(span),
        },
      );
    }
    try {
      return fn();
    } finally {
      this.depth--;
    }
  }

  /** Registers `$name` (or a global): one slot per name; a second use must agree on the type. */
  param(
    source: 'variable' | 'global' | 'auth',
    name: string,
    type: TypeRef,
    required: boolean,
    span: ql.Span,
  ): ParamSlot {
    const key = `${source}:${name}`;
    const existing = this.params.get(key);
    if (existing) {
      if (
        JSON.stringify(existing.type) !== JSON.stringify(type) ||
        existing.required !== required
      ) {
        fail(QueryError, `parameter $${name} is used with different types`, span);
      }
      return existing;
    }
    const slot: ParamSlot = { index: this.params.size, source, name, type, required };
    this.params.set(key, slot);
    return slot;
  }
}

export function rootScope(module = 'default'): Scope {
  return {
    module,
    moduleAliases: new Map(),
    names: new Map(),
    subject: null,
    link: null,
    singletons: new Set(),
    pathAliases: new Map(),
    views: new Map(),
    aliasNamespace: '',
    namespace: '',
  };
}

export function position(
  span: ql.Span | null | undefined,
): { line: number; column: number } | undefined {
  return span ? { line: span.start.line, column: span.start.column } : undefined;
}

/** Throws a query error of `cls` at `span`. */
export function fail(
  cls: QueryErrorClass,
  message: string,
  span: ql.Span | null,
  hint?: string,
): never {
  throw new cls(message, { position: position(span), hint });
}

export function unknownName(what: string, name: string, span: ql.Span, hint?: string): never {
  return fail(InvalidReferenceError, `${what} '${name}' does not exist`, span, hint);
}

/** The closest name by edit distance (at most 2 edits), for "did you mean" hints. */
export function closest(name: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of names) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j] as number;
      row[j] = Math.min(
        (row[j] as number) + 1,
        (row[j - 1] as number) + 1,
        prev + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      prev = tmp;
    }
  }
  return row[b.length] as number;
}
