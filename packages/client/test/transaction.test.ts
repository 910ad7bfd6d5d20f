/**
 * `client.transaction` and `client.batch` against a real svc server (`createServer` over loopback
 * HTTP, on the engine under test: PGlite, or PostgreSQL with SVC_TEST_DB=postgres): commit,
 * rollback when the function throws, the retry rule on serialization failures (a real one
 * between two serializable transactions on PostgreSQL; on PGlite, whose one connection cannot
 * conflict, a fetch that answers one statement with the server's serialization failure), the
 * idle timeout, and the batch. Every wait is bounded.
 */
import { testDatabaseKind } from '@svc/core/testing';
import type { SvcServer } from '@svc/server';
import {
  createClient,
  DivisionByZeroError,
  ServerError,
  TransactionError,
  TransactionSerializationError,
  type Client,
} from '../src';
import { serveForTest, type TestServer } from './serve';

const SDL = `
type Account {
  required name: str { constraint exclusive; }
  required balance: int64;
  opened: datetime;
}
`;
const SERVICE_KEY = 'service-key-0123456789-abcdefghijklmnop';
const POSTGRES = testDatabaseKind() === 'postgres';
/** Long enough that a loaded machine never idles out a test between two of its requests. */
const IDLE_MS = 1500;

let served: TestServer;
let server: SvcServer;
let client: Client;
beforeAll(async () => {
  served = await serveForTest({
    schema: SDL,
    serviceKey: SERVICE_KEY,
    transactionIdleTimeout: IDLE_MS,
    maxTransactions: 4,
  });
  server = served.server;
  client = createClient({ url: server.url, serviceKey: SERVICE_KEY });
}, 60_000);
afterAll(async () => {
  await served?.close();
});

const names = async (prefix: string) =>
  (
    await client.query<string>('select Account.name filter Account.name like <str>$p', {
      p: `${prefix}%`,
    })
  ).sort();
const fast = { backoff: () => 5 };

test('commit: the statements run in one transaction, decoded inside; visible after', async () => {
  const opened = new Date('2024-01-02T03:04:05.678Z');
  const result = await client.transaction(async (tx) => {
    await tx.execute('insert Account { name := "c-ann", balance := 10, opened := <datetime>$at }', {
      at: opened,
    });
    await tx.execute('insert Account { name := "c-bob", balance := 5 }');
    return await tx.queryRequiredSingle<{ balance: number; opened: Date }>(
      'select Account { balance, opened } filter .name = "c-ann"',
    );
  });
  expect(result).toEqual({ balance: 10, opened });
  expect(await names('c-')).toEqual(['c-ann', 'c-bob']);
  expect(server.transactions.size).toBe(0);
});

test('a function that throws: rolled back, the same error rethrown, no retry', async () => {
  const mine = new Error('changed my mind');
  let runs = 0;
  await expect(
    client.transaction(async (tx) => {
      runs++;
      await tx.execute('insert Account { name := "t-ann", balance := 1 }');
      throw mine;
    }),
  ).rejects.toBe(mine);
  expect(runs).toBe(1);
  expect(await names('t-')).toEqual([]);
  expect(server.transactions.size).toBe(0);
});

test('a failing statement: its error class, the transaction rolled back', async () => {
  await expect(
    client.transaction(async (tx) => {
      await tx.execute('insert Account { name := "f-ann", balance := 1 }');
      await tx.query('select 1 / 0');
    }),
  ).rejects.toBeInstanceOf(DivisionByZeroError);
  expect(await names('f-')).toEqual([]);
});

test('readOnly: a write is a TransactionError', async () => {
  await expect(
    client.transaction((tx) => tx.execute('insert Account { name := "ro", balance := 1 }'), {
      readOnly: true,
    }),
  ).rejects.toBeInstanceOf(TransactionError);
});

/** A fetch that answers the `n`th statement run in a transaction with a serialization failure. */
function failingFetch(failures: (n: number) => boolean) {
  let statements = 0;
  const requests: string[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const path = new URL(String(input)).pathname;
    requests.push(path);
    const body =
      typeof init?.body === 'string' ? (JSON.parse(init.body) as { describe?: boolean }) : {};
    if (path === '/query' && headers.has('x-svc-transaction') && !body.describe) {
      statements++;
      if (failures(statements))
        return new Response(
          JSON.stringify({
            code: 'QUERY_ERROR',
            error:
              'QUERY_ERROR: the transaction could not be serialised with a concurrent one; retry it',
            type: 'TransactionSerializationError',
            extensions: { sqlState: '40001' },
          }),
          { status: 400, headers: { 'content-type': 'application/json' } },
        );
    }
    return fetch(input, init);
  };
  return { fetch: wrapped, requests };
}

