/**
 * plan/common: small helpers every planner module uses (no planning of its own).
 */
import { QueryError } from '../../errors';
import type { TypeRef } from '../../model/schema';
import { pgType, sql, type SqlExpr } from '../../sql';
import { pgTypeFor } from '../../std/scalars';
import type { IrExpr, IrType } from '../ir';
import type { Bound } from './rel';

export const JSON_T = pgType('json');

/** The PostgreSQL type of a value of `type` (text for `{}` and free objects). */
export function pgOf(type: IrType) {
  return type.kind === 'empty' || type.kind === 'free' ? pgType('text') : pgTypeFor(type);
}

/** An object bound to the rows of `alias` (its stored columns). */
export function objectBound(type: string, alias: string, tag: SqlExpr, nullable: boolean): Bound {
  return {
    kind: 'object',
    type,
    id: sql.col('id', alias),
    tag,
    alias,
    link: null,
    out: null,
    nullable,
  };
}

/** A WHERE of all `conditions`, or none. */
export function whereOf(conditions: readonly SqlExpr[]): SqlExpr | null {
  return conditions.length === 0 ? null : sql.and(...conditions);
}

/** Whether `expr` may be empty (an argument SQL NULL stands for). */
export function nullable(expr: IrExpr): boolean {
  return expr.card.min === 0;
}

/** `case when a is null or ... then null else value end` when any part may be empty. */
export function nullIfAnyNull(
  elements: readonly IrExpr[],
  values: readonly SqlExpr[],
  value: SqlExpr,
): SqlExpr {
  const checks = values
    .filter((_, i) => (elements[i] as IrExpr).card.min === 0)
    .map((v) => sql.isNull(v));
  if (checks.length === 0) return value;
  return { kind: 'Case', whens: [{ when: sql.or(...checks), then: sql.null() }], else: value };
}

/** A value's type as a schema type reference (`{}` and free objects have none). */
export function asRef(type: IrType): TypeRef {
  if (type.kind === 'empty' || type.kind === 'free')
    throw new QueryError('a value of unknown type');
  return type;
}

/** A readable alias prefix for rows of `type` (its short name when a plain identifier). */
export function shortName(type: string): string {
  const short = type.slice(type.lastIndexOf('::') + 2);
  return /^[A-Za-z_][A-Za-z0-9_]{0,15}$/.test(short) ? short : 'o';
}

/** A `rows` subquery's output read from `alias`: its `~text` as JSON text, or its `~json`. */
export function outputColumn(columns: { readonly text?: boolean }, alias: string): SqlExpr {
  return columns.text ? sql.jsonFromText(sql.col('~text', alias)) : sql.col('~json', alias);
}
