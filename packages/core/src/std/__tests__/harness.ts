/**
 * std/__tests__/harness: result tests for the std table, written as rows and run through the real
 * compiler (`compileQuery`) on a real database (PGlite or PostgreSQL, SVC_TEST_DB).
 *
 * A row names one call as EdgeQL (a function, an operator or a cast, with its arguments as EdgeQL
 * text) and what it must give:
 * - `ok(call, [values])`: the happy path, the whole result set as JSON;
 * - `fails(call, 'ErrorClass')`: a failing input and the error class of errors/query-errors it
 *   raises (a database error matches through its SQLSTATE, as POST /query maps it).
 * The row's call is bound by the binder: the overload (or cast) it resolves to is the one the row
 * covers, so the coverage check (coverage.nodb.test.ts) needs no hand-written signature.
 *
 * Empty input is derived, not written: the first argument whose parameter is a singleton (not a
 * named argument, not `introspect T`) is replaced by `<T>{}` (T its bound type); an element-wise call then gives `[]`, an aggregate its
 * identity (`empty:` on the row when that is not `[]`), a cast `[]`.
 *
 * Which overloads can fail is stated per overload, never guessed: every overload has either a
 * `fails` row or, on one of its `ok` rows, `never: 'why no input can fail'`. The coverage check
 * refuses `never` for an overload whose SQL form raises (`svc_meta.raise`), and requires one of
 * the two for every overload.
 */
import type { Database } from '../../db/types';
import { createTestDatabase } from '../../testing';
import type { QueryErrorName } from '../../errors/query-errors';
import { buildSchema } from '../../schema/build';
import { createDefaultMigrator } from '../../schema/default';
import { printTypeRef, type Schema, type TypeRef } from '../../model/schema';
import { parseQuery } from '../../syntax';
import type { Statement } from '../../syntax';
import { bindQuery } from '../../query/bind';
import { children } from '../../query/ir';
import { compileQuery } from '../../query/compile';
import { compareResult } from '../../query/conformance/compare';
import { describeError, errorMatches, runQuery } from '../../query/conformance/run-query';
import type { IrExpr } from '../../query/ir';
import { schemaIndex } from '../../query/schema-index';
import type { Cast } from '../casts';
import type { Overload } from '../model';
import type { ResolvedCall } from '../resolve';
import { printSignature, stdFunctionOverloads } from '../resolve';

/** The schema every std result test runs against: an enum, constrained scalars, and sequences
 * (`sequence_next` / `sequence_reset` take `introspect T` of one; math.rows.ts). */
export const STD_TEST_SDL = `
module default {
  scalar type Color extending enum<Red, Green, Blue>;
  scalar type Short extending str { constraint max_len_value(3); };
  scalar type Small extending int64 { constraint max_value(9); };
  scalar type Counter extending sequence;
  scalar type Ticket extending sequence;
  scalar type Spent extending sequence;
}
`;

let schemaCache: Schema | null = null;
export function stdTestSchema(): Schema {
  schemaCache ??= buildSchema(STD_TEST_SDL);
  return schemaCache;
}

/** One call as EdgeQL: `name` is a function (`std::len`), an operator (`+`, `[]`, `[:]`,
 * `not in`) or a cast (`<std::int16>`); `args` are EdgeQL expressions (a named argument is
 * written `name := value`). */
export interface CallSpec {
  readonly kind: 'function' | 'operator' | 'cast';
  readonly name: string;
  readonly args: readonly string[];
}

export const f = (name: string, ...args: string[]): CallSpec => ({ kind: 'function', name, args });
export const op = (name: string, ...args: string[]): CallSpec => ({ kind: 'operator', name, args });
export const cast = (type: string, arg: string): CallSpec => ({
  kind: 'cast',
  name: `<${type}>`,
  args: [arg],
});

