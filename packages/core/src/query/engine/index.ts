/**
 * query/engine: runs EdgeQL text on the database, compiling through a cache.
 *
 * Input: a request (`query`, `variables`, `globals`, `cardinality`) and who runs it (access mode
 * and auth values). Output: the JSON text of the result array, as PostgreSQL built it; Node
 * never parses it.
 *
 *   schema snapshot (schema-tracker) → cache lookup by (schema version, access policies on or
 *   off, requested cardinality, single-link form, text) → compile on a miss → refuse (cardinality, read-only) → bind variables,
 *   globals and auth values by name (bind.ts) → ONE statement (a named prepared statement on
 *   PostgreSQL) → `one` on an empty result fails → the text.
 *
 * Invariants: nothing runs when a check fails; a compiled query is never reused across schema
 * versions (the cache is emptied when the version moves); every database error leaves as the
 * query-language error errors/database-errors maps it to.
 */
import { createHash } from 'node:crypto';
import type { Database, Queryable, StopSignal } from '../../db/types';
import type { Schema } from '../../model/schema';
import {
  commonError,
  databaseErrorFields,
  type ErrorVocabulary,
  fromDatabaseError,
  InvalidReferenceError,
  NoDataError,
  SvcError,
} from '../../errors';
import {
  type AccessMode,
  type CompileQuery,
  type CompiledQuery,
  type QueryDescription,
  type RequestedCardinality,
  resultArrayText,
  runnableStatement,
  type SingleLinkForm,
} from '../api';
import { refuseCardinality } from '../cardinality';
import { bindParameters, type AuthValues } from './bind';
import { LruCache } from './cache';
import { SchemaTracker, type SchemaSnapshot, type SchemaSource } from './schema-tracker';

export {
  ANONYMOUS_AUTH,
  bindParameters,
  scalarValueKind,
  valueProblem,
  type AuthValues,
  type BindInput,
} from './bind';
export type { ParamKind } from '../../std';
export { EXACT_TEXT } from '../../std';
export { LruCache } from './cache';
export {
  SchemaTracker,
  storedSchemaSource,
  type SchemaSnapshot,
  type SchemaSource,
} from './schema-tracker';
export { schemaVocabulary } from './vocabulary';

/**
 * One query to run: the body of `POST /query` (docs/http.md), which the server checks and passes
 * on as it is, and what the REST routes plan. `singleLinks` is not a `/query` field: the REST
 * routes ask for `object` (CompileOptions.singleLinks).
 */
export interface QueryRequest {
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly globals?: Readonly<Record<string, unknown>>;
  /** @default 'many' */
  readonly cardinality?: RequestedCardinality;
  /** @default 'array' */
  readonly singleLinks?: SingleLinkForm;
  /** Describe the query's types instead of running it (QueryEngine.describe). @default false */
  readonly describe?: boolean;
}

/** Who runs a query, as far as the engine is concerned. */
export interface QueryCaller {
  readonly access: AccessMode;
  readonly auth: AuthValues;
}

export interface QueryEngineOptions {
  readonly db: Database;
  readonly compile: CompileQuery;
  readonly schema: SchemaSource;
  /** Compiled queries kept. @default 1000 */
  readonly cacheSize?: number;
  /** How old the stored schema version may be before a query reads it again. @default 500 */
  readonly schemaRecheckMs?: number;
  /**
   * Inserts may give the new object's id (CompileOptions.allowUserSpecifiedId): the server's
   * `allowUserSpecifiedId` setting, Gel's `allow_user_specified_id`.
   * @default false
   */
  readonly allowUserSpecifiedId?: boolean;
  /** Called on every cache lookup (the server's metrics). */
  readonly onCompileCache?: (hit: boolean) => void;
  /**
   * Called when a run's statement was cancelled (SQLSTATE 57014): by its signal, before it
   * started or while it ran, or by the database's statement_timeout (the server's metrics).
   */
  readonly onStatementCancelled?: () => void;
}

