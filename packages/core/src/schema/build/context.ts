/**
 * build/context: the one mutable object a schema build passes through its phases, the drafts it
 * fills in, and the error helper every phase throws through.
 *
 * Input: nothing (types only, plus `fail`). Output: `BuildContext` and the draft shapes.
 * Invariants: a context belongs to exactly one `buildSchema` call (no module-level state); drafts
 * are mutable while building and are copied into the immutable model by `assemble.ts`; every
 * error carries the position of the node that caused it.
 */
import type * as ql from '../../syntax';
import { QueryError, type QueryErrorClass } from '../../errors';
import type {
  AbstractAnnotation,
  AccessPolicy,
  Annotations,
  Constraint,
  Index,
  OnSourceDelete,
  OnTargetDelete,
  ScalarType,
  SplatStrategy,
  TypeRef,
} from '../../model/schema';

/** How many values an expression yields: at least `min`, at most `max`. */
export interface Card {
  readonly min: 0 | 1;
  readonly max: 0 | 1 | 'many';
}

/** What inference learns about an expression; `type` is null when it cannot be told (e.g. `{}`). */
export interface Inferred {
  readonly type: TypeRef | null;
  readonly card: Card;
}

/** A declaration found in the SDL, with the module it lives in and its fully qualified name. */
export interface Decl<T extends ql.Node> {
  readonly name: string;
  readonly module: string;
  readonly node: T;
}

export interface PointerDraft {
  name: string;
  kind: 'property' | 'link';
  required: boolean;
  cardinality: 'one' | 'many';
  /** Null only while a computed pointer waits for inference. */
  target: TypeRef | null;
  computed: ql.Expr | null;
  default: ql.Expr | null;
  readonly: boolean;
  splatStrategy: SplatStrategy;
  constraints: Constraint[];
  annotations: Record<string, string>;
  onTargetDelete: OnTargetDelete | null;
  onSourceDelete: OnSourceDelete | null;
  properties: PointerDraft[];
  declaredIn: string;
  /** The object type whose declaration gave this draft: its expressions' subject. */
  home: string;
  span: ql.Span | null;
  /** What the user wrote, for checks that run after the merge (null for `id`). */
  readonly node: ql.PointerDecl | null;
  /** The module the declaring type lives in: expressions resolve names there. */
  readonly module: string;
  /** Declared `single`/`multi`, or null (a computed then takes its inferred cardinality). */
  declaredCardinality: 'one' | 'many' | null;
  declaredRequired: boolean | null;
  /** Inference state of a computed pointer, to catch a computed that reads itself. */
  inference: 'pending' | 'running' | 'done';
  /** For a link property: the link it belongs to (its `@` scope). */
  readonly ownerLink: PointerDraft | null;
}

export interface ObjectDraft {
  readonly name: string;
  readonly module: string;
  readonly node: ql.ObjectTypeDecl;
  bases: string[];
  ancestors: string[];
  /** Flattened, `id` first; filled by pointers.ts in ancestor-first order. */
  pointers: PointerDraft[];
  constraints: Constraint[];
  indexes: Index[];
  policies: AccessPolicy[];
  annotations: Annotations;
  /** Phase marker for the ancestor-first pointer flattening (`failed`: it reported errors). */
  state: 'new' | 'building' | 'built' | 'failed';
}

export interface FunctionDraft {
  readonly name: string;
  readonly module: string;
  readonly node: ql.FunctionDecl;
  params: {
    name: string;
    kind: 'positional' | 'variadic' | 'named only';
    typeModifier: 'optional' | null;
    type: TypeRef;
    default: ql.Expr | null;
  }[];
  returnType: TypeRef;
  returnModifier: 'set of' | 'optional' | null;
  body: ql.Expr;
  /** `name(type, type)`: two functions with the same one are duplicates. */
  signature: string;
}

export interface GlobalDraft {
  readonly name: string;
  readonly module: string;
  readonly node: ql.GlobalDecl;
  target: TypeRef | null;
  required: boolean;
  cardinality: 'one' | 'many';
  declaredCardinality: 'one' | 'many' | null;
  default: ql.Expr | null;
  computed: ql.Expr | null;
  annotations: Annotations;
  inference: 'pending' | 'running' | 'done';
}

