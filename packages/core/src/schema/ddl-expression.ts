/**
 * schema/ddl-expression: a scalar EdgeQL expression of the schema (a column default, a
 * CHECK, an expression index element, a domain CHECK) → a PostgreSQL expression, through the
 * query compiler: bound by the binder in `ddl` mode (query/bind/ddl) and planned as one row's
 * expression (query/plan/planner `planRowExpression`). There is one table of operators, casts
 * and functions (std) and one binder; this module only says what the row is and keeps the rules
 * of DDL.
 *
 * Input: the expression, the Schema, the module, and what `__subject__`, `.x` and `@x` mean
 * (`RowSubject`). Output: `{ sql, type, volatility }`; a constraint's whole CHECK
 * (`compileConstraint`).
 * Rules kept for DDL (with the binder's and std's own semantics: `/` on integers gives float64,
 * `//` floors, `%` takes the divisor's sign, str orders by code points (`COLLATE "C"`), enums by
 * declaration order, ...):
 * - checks, indexes and domains must be immutable: a stable or volatile function there is refused
 *   (`InvalidConstraintDefinitionError` in a constraint, `InvalidDefinitionError` in an index);
 *   defaults may be volatile; in an index, std's runtime errors raise through an immutable twin;
 * - globals, parameters, object types, aggregates (the binder's `ddl` mode), and paths beyond the
 *   row's own columns or queries (the planner's row mode) are refused with
 *   `InvalidDefinitionError` — a default refused so becomes a query default (./layout);
 * - SDL functions are inlined (the binder), their parameters the arguments' values in place;
 * - errors carry the offending expression's position.
 */
import * as ql from '../syntax';
import { InvalidConstraintDefinitionError, InvalidDefinitionError } from '../errors';
import type { Constraint, TypeRef } from '../model/schema';
import { STD_CONSTRAINT_BODIES } from '../model/schema';
import { sql, type SqlExpr } from '../sql/ast';
import { transformSql } from '../sql/transform';
import type { Binding, IrExpr, IrType } from '../query/ir';
import { schemaIndex } from '../query/schema-index';
import { DdlBinder, type RowPaths } from '../query/bind/ddl';
import { children, typeEnv } from '../query/ir';
import { planRowExpression, ROW_ALIAS } from '../query/plan/planner';
import type { Bound } from '../query/plan/rel';
import type { ResolvedCall } from '../std/resolve';
import type { Cast } from '../std/casts';
import type { Compiled, DdlCompiler, ScalarContext, Volatility } from '../storage/ddl-compiler';
import { splitName } from '../storage/types';

export type { RowSubject } from '../query/bind/ddl';

export type { Compiled, ScalarContext, ScalarMode, Volatility } from '../storage/ddl-compiler';

export function compileScalar(expr: ql.Expr, ctx: ScalarContext): Compiled {
  const binder = DdlBinder.create(schemaIndex(ctx.schema), ctx.module, ctx.subject);
  const compiled = plan(ctx, binder.row, binder.bind(expr), expr);
  if (ctx.mode !== 'default' && compiled.volatility !== 'immutable') {
    // Gel's classes and words: a constraint's (its CHECK, a domain's, an exclusive's index)
    // is InvalidConstraintDefinitionError, an index's InvalidDefinitionError.
    const Class = ctx.mode === 'index' ? InvalidDefinitionError : InvalidConstraintDefinitionError;
    throw new Class(
      `${ctx.mode === 'index' ? 'index' : 'constraint'} expressions must be immutable, but \`${ql.printExpression(expr)}\` is ${compiled.volatility}`,
      {
        position: pos(expr),
        hint: 'functions such as datetime_current() give a different value each time; use them in a default instead',
      },
    );
  }
  const indexed = ctx.mode === 'index' || ctx.mode === 'exclusive';
  return indexed ? { ...compiled, sql: immutableRaise(compiled.sql) } : compiled;
}

/**
 * An index expression with std's runtime errors raised by `svc_meta.raise_immutable`:
 * PostgreSQL refuses an index whose expression calls a function not marked immutable, and
 * `svc_meta.raise` is stable (std/bootstrap says why). Its twin is safe in an index because std's
 * raise helper always gives it an argument that depends on the row.
 */