export interface RunOptions {
  /**
   * Stops the query when it aborts: the server's requestTimeout. A statement not started is not
   * sent; a running one is cancelled on PostgreSQL (embedded PGlite cannot interrupt one, see
   * db QueryOptions.signal). The run then fails with QueryTimeoutError (SQLSTATE 57014).
   */
  readonly signal?: StopSignal;
  /**
   * Where the statement runs: an open transaction (`Database.transaction`'s `tx`) instead of the
   * database. Inside one, statements are not named (prepared statement names are ignored inside
   * transactions) and `signal` is not used (db QueryOptions: unavailable there); after a
   * database error nothing is run again (the transaction is aborted): only a name the cached
   * schema did not know, caught before anything ran, is compiled again against a newer schema.
   */
  readonly queryable?: Queryable;
  /**
   * A read replica: a statement the compiler proves read-only (`CompiledQuery.writes` false) runs
   * there instead of on `db`, with the same SQL and values (access policies and the caller's
   * globals apply alike). When the replica fails in a way that says nothing about the query (its
   * connection, a shutdown, a conflict with recovery, tables it has not replayed yet) the
   * statement runs again on `db` and `onReplicaError` is told. Ignored with `queryable`.
   */
  readonly replica?: Queryable;
  /** Told of a replica failure the statement recovered from by running on `db`. */
  readonly onReplicaError?: (err: unknown) => void;
  /** Told where the statement ran, and whether it writes (the server's `X-Svc-Served-By`). */
  readonly onServed?: (by: 'primary' | 'replica', writes: boolean) => void;
  /**
   * A read the caller must see settle before it may use the result (the server's check that a
   * signed-in caller's session is live). A read-only query on `db` carries it in its own
   * statement, so the request costs one round trip; a write, or a read routed to a replica, has
   * `probe.confirm()` run first, alone. Either way `run` resolves only after the probe settled,
   * and rejects with what it threw. Not with `queryable` (a TypeError): a transaction may hold
   * the only connection, so its caller confirms the probe before opening it.
   */
  readonly probe?: Probe;
}

/**
 * A one-row read another part of the server needs before a request may be answered, which the
 * engine can run in the same statement as a read-only query (`RunOptions.probe`).
 */
export interface Probe {
  /**
   * A SELECT giving at most one row: `text` (what `settle` reads) and `live` (boolean: false or
   * no row, and the query is not run). Its one parameter is written as `param` (`$n`). Pure:
   * the same text for the same `param` (it is part of a cached, prepared statement).
   */
  readonly select: (param: string) => string;
  /** The parameter's value. */
  readonly value: unknown;
  /** Reads the row's `text` (null: no row); throws to refuse the request. */
  settle(text: string | null): Promise<void>;
  /** The same read as its own statement, then `settle`: where the query cannot carry it. */
  confirm(): Promise<void>;
}

export interface QueryEngine {
  /** Runs one query; resolves with the JSON text of the result array. */
  run(request: QueryRequest, caller: QueryCaller, options?: RunOptions): Promise<string>;
  /**
   * The types of a query's variables and result, and its cardinality (`POST /query` with
   * `"describe": true`): compiled (or found in the cache) as `run` would, nothing run.
   */
  describe(
    request: QueryRequest,
    caller: QueryCaller,
    options?: Pick<RunOptions, 'queryable'>,
  ): Promise<QueryDescription>;
  /** Compiles (or finds in the cache) without running: tools, bench/query. */
  prepare(request: QueryRequest, caller: QueryCaller): Promise<CompiledQuery>;
  /**
   * The schema queries compile against now (the REST layer plans its requests with it); read
   * through `via` (an open transaction) when it must be read again.
   */
  schema(via?: Queryable): Promise<{ readonly version: string; readonly schema: Schema }>;
  /** After a migration in this process: the next query reads the stored schema. */
  schemaChanged(): void;
  /** Compile-cache figures. */
  cacheStats(): { readonly hits: number; readonly misses: number; readonly size: number };
}

/** A compiled query, the SQL the engine runs for it, and the name of its prepared statement. */
interface CacheEntry {
  readonly compiled: CompiledQuery;
  /** What runs for `compiled` (`runnableStatement`), and how its result is read. */
  readonly sql: string;
  readonly elements: boolean;
  readonly statement: string;
  /** The query carrying a probe (`RunOptions.probe`), by the probe's SQL; made on first use. */
  probed?: Map<string, { readonly sql: string; readonly statement: string }>;
}

/**
 * SQLSTATEs meaning the SQL no longer matches the tables (another process migrated since this
 * one last read the schema): undefined table, column, object or function, and a cached plan
 * whose result changed. The engine reads the stored schema and, when it moved, compiles again.
 */
const STALE_SCHEMA_STATES = new Set(['42P01', '42703', '42704', '42883', '0A000']);

/**
 * Whether a replica's error says nothing about the query, so that the primary may run it: no
 * SQLSTATE (the connection), connection exceptions (08), insufficient resources (53), shutdowns
 * (57P01-57P03), a conflict with recovery (40001), tables or columns a lagging replica lacks.
 */
function replicaFailure(err: unknown): boolean {
  const code = databaseErrorFields(err)?.code;
  if (code === undefined) return !(err instanceof SvcError);
  return (
    code.startsWith('08') ||
    code.startsWith('53') ||
    ['57P01', '57P02', '57P03', '40001'].includes(code) ||
    STALE_SCHEMA_STATES.has(code)
  );
}

/**
 * @example
 * const engine = createQueryEngine({ db, compile: compileQuery, schema: storedSchemaSource(db, migrator, buildSchema) });
 * const json = await engine.run({ query: 'select User { name }' }, { access: SERVICE_ACCESS, auth: ANONYMOUS_AUTH });
 */