interface RowBase {
  readonly call: CallSpec;
  /** Set when the row is defined (tests name rows by it). */
  readonly text: string;
}
export interface OkRow extends RowBase {
  readonly kind: 'ok';
  readonly expect: readonly unknown[];
  readonly unordered: boolean;
  /** Why no input makes this overload fail (instead of a `fails` row). */
  readonly never?: string;
  /** The empty-input result when it is not `[]` (aggregates: their identity). */
  readonly empty?: readonly unknown[];
  /** The error class empty input raises instead (Gel's `error_on_null_result` aggregates). */
  readonly emptyError?: QueryErrorName;
}
export interface FailRow extends RowBase {
  readonly kind: 'fails';
  readonly error: QueryErrorName;
}
export type Row = OkRow | FailRow;

export interface OkOptions {
  readonly never?: string;
  readonly empty?: readonly unknown[];
  readonly emptyError?: QueryErrorName;
  readonly unordered?: boolean;
}

export function ok(call: CallSpec, expect: readonly unknown[], options: OkOptions = {}): OkRow {
  return {
    kind: 'ok',
    call,
    text: render(call),
    expect,
    unordered: options.unordered ?? false,
    ...(options.never !== undefined ? { never: options.never } : {}),
    ...(options.empty !== undefined ? { empty: options.empty } : {}),
    ...(options.emptyError !== undefined ? { emptyError: options.emptyError } : {}),
  };
}

export function fails(call: CallSpec, error: QueryErrorName): FailRow {
  return { kind: 'fails', call, text: render(call), error };
}

const PREFIX = new Set(['-', '+', 'not']);

/** The call as EdgeQL text. */
export function render(call: CallSpec): string {
  const { name, args } = call;
  if (call.kind === 'cast') return `${name}(${args[0]})`;
  if (call.kind === 'function') return `${name}(${args.join(', ')})`;
  if (name === '[]') return `(${args[0]})[${args[1]}]`;
  if (name === '[:]') {
    const bound = (s: string | undefined) => (s === undefined || s === '_' ? '' : s);
    return `(${args[0]})[${bound(args[1])}:${bound(args[2])}]`;
  }
  if (args.length === 1 && PREFIX.has(name)) return `(${name} ${args[0]})`;
  return `(${args[0]} ${name} ${args[1]})`;
}

// ---------------------------------------------------------------------------------------------
// What a row covers

/** What a row's outermost call resolved to: an overload's signature, or a cast `from -> to`. */
export interface Covered {
  readonly key: string;
  readonly overload: Overload | null;
  /** For each argument as written, the bound type of its parameter (null: unknown). */
  readonly argTypes: readonly (TypeRef | null)[];
  /** For each argument as written, its parameter's type modifier. */
  readonly argMods: readonly ('singleton' | 'optional' | 'set-of')[];
}

export const castKey = (from: TypeRef, to: TypeRef): string =>
  `<${printTypeRef(to)}>${printTypeRef(from)}`;

function firstCall(expr: IrExpr): IrExpr | null {
  if (expr.kind === 'Call' || expr.kind === 'Cast' || expr.kind === 'Assert') return expr;
  if (expr.kind === 'BindingRef') return firstCall(expr.binding.expr);
  for (const child of children(expr)) {
    const found = firstCall(child);
    if (found) return found;
  }
  return null;
}

/** Binds the row's query and names the overload or cast its outermost call resolved to. */
export function covered(call: CallSpec, schema: Schema = stdTestSchema()): Covered {
  const statement = parseQuery(`select ${render(call)}`)[0] as Statement;
  const ir = bindQuery(schemaIndex(schema), statement);
  const node = firstCall(ir.root);
  if (!node) throw new Error(`${render(call)}: no std call or cast in the query`);
  if (node.kind === 'Cast') {
    const c = node.overload as Cast;
    return {
      key: castKey(c.from, c.to),
      overload: null,
      argTypes: [c.from],
      argMods: ['singleton'],
    };
  }
  if (node.kind === 'Assert') {
    // assert_single / exists / distinct are the compiler's (they need the query around them):
    // the row covers the table's one overload of that name.
    const o = stdFunctionOverloads(`std::assert_${node.check}`)[0] as Overload;
    return {
      key: printSignature(o),
      overload: o,
      argTypes: [
        node.expr.type.kind === 'free' || node.expr.type.kind === 'empty' ? null : node.expr.type,
      ],
      argMods: ['set-of'],
    };
  }
  if (node.kind !== 'Call') throw new Error('unreachable');
  const resolved = node.overload as ResolvedCall;
  const o = resolved.overload;
  return {
    key: printSignature(o),
    overload: o,
    argTypes: resolved.argParams.map((p) => resolved.paramTypes[p] ?? null),
    argMods: resolved.argParams.map((p) => (o.params[p] as Overload['params'][number]).typemod),
  };
}

