/**
 * Transactions over HTTP (docs/http.md, "Transactions") against a listening server, on the
 * engine under test (PGlite, or PostgreSQL with SVC_TEST_DB=postgres).
 *
 * The attacks first: another caller presenting a stolen id (404, nothing revealed, the owner's
 * transaction untouched), an id replayed after commit or rollback, transactions opened past the
 * cap, a slow client holding one past the idle timeout, an id of another instance. Then what a
 * transaction must do: commit, roll back (asked, on an error, on shutdown), batch, and on
 * PostgreSQL a real serialization failure between two serializable transactions.
 */
import { testDatabaseKind } from '@svc/core/testing';
import type { SvcServer } from '../src';
import { SECRET, sharedDatabase, start } from './helpers';

const SDL = `
type Item {
  required name: str { constraint exclusive; }
  n: int64;
}
`;
const SERVICE_KEY = 'service-key-0123456789-abcdefghijklmnop';
const POSTGRES = testDatabaseKind() === 'postgres';
/** The idle timeout of the servers here (ms). */
const IDLE_MS = 1500;

const db = sharedDatabase();

function client(server: SvcServer, token?: string) {
  async function send(path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {}, headers: res.headers };
  }
  return {
    send,
    begin: (options?: unknown) => send('/transactions', options),
    query: (id: string | undefined, query: string, variables?: Record<string, unknown>) =>
      send(
        '/query',
        { query, ...(variables ? { variables } : {}) },
        id === undefined ? {} : { 'x-svc-transaction': id },
      ),
    commit: (id: string) => send(`/transactions/${encodeURIComponent(id)}/commit`),
    rollback: (id: string) => send(`/transactions/${encodeURIComponent(id)}/rollback`),
  };
}

async function begun(c: ReturnType<typeof client>, options?: unknown): Promise<string> {
  const res = await c.begin(options);
  expect(res.status).toBe(201);
  return res.body.transaction.id as string;
}

const names = async (c: ReturnType<typeof client>, prefix: string) =>
  (
    (
      await c.query(undefined, 'select Item.name filter Item.name like <str>$p', {
        p: `${prefix}%`,
      })
    ).body.data as string[]
  ).sort();