export function createQueryEngine(options: QueryEngineOptions): QueryEngine {
  const { db, compile } = options;
  const schemas = new SchemaTracker(options.schema, options.schemaRecheckMs ?? 500);
  const cache = new LruCache<CacheEntry>(options.cacheSize ?? 1000);
  let cachedVersion: string | undefined;
  // Named prepared statements on PostgreSQL; the database sends them unnamed when it was opened
  // without them or a transaction-mode pooler showed it cannot keep them (db/open `poolRunner`).
  const named = db.kind === 'postgres';

  function lookup(
    snapshot: SchemaSnapshot,
    request: QueryRequest,
    caller: QueryCaller,
  ): CacheEntry {
    if (snapshot.version !== cachedVersion) {
      cache.clear();
      cachedVersion = snapshot.version;
    }
    const cardinality = request.cardinality ?? 'many';
    const singleLinks = request.singleLinks ?? 'array';
    const { policies } = caller.access;
    const defaultAccess = caller.access.defaultAccess ?? 'open';
    const mode = policies ? (defaultAccess === 'deny' ? 'd' : 'p') : 's';
    const links = singleLinks === 'object' ? 'o' : 'a';
    const described = request.describe === true;
    const key = `${mode}${links}${described ? 'D' : ''}${cardinality}\u0000${request.query}`;
    let entry = cache.get(key);
    options.onCompileCache?.(entry !== undefined);
    if (!entry) {
      // Read-only mode is enforced below, from `compiled.writes` (nested writes included), so
      // a refused write is 503 READ_ONLY (docs/http.md): compilation reads only `policies`.
      const compiled = compile(snapshot.schema, request.query, {
        cardinality,
        access: { policies, defaultAccess },
        // Only when asked: a compiler (and its tests) sees the options `/query` has always sent.
        ...(singleLinks === 'object' ? { singleLinks } : {}),
        ...(options.allowUserSpecifiedId ? { allowUserSpecifiedId: true } : {}),
        ...(described ? { describe: true } : {}),
      });
      const { sql, elements } = runnableStatement(compiled);
      entry = { compiled, sql, elements, statement: statementName(sql) };
      cache.set(key, entry);
    }
    return entry;
  }

  /** The error a run leaves with; a cancelled statement is counted on the way. */
  function failure(err: unknown, vocabulary: ErrorVocabulary | undefined): SvcError {
    if (databaseErrorFields(err)?.code === '57014') options.onStatementCancelled?.();
    return fromDatabaseError(err, vocabulary);
  }

  async function prepare(request: QueryRequest, caller: QueryCaller) {
    return lookup(await schemas.current(), request, caller).compiled;
  }

  async function execute(
    snapshot: SchemaSnapshot,
    request: QueryRequest,
    caller: QueryCaller,
    runOptions: RunOptions,
  ): Promise<string> {
    const entry = lookup(snapshot, request, caller);
    const { compiled, statement, sql } = entry;
    const cardinality = request.cardinality ?? 'many';
    refuseCardinality(compiled.cardinality, cardinality);
    if (compiled.writes && caller.access.readOnly) {
      throw commonError('READ_ONLY', 'the server is in read-only mode; this query writes');
    }
    const values = bindParameters(
      compiled.params,
      {
        variables: request.variables ?? {},
        globals: request.globals ?? {},
        auth: caller.auth,
      },
      snapshot.schema,
    );
    const options = { name: named ? statement : undefined, signal: runOptions.signal };
    const { replica, probe } = runOptions;
    let rows: { result: unknown }[];
    if (probe) {
      if (runOptions.queryable) {
        throw new TypeError('query/engine: a probe is confirmed before a transaction opens');
      }
      if (!compiled.writes && !replica) {
        return textOf(await runProbed(entry, probe, values, runOptions));
      }
      await probe.confirm();
    }
    if (runOptions.queryable) {
      ({ rows } = await runOptions.queryable.query<{ result: unknown }>(sql, values));
      runOptions.onServed?.('primary', compiled.writes);
    } else if (replica && !compiled.writes) {
      try {
        ({ rows } = await replica.query<{ result: unknown }>(sql, values, options));
        runOptions.onServed?.('replica', false);
      } catch (err) {
        // 25006: the statement wrote after all (a function the compiler cannot see into), which
        // a replica refuses before doing anything: the primary runs it, the replica is fine.
        const refusedWrite = databaseErrorFields(err)?.code === '25006';
        if (runOptions.signal?.aborted || !(refusedWrite || replicaFailure(err))) throw err;
        if (!refusedWrite) runOptions.onReplicaError?.(err);
        ({ rows } = await db.query<{ result: unknown }>(sql, values, options));
        runOptions.onServed?.('primary', false);
      }
    } else {
      ({ rows } = await db.query<{ result: unknown }>(sql, values, options));
      runOptions.onServed?.('primary', compiled.writes);
    }
    return textOf(rows[0]?.result);

    function textOf(result: unknown): string {
      const text = resultArrayText(result, entry.elements);
      if (cardinality === 'one' && isEmptyArray(text)) {
        throw new NoDataError('the query returned no element, but "one" was requested', {
          hint: 'use cardinality "atMostOne" when the result may be empty',
        });
      }
      return text;
    }
  }

  /**
   * A read-only query and a probe in one statement: the probe's row first (a CTE read once),
   * the query run only when the probe says `live`. Resolves with the query's result once the
   * probe settled; the probe's refusal wins over anything the query returned.
   */
  async function runProbed(
    entry: CacheEntry,
    probe: Probe,
    values: readonly unknown[],
    { signal, onServed }: RunOptions,
  ): Promise<unknown> {
    const select = probe.select(`$${values.length + 1}`);
    entry.probed ??= new Map();
    let carried = entry.probed.get(select);
    if (!carried) {
      const sql =
        `with "svc~probe" as materialized (${select}) ` +
        `select (select "svc~probe"."text" from "svc~probe") as "probe", ` +
        `coalesce((select "svc~probe"."live" from "svc~probe"), false) as "live", ` +
        `case when coalesce((select "svc~probe"."live" from "svc~probe"), false) ` +
        `then (select "svc~query"."result" from (${entry.sql}) as "svc~query") end as "result"`;
      carried = { sql, statement: statementName(sql) };
      entry.probed.set(select, carried);
    }
    let rows: { probe: string | null; live: boolean; result: unknown }[];
    try {
      ({ rows } = await db.query<{ probe: string | null; live: boolean; result: unknown }>(
        carried.sql,
        [...values, probe.value],
        { name: named ? carried.statement : undefined, signal },
      ));
    } catch (err) {
      // The statement failed, so the probe's row was not seen; a query may even fail while it is
      // planned (a constant division by zero), before the probe could hold it back. The probe
      // alone then decides first: its refusal is the answer, else the query's error.
      await probe.confirm();
      throw err;
    }
    const row = rows[0];
    onServed?.('primary', false);
    await probe.settle(row?.probe ?? null);
    if (!row?.live) {
      // The probe's SQL and its `settle` disagree: a bug, never an answer without its query.
      throw new Error('query/engine: the probe refused the query, but its settle accepted it');
    }
    return row.result;
  }

  return {
    async run(request, caller, runOptions = {}) {
      const snapshot = await schemas.current(runOptions.queryable);
      // In a transaction a database error has aborted it: nothing more may run there.
      const inTransaction = runOptions.queryable !== undefined;
      try {
        return await execute(snapshot, request, caller, runOptions);
      } catch (err) {
        const fields = databaseErrorFields(err);
        // SQL that no longer fits the tables, or a name the cached schema does not know: another
        // process may have migrated since the stored schema was last read.
        if (
          (fields && !inTransaction && STALE_SCHEMA_STATES.has(fields.code)) ||
          err instanceof InvalidReferenceError
        ) {
          const fresh = await schemas.refresh(runOptions.queryable);
          if (fresh.version !== snapshot.version) {
            try {
              return await execute(fresh, request, caller, runOptions);
            } catch (again) {
              throw failure(again, fresh.vocabulary);
            }
          }
        }
        throw failure(err, fields ? snapshot.vocabulary : undefined);
      }
    },
    async describe(request, caller, describeOptions = {}) {
      const described = { ...request, describe: true };
      const via = describeOptions.queryable;
      let snapshot = await schemas.current(via);
      try {
        return describedBy(lookup(snapshot, described, caller).compiled);
      } catch (err) {
        // A name the cached schema does not know: another process may have migrated.
        if (!(err instanceof InvalidReferenceError)) throw err;
        const fresh = await schemas.refresh(via);
        if (fresh.version === snapshot.version) throw err;
        snapshot = fresh;
        return describedBy(lookup(snapshot, described, caller).compiled);
      }
    },
    prepare,
    schema: async (via) => await schemas.current(via),
    schemaChanged: () => schemas.invalidate(),
    cacheStats: () => ({ hits: cache.hits, misses: cache.misses, size: cache.size }),
  };
}

function describedBy(compiled: CompiledQuery): QueryDescription {
  if (!compiled.description) throw new Error('the compiler gave no description of the query');
  return compiled.description;
}

/**
 * Named by a hash of the SQL, so one name always carries one text (`pg` refuses a name reused
 * with other SQL on a connection) and equal SQL compiled from different texts shares a plan.
 */
function statementName(sql: string): string {
  return `svc_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
}

function isEmptyArray(text: string): boolean {
  return /^\s*\[\s*\]\s*$/.test(text);
}