test('retry: one serialization failure answer runs the whole function again, then commits (gel-js rule)', async () => {
  const injected = failingFetch((n) => n === 1);
  const c = createClient({ url: server.url, serviceKey: SERVICE_KEY, fetch: injected.fetch });
  let runs = 0;
  const waits: number[] = [];
  await c.transaction(
    async (tx) => {
      runs++;
      await tx.execute('insert Account { name := "r-ann", balance := 1 }');
    },
    {
      backoff: (attempt) => {
        waits.push(attempt);
        return 5;
      },
    },
  );
  expect(runs).toBe(2);
  expect(waits).toEqual([1]);
  // The first transaction was rolled back, the second committed.
  expect(injected.requests.filter((p) => p.endsWith('/rollback'))).toHaveLength(1);
  expect(injected.requests.filter((p) => p.endsWith('/commit'))).toHaveLength(1);
  expect(await names('r-')).toEqual(['r-ann']);
});

test('retry: at most `attempts` runs (3 by default), then the serialization failure is thrown', async () => {
  const injected = failingFetch(() => true);
  const c = createClient({ url: server.url, serviceKey: SERVICE_KEY, fetch: injected.fetch });
  let runs = 0;
  await expect(
    c.transaction(async (tx) => {
      runs++;
      await tx.execute('select 1');
    }, fast),
  ).rejects.toBeInstanceOf(TransactionSerializationError);
  expect(runs).toBe(3);
  runs = 0;
  await expect(
    c.transaction(
      async (tx) => {
        runs++;
        await tx.execute('select 1');
      },
      { ...fast, attempts: 1 },
    ),
  ).rejects.toBeInstanceOf(TransactionSerializationError);
  expect(runs).toBe(1);
  expect(server.transactions.size).toBe(0);
});

(POSTGRES ? test : test.skip)(
  'PostgreSQL: two transactions read then write the same rows; the loser fails with 40001 and is run again',
  async () => {
    await client.execute('insert Account { name := "pg-pot", balance := 0 }');
    let arrived = 0;
    let release!: () => void;
    const bothRead = new Promise<void>((resolve) => {
      release = resolve;
    });
    let runs = 0;
    const add = (amount: number) =>
      client.transaction(async (tx) => {
        const attempt = ++runs;
        const balance = await tx.queryRequiredSingle<number>(
          'select (select Account filter .name = "pg-pot").balance',
        );
        if (attempt <= 2) {
          // The first run of each waits until both have read: a real read-write conflict.
          if (++arrived === 2) release();
          await Promise.race([bothRead, new Promise((r) => setTimeout(r, 5000).unref())]);
        }
        await tx.execute('update Account filter .name = "pg-pot" set { balance := <int64>$b }', {
          b: balance + amount,
        });
      }, fast);
    await Promise.all([add(1), add(10)]);
    expect(runs).toBe(3);
    expect(
      await client.queryRequiredSingle<number>(
        'select (select Account filter .name = "pg-pot").balance',
      ),
    ).toBe(11);
  },
  30_000,
);

test('idle timeout: a function that waits past it finds its transaction rolled back (TRANSACTION_ABORTED, idleTimeout)', async () => {
  let runs = 0;
  const failure = await client
    .transaction(async (tx) => {
      runs++;
      await tx.execute('insert Account { name := "i-ann", balance := 1 }');
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 2.5));
      await tx.execute('insert Account { name := "i-bob", balance := 1 }');
    })
    .catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ServerError);
  expect(failure).toMatchObject({
    code: 'TRANSACTION_ABORTED',
    status: 409,
    reason: 'idleTimeout',
  });
  expect(runs).toBe(1);
  expect(await names('i-')).toEqual([]);
  expect(server.transactions.size).toBe(0);
});

test('batch: one round trip, one transaction, each result decoded; a failure names its statement and keeps nothing', async () => {
  const at = new Date('2025-06-07T08:09:10.111Z');
  const [inserted, read, sum] = await client.batch([
    {
      query: 'insert Account { name := <str>$n, balance := 7, opened := <datetime>$at }',
      variables: { n: 'b-ann', at },
    },
    { query: 'select Account { opened } filter .name = "b-ann"', cardinality: 'one' },
    { query: 'select 2 + 3' },
  ]);
  expect(inserted).toHaveLength(1);
  expect(read).toEqual([{ opened: at }]);
  expect(sum).toEqual([5]);
  const failure = await client
    .batch([
      { query: 'insert Account { name := "b-bob", balance := 1 }' },
      { query: 'select 1 / 0' },
    ])
    .catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(DivisionByZeroError);
  expect(failure).toMatchObject({ statement: 1 });
  expect(await names('b-bob')).toEqual([]);
});