describe('one server (service key and anonymous callers)', () => {
  let server: SvcServer;
  let service: ReturnType<typeof client>;
  let anonymous: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await start(db.get(), {
      schema: SDL,
      serviceKey: SERVICE_KEY,
      instanceId: 'node-a',
      // Long enough that a loaded machine never idles out a test between two of its requests.
      transactionIdleTimeout: IDLE_MS,
      maxTransactions: 1,
    });
    service = client(server, SERVICE_KEY);
    anonymous = client(server);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  test('begin answers 201 with an id naming this instance and the idle timeout; commit keeps the writes', async () => {
    const res = await service.begin();
    expect(res.status).toBe(201);
    const { id, idleTimeout } = res.body.transaction;
    expect(id).toMatch(/^node-a\.[A-Za-z0-9_-]{24}$/);
    expect(idleTimeout).toBe(IDLE_MS);
    const insert = await service.query(id, 'insert Item { name := "c1" }');
    expect(insert.status).toBe(200);
    expect(insert.headers.get('x-svc-schema-version')).toBeTruthy();
    const inside = await service.query(id, 'select count(Item filter .name = "c1")');
    expect(inside.body).toEqual({ data: [1] });
    // Not visible outside before commit (on PGlite an outside request would wait for the commit).
    if (POSTGRES) expect(await names(service, 'c1')).toEqual([]);
    expect(await service.commit(id)).toMatchObject({
      status: 200,
      body: { transaction: { id, state: 'committed' } },
    });
    expect(await names(service, 'c1')).toEqual(['c1']);
    // Replayed after commit: said so, to its owner; a second commit too (a lost answer's retry).
    const replay = await service.query(id, 'insert Item { name := "c1-replay" }');
    expect(replay.status).toBe(409);
    expect(replay.body).toMatchObject({ code: 'TRANSACTION_COMMITTED' });
    expect((await service.commit(id)).body.code).toBe('TRANSACTION_COMMITTED');
    expect(await names(service, 'c1-')).toEqual([]);
  });

  test('rollback undoes the writes; the id then answers TRANSACTION_ABORTED (reason rollback); rolling back again is 200', async () => {
    const id = await begun(service, { isolation: 'repeatable_read' });
    expect((await service.query(id, 'insert Item { name := "r1" }')).status).toBe(200);
    expect((await service.rollback(id)).body).toEqual({ transaction: { id, state: 'rolledBack' } });
    expect(await names(service, 'r1')).toEqual([]);
    const again = await service.query(id, 'select 1');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'TRANSACTION_ABORTED',
      extensions: { reason: 'rollback' },
    });
    expect((await service.rollback(id)).status).toBe(200);
    expect((await service.commit(id)).body.code).toBe('TRANSACTION_ABORTED');
  });

  test('a failed statement rolls the whole transaction back at once (reason error)', async () => {
    const id = await begun(service);
    expect((await service.query(id, 'insert Item { name := "e1" }')).status).toBe(200);
    const bad = await service.query(id, 'select 1 / 0');
    expect(bad.status).toBe(400);
    expect(bad.body.type).toBe('DivisionByZeroError');
    const after = await service.query(id, 'select 1');
    expect(after.body).toMatchObject({
      code: 'TRANSACTION_ABORTED',
      extensions: { reason: 'error' },
    });
    expect(await names(service, 'e1')).toEqual([]);
  });

  test('a stolen id: another caller gets 404 TRANSACTION_NOT_FOUND for the statement, the commit and the rollback, and the owner is unharmed', async () => {
    const id = await begun(service);
    expect((await service.query(id, 'insert Item { name := "s1" }')).status).toBe(200);
    for (const answer of [
      await anonymous.query(id, 'insert Item { name := "s1-thief" }'),
      await anonymous.commit(id),
      await anonymous.rollback(id),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({
        code: 'TRANSACTION_NOT_FOUND',
        error: 'TRANSACTION_NOT_FOUND: no such transaction',
        hint: expect.any(String),
      });
    }
    expect((await service.commit(id)).status).toBe(200);
    expect(await names(service, 's1')).toEqual(['s1']);
    // After it ended, the thief learns nothing either (no "committed").
    expect((await anonymous.commit(id)).body.code).toBe('TRANSACTION_NOT_FOUND');
  });

  test('made-up ids are 404; an id of another instance is 421 TRANSACTION_MISROUTED naming it', async () => {
    for (const id of ['node-a.AAAAAAAAAAAAAAAAAAAAAAAA', 'garbage', '']) {
      const res = await service.query(id, 'select 1');
      expect([res.status, res.body.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
    }
    const other = await service.query('node-b.AAAAAAAAAAAAAAAAAAAAAAAA', 'select 1');
    expect(other.status).toBe(421);
    expect(other.body.code).toBe('TRANSACTION_MISROUTED');
    expect(other.body.error).toContain('node-b');
  });

  test('past the cap: 503 TOO_MANY_TRANSACTIONS with Retry-After; a slot frees when one ends', async () => {
    const first = await begun(service);
    const refused = await anonymous.begin();
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('TOO_MANY_TRANSACTIONS');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await service.rollback(first)).status).toBe(200);
    const second = await begun(anonymous);
    expect((await anonymous.rollback(second)).status).toBe(200);
  });

  test('a slow client: idle past transactionIdleTimeout, the transaction is rolled back and its slot freed (reason idleTimeout)', async () => {
    const id = await begun(service);
    expect((await service.query(id, 'insert Item { name := "i1" }')).status).toBe(200);
    const stats = (await (
      await fetch(`${server.url}/stats`, {
        headers: { authorization: `Bearer ${SERVICE_KEY}` },
      })
    ).json()) as { transactions: unknown };
    expect(stats.transactions).toEqual({ open: 1, max: 1 });
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 600));
    const late = await service.query(id, 'select 1');
    expect(late.body).toMatchObject({
      code: 'TRANSACTION_ABORTED',
      extensions: { reason: 'idleTimeout' },
    });
    expect(await names(service, 'i1')).toEqual([]);
    const metrics = await (
      await fetch(`${server.url}/metrics`, {
        headers: { authorization: `Bearer ${SERVICE_KEY}` },
      })
    ).text();
    expect(metrics).toMatch(/^svc_transactions_open 0$/m);
    // The slot is free again.
    const next = await begun(service);
    expect((await service.commit(next)).status).toBe(200);
  });

  test('a body that is not a begin: 400 VALIDATION_ERROR, nothing opened', async () => {
    expect((await service.begin({ isolation: 'chaos' })).body.code).toBe('VALIDATION_ERROR');
    expect((await service.begin({ nope: 1 })).body.code).toBe('VALIDATION_ERROR');
    const id = await begun(service, { readOnly: true });
    const write = await service.query(id, 'insert Item { name := "ro" }');
    expect(write.status).toBe(400);
    expect(write.body.type).toBe('TransactionError');
    expect(await names(service, 'ro')).toEqual([]);
  });

  test('describe with the header runs in the queue and does not end the transaction', async () => {
    const id = await begun(service);
    const described = await service.send(
      '/query',
      { query: 'select Item { name }', describe: true },
      { 'x-svc-transaction': id },
    );
    expect(described.status).toBe(200);
    expect(described.body.describe.output.kind).toBe('object');
    expect((await service.commit(id)).status).toBe(200);
  });

  test('requests of one transaction run one at a time, in order', async () => {
    const id = await begun(service);
    const answers = await Promise.all(
      ['q1', 'q2', 'q3', 'q4'].map((name) =>
        service.query(id, `insert Item { name := "${name}" }`),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect((await service.commit(id)).status).toBe(200);
    expect(await names(service, 'q')).toEqual(['q1', 'q2', 'q3', 'q4']);
  });

  test('REST routes refuse the header rather than run outside the transaction', async () => {
    const res = await service.send(
      '/api/Item',
      { name: 'rest' },
      { 'x-svc-transaction': 'node-a.x' },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  test('batch: every result in one answer; a failing statement names its index and rolls all back', async () => {
    const ok = await service.send('/query/batch', {
      statements: [
        { query: 'insert Item { name := <str>$n }', variables: { n: 'b1' } },
        { query: 'select Item { name } filter .name = "b1"', cardinality: 'one' },
        { query: 'select 1 + 1' },
      ],
    });
    expect(ok.body).toMatchObject({ data: [[{}], [{ name: 'b1' }], [2]] });
    expect(ok.status).toBe(200);
    const bad = await service.send('/query/batch', {
      statements: [{ query: 'insert Item { name := "b2" }' }, { query: 'select 1 / 0' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ type: 'DivisionByZeroError', extensions: { statement: 1 } });
    expect(await names(service, 'b2')).toEqual([]);
    const shape = await service.send('/query/batch', { statements: [] });
    expect(shape.body.code).toBe('VALIDATION_ERROR');
  });

  test('CORS: a page may send X-Svc-Transaction', async () => {
    const cors = await start(db.get(), { cors: { origins: ['https://app.example'] } });
    try {
      const res = await fetch(`${cors.url}/query`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, x-svc-transaction',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-headers')).toBe(
        'content-type, x-svc-transaction',
      );
    } finally {
      await cors.close();
    }
  });
});

test('closing the server rolls back every open transaction', async () => {
  const server = await start(db.get(), { schema: SDL, serviceKey: SERVICE_KEY });
  const c = client(server, SERVICE_KEY);
  const id = await begun(c);
  expect((await c.query(id, 'insert Item { name := "shutdown" }')).status).toBe(200);
  await server.close();
  const again = await start(db.get(), { schema: SDL, serviceKey: SERVICE_KEY });
  try {
    expect(await names(client(again, SERVICE_KEY), 'shutdown')).toEqual([]);
  } finally {
    await again.close();
  }
}, 30_000);

describe('with auth: users', () => {
  let server: SvcServer;
  const tokens: string[] = [];
  beforeAll(async () => {
    server = await start(db.get(), {
      schema: SDL,
      enableAuth: true,
      jwtSecret: SECRET,
      serviceKey: SERVICE_KEY,
      maxTransactions: 2,
      authConfig: { bcryptRounds: 4 },
    });
    for (const who of ['ann', 'bob']) {
      const res = await fetch(`${server.url}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `${who}-${Date.now()}@example.com`,
          password: 'a long passphrase',
        }),
      });
      tokens.push(((await res.json()) as { token: string }).token);
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const onPglite = POSTGRES ? test.skip : test;
  const onPostgres = POSTGRES ? test : test.skip;

  onPglite(
    'on PGlite a user token cannot hold a transaction open (501, with the batch as the way)',
    async () => {
      const res = await client(server, tokens[0]).begin();
      expect(res.status).toBe(501);
      expect(res.body.hint).toContain('/query/batch');
    },
  );

  onPostgres(
    "another user's token presenting a stolen id is 404; so is the service key; the owner commits",
    async () => {
      const ann = client(server, tokens[0]);
      const bob = client(server, tokens[1]);
      const id = await begun(ann);
      expect((await ann.query(id, 'insert Item { name := "ann1" }')).status).toBe(200);
      expect((await bob.query(id, 'select Item')).body.code).toBe('TRANSACTION_NOT_FOUND');
      expect((await bob.commit(id)).body.code).toBe('TRANSACTION_NOT_FOUND');
      expect((await client(server, SERVICE_KEY).rollback(id)).body.code).toBe(
        'TRANSACTION_NOT_FOUND',
      );
      expect((await ann.commit(id)).status).toBe(200);
    },
  );
});

(POSTGRES ? test : test.skip)(
  'PostgreSQL: two serializable transactions that read then write the same rows: one fails with TransactionSerializationError (40001)',
  async () => {
    const server = await start(db.get(), {
      schema: SDL,
      serviceKey: SERVICE_KEY,
      maxTransactions: 2,
    });
    try {
      const c = client(server, SERVICE_KEY);
      const a = await begun(c);
      const b = await begun(c);
      const count = 'select count(Item filter .name like "ser%")';
      expect((await c.query(a, count)).status).toBe(200);
      expect((await c.query(b, count)).status).toBe(200);
      expect((await c.query(a, 'insert Item { name := "ser-a" }')).status).toBe(200);
      const bWrite = await c.query(b, 'insert Item { name := "ser-b" }');
      const aCommit = await c.commit(a);
      expect(aCommit.status).toBe(200);
      // b fails at its write or at its commit, whichever PostgreSQL detects first.
      const failed = bWrite.status === 200 ? await c.commit(b) : bWrite;
      expect(failed.status).toBe(400);
      expect(failed.body).toMatchObject({
        type: 'TransactionSerializationError',
        extensions: { sqlState: '40001' },
      });
      expect(await names(c, 'ser')).toEqual(['ser-a']);
    } finally {
      await server.close();
    }
  },
  30_000,
);
