/**
 * storage/ddl-compiler: what the storage layout needs from the compiler of DDL expressions — a
 * column default, a CHECK, an expression index element, a domain CHECK, each a scalar EdgeQL
 * expression of the schema compiled to a PostgreSQL expression.
 *
 * That compiler is the query compiler (schema/ddl-expression: the binder in `ddl` mode and the
 * planner's row mode), and the query compiler reads the layout (which columns have a default), so
 * the layout cannot import it: it sits below the compiler and is handed it. `schema/` (which sits
 * above the compiler) provides it before any layout is built: `buildSchema` and `planMigration`
 * call `provideDdlCompiler`, and every Schema comes from `buildSchema`.
 */
import type * as ql from '../syntax';
import type { Constraint, Schema, TypeRef } from '../model/schema';
import type { SqlExpr } from '../sql/ast';

export type Volatility = 'immutable' | 'stable' | 'volatile';

/**
 * Where the expression goes: a column default, a CHECK, an index element, a domain's CHECK, or
 * an exclusive constraint's unique index element (an index, whose errors are a constraint's).
 */
export type ScalarMode = 'default' | 'check' | 'index' | 'exclusive' | 'domain';

/** What `__subject__`, `.x` and `@x` mean in a DDL expression (the binder's `RowSubject`). */
export type DdlSubject =
  /** A default: no row. */
  | { readonly kind: 'none' }
  /** A type's constraint or index: `.x` is the row's pointer x (the row of concrete `type`). */
  | { readonly kind: 'object'; readonly type: string }
  /**
   * A pointer's constraint: `__subject__` is `.pointer` of the row of `type`; a link's `@x` its
   * link properties. `junction`: the row is the pointer's own table (multi pointers).
   */
  | {
      readonly kind: 'pointer';
      readonly type: string;
      readonly pointer: string;
      readonly junction: boolean;
    }
  /** A domain's check: `__subject__` is the value (`VALUE`) of `type`. */
  | { readonly kind: 'value'; readonly type: TypeRef };

export interface ScalarContext {
  readonly schema: Schema;
  /** The module unqualified names resolve in first (then `std`). */
  readonly module: string;
  readonly mode: ScalarMode;
  readonly subject: DdlSubject;
}

export interface Compiled {
  readonly sql: SqlExpr;
  /** Null when not known (`{}`). */
  readonly type: TypeRef | null;
  readonly volatility: Volatility;
}

export interface DdlCompiler {
  /** A scalar expression; `InvalidDefinitionError` when PostgreSQL cannot evaluate it there. */
  compileScalar(expr: ql.Expr, ctx: ScalarContext): Compiled;
  /** A constraint's whole CHECK on the row. */
  compileConstraint(c: Constraint, ctx: ScalarContext): SqlExpr;
}

let provided: DdlCompiler | null = null;

/** Hands the layout the compiler of DDL expressions (there is one; providing it again is a no-op). */
export function provideDdlCompiler(compiler: DdlCompiler): void {
  provided = compiler;
}

/** The compiler the layout compiles defaults, checks and index expressions with. */
export function ddlCompiler(): DdlCompiler {
  if (provided === null) {
    throw new Error(
      'storage layout: no DDL expression compiler was provided (build the schema with buildSchema)',
    );
  }
  return provided;
}