/**
 * The empty-input variant of a happy-path row: its first singleton argument (for an aggregate,
 * its set-of argument) replaced by `<T>{}`, and the result expected; null when the call takes no
 * such argument (`random()`, `{} ?= {}` is the row's own business).
 */
export function emptyVariant(
  row: OkRow,
  cov: Covered,
): { call: CallSpec; expect: readonly unknown[] } | null {
  const kind = cov.overload?.kind ?? 'element';
  const wanted = kind === 'aggregate' ? 'set-of' : 'singleton';
  // Named arguments and `introspect T` (sequence_next's type, not a value) are kept.
  const kept = (arg: string | undefined) =>
    arg !== undefined && (arg.includes(':=') || arg.startsWith('introspect '));
  let index = cov.argMods.findIndex((m, i) => m === wanted && !kept(row.call.args[i]));
  if (index < 0 && kind === 'set-returning') index = cov.argMods.findIndex((m) => m === 'set-of');
  if (index < 0) return null;
  const type = cov.argTypes[index];
  if (!type) return null;
  const args = row.call.args.map((a, i) => (i === index ? `<${printTypeRef(type)}>{}` : a));
  return { call: { ...row.call, args }, expect: row.empty ?? [] };
}

// ---------------------------------------------------------------------------------------------
// Running

export interface StdDb {
  readonly db: Database;
  readonly schema: Schema;
}

export async function prepareStdDb(db: Database): Promise<StdDb> {
  await createDefaultMigrator().migrate(db, STD_TEST_SDL);
  return { db, schema: stdTestSchema() };
}

/** The outcome of one query: its result, or the error it raised. */
export type Outcome =
  | { readonly ok: true; readonly value: unknown[] }
  | { readonly ok: false; readonly error: unknown };