function immutableRaise(expr: SqlExpr): SqlExpr {
  return transformSql(expr, {
    expr: (e) =>
      e.kind === 'FuncCall' && e.schema === 'svc_meta' && e.name === 'raise'
        ? { ...e, name: 'raise_immutable', args: e.args.map(immutableRaise) }
        : undefined,
  });
}

/**
 * The CHECK of a constraint on the row: `expression on (e)` is `e`; a std or SDL abstract
 * constraint is its body with `__subject__` the subject (or its `on (...)` expression) and its
 * parameters the arguments; `except (e)` makes it hold where `e` is true.
 */
export function compileConstraint(c: Constraint, ctx: ScalarContext): SqlExpr {
  const binder = DdlBinder.create(schemaIndex(ctx.schema), ctx.module, ctx.subject);
  let check: SqlExpr;
  let volatility: Volatility;
  if (c.name === 'std::expression') {
    const expr = c.subjectExpr ?? c.args[0];
    if (!expr) {
      throw new InvalidConstraintDefinitionError('constraint expression needs `on (...)`', {
        position: pos(c),
      });
    }
    ({ sql: check, volatility } = boolCheck(plan(ctx, binder.row, binder.bind(expr), expr), expr));
  } else {
    const subject = c.subjectExpr ? binder.withSubject(binder.bind(c.subjectExpr)) : binder;
    const args = c.args.map((a) => subject.bind(a));
    if (c.name === 'std::one_of') {
      const parts = [subject.bind(ql.parseExpression('__subject__')), ...args].map((ir) =>
        plan(ctx, binder.row, ir, c),
      );
      const [value, ...list] = parts as [Compiled, ...Compiled[]];
      check = { kind: 'InList', expr: value.sql, list: list.map((a) => a.sql), negated: false };
      volatility = maxVolatility(parts.map((p) => p.volatility));
    } else {
      const std = STD_CONSTRAINT_BODIES[c.name];
      const user = std ? null : ctx.schema.constraints.find((a) => a.name === c.name);
      if (!std && !user) {
        throw new InvalidConstraintDefinitionError(`constraint '${c.name}' does not exist`, {
          position: pos(c),
        });
      }
      const params = std ? std.params : (user?.params ?? []).map((p) => p.name);
      const names = new Map(params.map((p, i): [string, IrExpr] => [p, args[i] ?? EMPTY_SET]));
      const body = std ? ql.parseExpression(std.expr) : (user?.expr as ql.Expr);
      const module = user ? splitName(user.name)[0] : ctx.module;
      const ir = subject.withNames(module, names).bind(body);
      ({ sql: check, volatility } = boolCheck(plan(ctx, binder.row, ir, c), user ? body : c));
    }
  }
  if (volatility !== 'immutable') {
    throw new InvalidConstraintDefinitionError(
      `constraint expressions must be immutable, but constraint ${c.name} is ${volatility}`,
      { position: pos(c) },
    );
  }
  if (!c.except) return check;
  const except = compileScalar(c.except, ctx).sql;
  return sql.bin('or', { kind: 'UnaryOp', op: 'is true', operand: except, postfix: true }, check);
}

// ---------------------------------------------------------------------------------------------

/** A constraint's expression is its check, so (as Gel) it must be a bool; `{}` is an empty one. */
function boolCheck(compiled: Compiled, at: { span?: ql.Span | null }): Compiled {
  const type = compiled.type;
  if (type === null || (type.kind === 'scalar' && type.name === 'std::bool')) return compiled;
  const got =
    type.kind === 'scalar'
      ? `'${type.name}'`
      : type.kind === 'object' || type.kind === 'union'
        ? 'an object'
        : 'collection';
  throw new InvalidConstraintDefinitionError(
    `constraint expression expected to return a bool value, got ${got}`,
    { position: pos(at) },
  );
}

const EMPTY_SET: IrExpr = {
  kind: 'SetLiteral',
  type: { kind: 'empty' },
  card: { min: 0, max: 0 },
  elements: [],
};

function pos(
  node: { span?: ql.Span | null } | null | undefined,
): { line: number; column: number } | undefined {
  const span = node?.span;
  return span ? { line: span.start.line, column: span.start.column } : undefined;
}

