/**
 * storage/constraints: a type's and its pointers' constraints as CHECKs and unique indexes:
 * `exclusive` → a unique index (`except (...)` → a partial one), others → CHECKs over the row,
 * named after their subject and constraint (with a hash of their text where that is ambiguous).
 */
import * as ql from '../syntax';
import { InvalidConstraintDefinitionError } from '../errors';
import type { Constraint, ObjectType, Pointer, Schema } from '../model/schema';
import { sql, type SqlExpr } from '../sql/ast';
import type { QName } from '../sql/codegen/ddl';
import { pgName, shortHash } from '../sql/codegen/names';
import { ddlCompiler, type ScalarContext } from './ddl-compiler';
import { splitName } from './types';
import type { OwnedCheck, OwnedIndex } from './layout-types';

export function spanPos(span: ql.Span | null): { line: number; column: number } | undefined {
  return span ? { line: span.start.line, column: span.start.column } : undefined;
}

/** `max_value` for `std::max_value`, `positive` for `default::positive`. */
function shortConstraint(name: string): string {
  return splitName(name)[1];
}

export function constraintLabel(c: Constraint): string {
  const args = c.args.map((a) => ql.printExpression(a)).join(', ');
  const on = c.subjectExpr ? ` on (${ql.printExpression(c.subjectExpr)})` : '';
  return `${c.name}${c.args.length ? `(${args})` : ''}${on}`;
}

/**
 * Names for constraints on one subject: `<prefix>.<constraint>`; an `expression` constraint, or
 * one of several of the same name, also gets a hash of its text so names follow content.
 */
export function constraintNames(constraints: readonly Constraint[], prefix: string): string[] {
  const counts = new Map<string, number>();
  for (const c of constraints) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  return constraints.map((c) => {
    const base = `${prefix}.${shortConstraint(c.name)}`;
    const hashed =
      c.name === 'std::expression' || (counts.get(c.name) ?? 0) > 1 || c.subjectExpr !== null;
    return pgName(
      hashed
        ? `${base}.${shortHash(constraintLabel(c) + (c.except ? ` except ${ql.printExpression(c.except)}` : ''))}`
        : base,
    );
  });
}

export function computedConstraints(
  schema: Schema,
  type: ObjectType,
  p: Pointer,
  table: QName,
  checks: OwnedCheck[],
  indexes: OwnedIndex[],
): void {
  if (p.kind !== 'property' || p.cardinality !== 'one' || p.constraints.length === 0) return;
  addPointerConstraints(schema, type, p, table, false, ['id'], checks, indexes);
}

/** The identity of an exclusive constraint across the tables of a hierarchy (not delegated). */
function sharedExclusive(c: Constraint, subject: string): { shared?: string } {
  if (c.delegated) return {};
  const except = c.except ? ` except ${ql.printExpression(c.except)}` : '';
  return { shared: `${subject}: ${constraintLabel(c)}${except}` };
}

/** `__subject__`: a pointer constraint's value (an exclusive constraint's index element). */
const SUBJECT = ql.parseExpression('__subject__');

function applies(type: ObjectType, c: Constraint): boolean {
  return !(c.delegated && c.declaredIn === type.name);
}

export function addPointerConstraints(
  schema: Schema,
  type: ObjectType,
  p: Pointer,
  table: QName,
  junction: boolean,
  keys: readonly string[],
  checks: OwnedCheck[],
  indexes: OwnedIndex[],
): void {
  const [module, short] = splitName(type.name);
  const subject = `${type.name}.${p.name}`;
  const list = p.constraints.filter((c) => applies(type, c));
  if (list.length === 0) return;
  const names = constraintNames(list, `${short}.${p.name}`);
  const ctx: ScalarContext = {
    schema,
    module,
    mode: 'check',
    subject: { kind: 'pointer', type: type.name, pointer: p.name, junction },
  };
  list.forEach((c, i) => {
    const name = names[i] as string;
    if (c.name === 'std::exclusive') {
      const elements = c.subjectExpr
        ? indexElements(schema, type, c.subjectExpr, { ...ctx, mode: 'exclusive' })
        : [ddlCompiler().compileScalar(SUBJECT, { ...ctx, mode: 'exclusive' }).sql];
      const where = exceptWhere(c.except, { ...ctx, mode: 'exclusive' });
      indexes.push({
        subject,
        kind: 'constraint',
        label: constraintLabel(c),
        spec: { table, name, unique: true, elements, where },
        ...sharedExclusive(c, `${c.declaredIn}.${p.name}`),
      });
    } else {
      checks.push({
        subject,
        label: constraintLabel(c),
        spec: { table, name, expr: ddlCompiler().compileConstraint(c, ctx) },
        keys,
      });
    }
  });
}

