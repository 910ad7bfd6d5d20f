/**
 * Runs a compiled query in both its forms (CompiledQuery `sql` and `elementsSql`) and parses the
 * answer, after checking that the two agree byte for byte once the elements are put between
 * brackets (`resultArrayText`, as the engine reads them). Every read a db test runs through the
 * fixtures' `run` is a case of that equivalence; a query that writes runs once, in the form the
 * engine runs.
 */
import type { Queryable } from '../../db/types';
import { type CompiledQuery, resultArrayText, runnableStatement } from '../api';

export async function runBothForms(
  db: Queryable,
  compiled: CompiledQuery,
  params: readonly unknown[],
): Promise<unknown> {
  if (compiled.writes) {
    const { sql, elements } = runnableStatement(compiled);
    return JSON.parse(resultArrayText(await resultOf(db, sql, params), elements));
  }
  const array = await resultOf(db, compiled.sql, params);
  if (compiled.elementsSql !== undefined) {
    const elements = await resultOf(db, compiled.elementsSql, params);
    if (elements !== null && typeof elements !== 'string')
      throw new Error(`the elements form answered a ${typeof elements}, not text`);
    const text = resultArrayText(elements, true);
    if (text !== array)
      throw new Error(
        `the two forms of the result differ:\n  sql:      ${array}\n  elements: ${text}`,
      );
  }
  return JSON.parse(String(array));
}

async function resultOf(db: Queryable, sql: string, params: readonly unknown[]): Promise<unknown> {
  const { rows } = await db.query<{ result: unknown }>(sql, params);
  if (rows.length !== 1) throw new Error(`the statement answered ${rows.length} rows, not one`);
  return (rows[0] as { result: unknown }).result;
}