async function runOne(std: StdDb, text: string): Promise<Outcome> {
  try {
    return { ok: true, value: await runQuery(compileQuery, std.schema, std.db, { query: text }) };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * Runs many `select <expr>` queries as one: `select { r0 := (e0), r1 := (e1), ... }`, each
 * element's value normalised back to a result set by its compiled cardinality. When the batch
 * fails (one of them raises), each runs on its own so each row reports its own outcome.
 */
export async function runBatch(std: StdDb, texts: readonly string[]): Promise<Outcome[]> {
  const out: (Outcome | null)[] = texts.map(() => null);
  const batchable: { index: number; text: string; many: boolean }[] = [];
  texts.forEach((text, index) => {
    try {
      const c = compileQuery(std.schema, `select ${text}`).cardinality;
      batchable.push({ index, text, many: c === 'many' || c === 'atLeastOne' });
    } catch (error) {
      out[index] = { ok: false, error };
    }
  });
  const CHUNK = 100;
  for (let start = 0; start < batchable.length; start += CHUNK) {
    const part = batchable.slice(start, start + CHUNK);
    const elements = part.map((p, i) => `r${i} := (${p.text})`);
    const batch = await runOne(std, `select { ${elements.join(', ')} }`);
    const object = batch.ok ? (batch.value[0] as Record<string, unknown> | undefined) : undefined;
    for (const [i, p] of part.entries()) {
      if (object) {
        const v = object[`r${i}`];
        out[p.index] = {
          ok: true,
          value: p.many ? (v as unknown[]) : v === null || v === undefined ? [] : [v],
        };
      } else out[p.index] = await runOne(std, `select ${p.text}`);
    }
  }
  return out as Outcome[];
}

/** Why an outcome does not meet an ok row's expectation (null: it does). */
export function checkOk(
  outcome: Outcome,
  expect: readonly unknown[],
  unordered: boolean,
): string | null {
  if (!outcome.ok) return `raised ${describeError(outcome.error)}`;
  return compareResult(outcome.value, expect, unordered ? 'unordered' : 'ordered');
}

/** Why an outcome does not meet a fails row (null: it raised that class). */
export function checkFails(outcome: Outcome, error: QueryErrorName): string | null {
  if (outcome.ok) return `gave ${JSON.stringify(outcome.value)}, expected ${error}`;
  if (errorMatches(outcome.error, error)) return null;
  return `raised ${describeError(outcome.error)}, expected ${error}`;
}

// ---------------------------------------------------------------------------------------------
// Jest: one describe per area file

/**
 * Registers an area's rows as Jest tests: each ok row (run in one batch), each ok row's
 * empty-input variant (one batch), each fails row (one query each).
 */
export function describeRows(title: string, rows: readonly Row[]): void {
  describe(title, () => {
    let tdb: { db: Database; dispose: () => Promise<void> } | undefined;
    let std: StdDb;
    const okRows = rows.filter((r): r is OkRow => r.kind === 'ok');
    const failRows = rows.filter((r): r is FailRow => r.kind === 'fails');
    const empties: {
      row: OkRow;
      text: string;
      expect: readonly unknown[] | null;
      problem?: string;
    }[] = okRows.map((row) => {
      try {
        const variant = emptyVariant(row, covered(row.call));
        return variant
          ? { row, text: render(variant.call), expect: variant.expect }
          : { row, text: row.text, expect: null };
      } catch (error) {
        return { row, text: row.text, expect: null, problem: describeError(error) };
      }
    });
    const withEmpty = empties.filter((e) => e.expect !== null || e.problem);
    const results = new Map<string, Outcome>();
    const emptyResults = new Map<string, Outcome>();

    beforeAll(async () => {
      const opened = await createTestDatabase();
      tdb = opened;
      std = await prepareStdDb(opened.db);
      const ran = await runBatch(
        std,
        okRows.map((r) => r.text),
      );
      for (const [i, r] of okRows.entries()) results.set(r.text, ran[i] as Outcome);
      // Variants expected to raise run alone (one raising element would fail a whole batch).
      for (const e of withEmpty.filter((x) => !x.problem && x.row.emptyError))
        emptyResults.set(e.text, await runOne(std, `select ${e.text}`));
      const runnable = withEmpty.filter((e) => !e.problem && !e.row.emptyError);
      const ranEmpty = await runBatch(
        std,
        runnable.map((e) => e.text),
      );
      for (const [i, e] of runnable.entries()) emptyResults.set(e.text, ranEmpty[i] as Outcome);
    }, 120_000);
    afterAll(async () => {
      await tdb?.dispose();
    });

    if (okRows.length > 0)
      test.each(okRows.map((r) => [r.text, r] as const))('%s', (_, row) => {
        const problem = checkOk(results.get(row.text) as Outcome, row.expect, row.unordered);
        if (problem) throw new Error(`${row.text}: ${problem}`);
      });
    if (withEmpty.length > 0)
      test.each(withEmpty.map((e) => [e.text, e] as const))('empty: %s', (_, e) => {
        if (e.problem) throw new Error(`${e.row.text}: cannot bind: ${e.problem}`);
        const outcome = emptyResults.get(e.text) as Outcome;
        const problem = e.row.emptyError
          ? checkFails(outcome, e.row.emptyError)
          : checkOk(outcome, e.expect ?? [], false);
        if (problem) throw new Error(`${e.text}: ${problem}`);
      });
    if (failRows.length > 0)
      test.each(failRows.map((r) => [r.text, r] as const))('fails: %s', async (_, row) => {
        const outcome = await runOne(std, `select ${row.text}`);
        const problem = checkFails(outcome, row.error);
        if (problem) throw new Error(`${row.text}: ${problem}`);
      });
  });
}