export interface AliasDraft {
  readonly name: string;
  readonly module: string;
  readonly node: ql.AliasDecl;
  readonly expr: ql.Expr;
  inferred: Inferred | null;
  inference: 'pending' | 'running' | 'done';
}

export interface BuildContext {
  readonly ast: ql.Schema;
  /** Every module name, nested ones as `a::b`. */
  readonly modules: Set<string>;
  readonly objectTypes: Map<string, ObjectDraft>;
  readonly scalarDecls: Map<string, Decl<ql.ScalarTypeDecl>>;
  readonly scalars: Map<string, ScalarType>;
  readonly aliases: Map<string, AliasDraft>;
  readonly globals: Map<string, GlobalDraft>;
  /** Overloads by name, in declaration order. */
  readonly functions: Map<string, FunctionDraft[]>;
  readonly functionDecls: Decl<ql.FunctionDecl>[];
  readonly constraintDecls: Map<string, Decl<ql.AbstractConstraintDecl>>;
  readonly annotationDecls: Map<string, Decl<ql.AnnotationDecl>>;
  readonly annotations: Map<string, AbstractAnnotation>;
  /** `abstract link x { ... }` / `abstract property x`: what `extending x` on a pointer inherits. */
  readonly abstractPointers: Map<string, Decl<ql.PointerDecl>>;
  /** The schema errors of the running phase (`attempt`), thrown together by `settle`. */
  readonly errors: QueryError[];
}

export function newContext(ast: ql.Schema): BuildContext {
  return {
    ast,
    modules: new Set(),
    objectTypes: new Map(),
    scalarDecls: new Map(),
    scalars: new Map(),
    aliases: new Map(),
    globals: new Map(),
    functions: new Map(),
    functionDecls: [],
    constraintDecls: new Map(),
    annotationDecls: new Map(),
    annotations: new Map(),
    abstractPointers: new Map(),
    errors: [],
  };
}

/** Throws `Cls` at `span` (its start, and its end for the code frame's underline). */
export function fail(
  Cls: QueryErrorClass,
  message: string,
  span: ql.Span | null | undefined,
  hint?: string,
): never {
  const position = span
    ? {
        line: span.start.line,
        column: span.start.column,
        endLine: span.end.line,
        endColumn: span.end.column,
      }
    : undefined;
  throw new Cls(message, { position, ...(hint === undefined ? {} : { hint }) });
}

/**
 * Runs one declaration's share of a phase. A schema error it throws is kept (once) and the
 * phase goes on with the next declaration, so one build reports every independent error; the
 * phase ends with `settle`. Anything else (a bug) still throws at once, unless errors were kept
 * already: then those are thrown instead, since the fault may come from what they left unbuilt.
 */
export function attempt(ctx: BuildContext, step: () => void): void {
  try {
    step();
  } catch (err) {
    if (!(err instanceof QueryError)) {
      // Past a refused declaration, a fault may be an echo of its gap: the user's errors first.
      settle(ctx);
      throw err;
    }
    const same = (e: QueryError) =>
      e.message === err.message &&
      e.position?.line === err.position?.line &&
      e.position?.column === err.position?.column;
    if (!ctx.errors.some(same)) ctx.errors.push(err);
  }
}

/**
 * Ends a phase: when `attempt` kept errors, throws the first in source order with the others
 * attached (`SvcError.others`). A later phase reads what this one built, so it never runs on a
 * phase that failed: its errors could be echoes of these.
 */
export function settle(ctx: BuildContext): void {
  if (ctx.errors.length === 0) return;
  const sorted = [...ctx.errors].sort(
    (a, b) =>
      (a.position?.line ?? Infinity) - (b.position?.line ?? Infinity) ||
      (a.position?.column ?? 0) - (b.position?.column ?? 0),
  );
  const [first, ...others] = sorted as [QueryError, ...QueryError[]];
  throw others.length === 0 ? first : first.with({ others });
}
