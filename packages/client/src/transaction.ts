/**
 * client/transaction: `client.transaction(fn)` and `client.batch(statements)` (docs/http.md,
 * "Transactions").
 *
 * A transaction is `POST /transactions` (its id), then the query methods of client.ts with the
 * header `X-Svc-Transaction: <id>`, then `POST /transactions/{id}/commit`. When `fn` throws, the
 * transaction is rolled back (best effort: the server rolls back a failed or idle one by
 * itself) and the error rethrown. A serialization failure or a deadlock
 * (`TransactionSerializationError`, `TransactionDeadlockError`), in a statement or at commit,
 * runs the whole of `fn` again in a new transaction, as gel-js does: at most `attempts` runs in
 * all (3), waiting `2 ** n * 100` ms plus up to 100 ms at random before run n + 1. A commit
 * whose answer never arrived (`NetworkError`) is never retried: it may have committed.
 *
 * A batch is `POST /query/batch`: several statements in one transaction, one round trip; each
 * result decoded by its query's description, retried as a transaction is.
 */
import { decode, encode, type DecodeOptions, type QueryDescription } from './codec';
import {
  ProtocolError,
  SvcError,
  TransactionDeadlockError,
  TransactionSerializationError,
} from './errors';
import { parseJson } from './json';
import type { Transport } from './transport';

/** The request header naming the transaction a query runs in. */
export const TRANSACTION_HEADER = 'x-svc-transaction';

export type IsolationLevel = 'serializable' | 'repeatable_read';

export interface RetryOptions {
  /** Runs in all, the first included. @default 3 (gel-js's) */
  readonly attempts?: number;
  /** Milliseconds to wait before run `attempt + 1` (`attempt` from 1). @default gel-js's */
  readonly backoff?: (attempt: number) => number;
}

export interface TransactionOptions extends RetryOptions {
  /** @default 'serializable' (as Gel) */
  readonly isolation?: IsolationLevel;
  /** Writes are refused (`TransactionError`). @default false */
  readonly readOnly?: boolean;
}

export interface BatchStatement {
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>>;
  /** @default 'many' */
  readonly cardinality?: 'many' | 'atMostOne' | 'one';
}

/** gel-js's default backoff: `2 ** attempt * 100` ms plus up to 100 ms at random. */
export function defaultBackoff(attempt: number): number {
  return 2 ** attempt * 100 + Math.random() * 100;
}

/** What client.ts gives: its transport, its context, and how to make the query methods. */
export interface TransactionContext<E> {
  readonly transport: Transport;
  readonly headers?: Readonly<Record<string, string>>;
  readonly globals?: Readonly<Record<string, unknown>>;
  readonly decodeOptions: DecodeOptions;
  readonly descriptions: Map<string, { description: QueryDescription; version: string | null }>;
  /** The query methods sending these headers. */
  readonly executor: (headers: Readonly<Record<string, string>>) => E;
}

/** Serialization failures and deadlocks: the whole transaction may run again. */
export function isRetryable(error: unknown): boolean {
  return (
    error instanceof TransactionSerializationError || error instanceof TransactionDeadlockError
  );
}

async function retrying<T>(options: RetryOptions, once: () => Promise<T>): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 3);
  const backoff = options.backoff ?? defaultBackoff;
  for (let iteration = 0; ; iteration++) {
    try {
      return await once();
    } catch (error) {
      if (!isRetryable(error) || iteration + 1 >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, backoff(iteration + 1)));
    }
  }
}

/** Runs `fn` in a transaction (module comment); `tx` is the query methods bound to it. */
export async function runTransaction<E, T>(
  context: TransactionContext<E>,
  fn: (tx: E) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const { transport } = context;
  const body = {
    ...(options.isolation ? { isolation: options.isolation } : {}),
    ...(options.readOnly !== undefined ? { readOnly: options.readOnly } : {}),
  };
  const send = (path: string, req: { body?: unknown } = {}) =>
    transport.request(path, {
      method: 'POST',
      ...req,
      ...(context.headers ? { headers: context.headers } : {}),
    });
  return await retrying(options, async () => {
    const begun = await send('/transactions', { body });
    const id = transactionId(begun.text);
    const path = `/transactions/${encodeURIComponent(id)}`;
    const tx = context.executor({ ...context.headers, [TRANSACTION_HEADER]: id });
    let result: T;
    try {
      result = await fn(tx);
    } catch (error) {
      try {
        await send(`${path}/rollback`);
      } catch (failed) {
        // The server's refusals are ignored (it rolls back by itself); anything else is a bug.
        if (!(failed instanceof SvcError)) throw failed;
      }
      throw error;
    }
    // A failed commit is retried only when it is a serialization failure or a deadlock (never a
    // NetworkError: its answer lost, it may have committed).
    await send(`${path}/commit`);
    return result;
  });
}

/** Runs the statements in one transaction, one round trip; each result decoded. */
export async function runBatch<E extends { describe(query: string): Promise<QueryDescription> }>(
  context: TransactionContext<E>,
  statements: readonly BatchStatement[],
  options: RetryOptions = {},
): Promise<unknown[][]> {
  const { transport, descriptions, decodeOptions, globals } = context;
  const exec = context.executor({ ...context.headers });
  const body = {
    statements: statements.map((s) => ({
      query: s.query,
      ...(s.variables && Object.keys(s.variables).length > 0
        ? { variables: encode(s.variables) }
        : {}),
      ...(s.cardinality ? { cardinality: s.cardinality } : {}),
    })),
    ...(globals && Object.keys(globals).length > 0 ? { globals: encode(globals) } : {}),
  };
  const queries = [...new Set(statements.map((s) => s.query))];
  const [, answer] = await Promise.all([
    Promise.all(queries.map((q) => exec.describe(q))),
    retrying(options, () =>
      transport.request('/query/batch', {
        body,
        ...(context.headers ? { headers: context.headers } : {}),
      }),
    ),
  ]);
  // The schema moved since a query was described: describe it again.
  const version = answer.headers.get('x-svc-schema-version');
  for (const q of queries) {
    if (version !== null && descriptions.get(q)?.version !== version) {
      descriptions.delete(q);
      await exec.describe(q);
    }
  }
  let data: unknown;
  try {
    data = (parseJson(answer.text) as { data?: unknown }).data;
  } catch (cause) {
    throw new ProtocolError('the server answered a batch with a body that is not JSON', { cause });
  }
  if (!Array.isArray(data) || data.length !== statements.length)
    throw new ProtocolError('the server answered a batch without one result per statement');
  try {
    return statements.map((s, i) => {
      const output = (descriptions.get(s.query) as { description: QueryDescription }).description
        .output;
      return (data[i] as unknown[]).map((element) => decode(output, element, decodeOptions));
    });
  } catch (cause) {
    if (cause instanceof SvcError) throw cause;
    throw new ProtocolError('the answer does not fit the description of the queries', { cause });
  }
}

function transactionId(text: string): string {
  let id: unknown;
  try {
    id = (JSON.parse(text) as { transaction?: { id?: unknown } }).transaction?.id;
  } catch {
    id = undefined;
  }
  if (typeof id !== 'string' || id === '')
    throw new ProtocolError('the server began a transaction without answering its id');
  return id;
}