function plan(
  ctx: ScalarContext,
  row: RowPaths,
  ir: IrExpr,
  at: { span?: ql.Span | null },
): Compiled {
  const index = schemaIndex(ctx.schema);
  const sqlExpr = planRowExpression(index, ir, {
    env: typeEnv(index),
    row: rowBindings(ctx, row),
    position: pos(at),
  });
  return { sql: sqlExpr, type: typeRefOf(ir.type), volatility: volatilityOf(ir) };
}

function typeRefOf(type: IrType): TypeRef | null {
  return type.kind === 'empty' || type.kind === 'free' ? null : (type as TypeRef);
}

/** The row's sets as the planner binds them: columns of the row (read from `ROW_ALIAS`). */
function rowBindings(ctx: ScalarContext, row: RowPaths): Map<string, Bound> {
  const out = new Map<string, Bound>();
  const subject = ctx.subject;
  if (subject.kind === 'none') return out;
  if (subject.kind === 'value') {
    if (row.subject) {
      out.set(row.subject.pathId, {
        kind: 'value',
        type: subject.type,
        expr: { kind: 'DomainValue' },
        out: null,
        nullable: false,
      });
    }
    return out;
  }
  const junction = subject.kind === 'pointer' && subject.junction;
  if (row.object) {
    // A junction row has its source's id, not its columns (reading them needs the owner's table).
    out.set(row.object.pathId, {
      kind: 'object',
      type: row.object.type,
      id: sql.col(junction ? 'source' : 'id', ROW_ALIAS),
      tag: sql.text(row.object.type),
      alias: junction ? null : ROW_ALIAS,
      link: null,
      out: null,
      nullable: false,
    });
  }
  if (subject.kind !== 'pointer' || !row.subject) return out;
  const step = row.subject.expr;
  if (step.kind !== 'PointerStep' || step.computed) return out;
  const pointer = step.pointer;
  if (pointer.kind === 'property') {
    if (junction) {
      out.set(row.subject.pathId, {
        kind: 'value',
        type: step.type,
        expr: sql.col('value', ROW_ALIAS),
        out: null,
        nullable: false,
      });
    }
    return out;
  }
  // A link: its target's id, with the link row (`@x`); the target's own columns are elsewhere.
  out.set(row.subject.pathId, {
    kind: 'object',
    type: (step.type as { name: string }).name,
    id: sql.col(junction ? 'target' : pointer.name, ROW_ALIAS),
    tag: sql.cast(sql.null(), { schema: null, name: 'text', arrayDims: 0 }),
    alias: null,
    link: junction
      ? { kind: 'junction', alias: ROW_ALIAS }
      : { kind: 'column', alias: ROW_ALIAS, pointer: pointer.name },
    out: null,
    nullable: !junction && !pointer.required,
  });
  return out;
}

const VOLATILITY_ORDER: readonly Volatility[] = ['immutable', 'stable', 'volatile'];

function maxVolatility(values: readonly Volatility[]): Volatility {
  let most = 0;
  for (const v of values) most = Math.max(most, VOLATILITY_ORDER.indexOf(v));
  return VOLATILITY_ORDER[most] as Volatility;
}

/** The most volatile std call or cast the expression makes (computeds and parameters included). */
function volatilityOf(root: IrExpr): Volatility {
  const found: Volatility[] = [];
  const seen = new Set<IrExpr>();
  const visit = (e: IrExpr): void => {
    if (seen.has(e)) return;
    seen.add(e);
    if (e.kind === 'Call') {
      found.push((e.overload as ResolvedCall).volatility.toLowerCase() as Volatility);
    } else if (e.kind === 'Cast') {
      found.push((e.overload as Cast).volatility.toLowerCase() as Volatility);
    } else if (e.kind === 'PointerStep' && e.computed) {
      visit(e.computed);
    } else if (e.kind === 'BindingRef') {
      visit((e.binding as Binding).expr);
    }
    for (const child of children(e)) visit(child);
  };
  visit(root);
  return maxVolatility(found);
}

/** This module as the storage layout's compiler of DDL expressions (storage/ddl-compiler). */
export const DDL_COMPILER: DdlCompiler = { compileScalar, compileConstraint };