export function addTypeConstraints(
  schema: Schema,
  type: ObjectType,
  table: QName,
  checks: OwnedCheck[],
  indexes: OwnedIndex[],
): void {
  const [module, short] = splitName(type.name);
  const list = type.constraints.filter((c) => applies(type, c));
  const names = constraintNames(list, short);
  const ctx: ScalarContext = {
    schema,
    module,
    mode: 'check',
    subject: { kind: 'object', type: type.name },
  };
  list.forEach((c, i) => {
    const name = names[i] as string;
    if (c.name === 'std::exclusive') {
      if (!c.subjectExpr) {
        throw new InvalidConstraintDefinitionError(
          `exclusive on type ${type.name} needs \`on (...)\``,
          { position: spanPos(c.span) },
        );
      }
      const elements = indexElements(schema, type, c.subjectExpr, { ...ctx, mode: 'exclusive' });
      const where = exceptWhere(c.except, { ...ctx, mode: 'exclusive' });
      indexes.push({
        subject: type.name,
        kind: 'constraint',
        label: constraintLabel(c),
        spec: { table, name, unique: true, elements, where },
        ...sharedExclusive(c, c.declaredIn),
      });
    } else {
      checks.push({
        subject: type.name,
        label: constraintLabel(c),
        spec: { table, name, expr: ddlCompiler().compileConstraint(c, ctx) },
        keys: ['id'],
      });
    }
  });
}

/**
 * A tuple of expressions indexes several columns (nested tuples flattened: `((a, b), c)` is
 * unique exactly when `(a, b, c)` is); anything else is one element.
 */
export function indexElements(
  schema: Schema,
  type: ObjectType,
  expr: ql.Expr,
  ctx: ScalarContext,
): SqlExpr[] {
  void schema;
  void type;
  if (expr.kind === 'TupleLiteral') {
    return expr.elements.flatMap((e) => indexElements(schema, type, e, ctx));
  }
  return [ddlCompiler().compileScalar(expr, ctx).sql];
}

/** `expr` with each `__subject__` replaced by `by` (a link property's constraint reads `@prop`). */
function replaceSubject(expr: ql.Expr, by: ql.Expr): ql.Expr {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const rec = node as Record<string, unknown>;
    if (rec.kind === 'Anchor' && rec.name === '__subject__') return by;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rec)) out[k] = k === 'span' ? v : walk(v);
    return out;
  };
  return walk(expr) as ql.Expr;
}

/**
 * The exclusive constraints of link property `lp` of link `p`: a unique index over its column
 * (`"<link>@<prop>"` of the source table for a single link, `<prop>` of the junction table for a
 * multi link), so a value is unique per link across all sources, as in Gel (exclusivity per
 * source is spelled `exclusive on ((@source, @prop))` on the link). Other link property
 * constraints are not stored yet.
 */
export function addLinkPropertyConstraints(
  schema: Schema,
  type: ObjectType,
  p: Pointer,
  lp: Pointer,
  table: QName,
  junction: boolean,
  indexes: OwnedIndex[],
): void {
  const [module, short] = splitName(type.name);
  const subject = `${type.name}.${p.name}@${lp.name}`;
  const list = lp.constraints.filter((c) => c.name === 'std::exclusive' && applies(type, c));
  if (list.length === 0) return;
  const names = constraintNames(list, `${short}.${p.name}@${lp.name}`);
  const ctx: ScalarContext = {
    schema,
    module,
    mode: 'exclusive',
    subject: { kind: 'pointer', type: type.name, pointer: p.name, junction },
  };
  const value = ql.parseExpression(`@${lp.name}`);
  list.forEach((c, i) => {
    const elements = indexElements(
      schema,
      type,
      replaceSubject(c.subjectExpr ?? SUBJECT, value),
      ctx,
    );
    const where = exceptWhere(c.except && replaceSubject(c.except, value), ctx);
    indexes.push({
      subject,
      kind: 'constraint',
      label: constraintLabel(c),
      spec: { table, name: names[i] as string, unique: true, elements, where },
      ...sharedExclusive(c, `${c.declaredIn}.${p.name}@${lp.name}`),
    });
  });
}

/**
 * The WHERE of a unique index for `except (expr)`: the rows whose exception is not true (an
 * empty exception counts as false, so those rows stay in the index). Null without an exception.
 */
export function exceptWhere(except: ql.Expr | null, ctx: ScalarContext): SqlExpr | null {
  if (!except) return null;
  const compiled = ddlCompiler().compileScalar(except, ctx).sql;
  return sql.not(sql.func('coalesce', [compiled, sql.bool(false)]));
}
