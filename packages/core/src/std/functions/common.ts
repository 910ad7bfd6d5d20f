/**
 * std/functions/common: the small SQL builders and type lists every family of std functions uses.
 */
import { pgType, sql, type SqlExpr } from '../../sql/ast';
import type { SqlArgs } from '../model';

export const cast = (e: SqlExpr, name: string): SqlExpr => sql.cast(e, pgType(name));
export const int8 = (e: SqlExpr): SqlExpr => cast(e, 'bigint');
export const int4 = (e: SqlExpr): SqlExpr => cast(e, 'integer');
export const f8 = (e: SqlExpr): SqlExpr => cast(e, 'double precision');
export const num = (n: number): SqlExpr => sql.num(n);
export const fn = (name: string, ...args: SqlExpr[]): SqlExpr => sql.func(name, args);
export const meta = (name: string, ...args: SqlExpr[]): SqlExpr => sql.func(name, args, 'svc_meta');
export const paren = (e: SqlExpr): SqlExpr => ({ kind: 'Paren', expr: e });
export const caseWhen = (whens: [SqlExpr, SqlExpr][], otherwise: SqlExpr | null): SqlExpr => ({
  kind: 'Case',
  whens: whens.map(([when, then]) => ({ when, then })),
  else: otherwise,
});
/** Parameter `i`, or `fallback` when it was left out. */
export const or = (a: SqlArgs, i: number, fallback: SqlExpr): SqlExpr => a.opt(i) ?? fallback;

export const INTS = ['int16', 'int32', 'int64'] as const;
export const REALS = [
  'int16',
  'int32',
  'int64',
  'float32',
  'float64',
  'bigint',
  'decimal',
] as const;
export const AGG = { kind: 'aggregate' } as const;
export const SRF = { kind: 'set-returning' } as const;
