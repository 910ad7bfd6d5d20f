import net from 'node:net';
import { createDefaultMigrator } from '../schema';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../testing';
import { openDatabase, type Database } from './index';

// Issue 26, point 8. The attack: a caller sends a query that runs for minutes behind a short
// requestTimeout; the client gets 408 while the statement keeps running in PostgreSQL, so any
// caller can keep the database busy past the timeout. A statement is given its request's abort
// signal: not started, it never starts; running (PostgreSQL), it is cancelled; and the pool's
// `statement_timeout` stops it even when the cancel never arrives.

const CANCELLED = { code: '57014' };

/** Polls `probe` every 25 ms until it is true; fails naming `what` after `ms`. */
async function waitFor(what: string, ms: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe(`a statement's abort signal on ${testDatabaseKind()}`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await t.db.query('create table hit (n int not null)');
  });
  afterAll(() => t.dispose());

  const hits = async () =>
    Number((await t.db.query<{ n: number }>('select count(*)::int as n from hit')).rows[0]?.n);

  test('a signal already aborted: the statement is refused with 57014 and does not run', async () => {
    const before = await hits();
    const signal = AbortSignal.abort();
    await expect(t.db.query('insert into hit values (1)', [], { signal })).rejects.toMatchObject(
      CANCELLED,
    );
    await expect(
      t.db.query('insert into hit values (2)', [], { name: 'svc_cancel_test_insert', signal }),
    ).rejects.toMatchObject(CANCELLED);
    expect(await hits()).toBe(before);
  });

  test('a statement waiting for the connection is refused when its signal aborts meanwhile', async () => {
    // One connection: PGlite is one; PostgreSQL gets a pool of one for the test.
    const single: Database =
      t.db.kind === 'pglite'
        ? t.db
        : await openDatabase({ url: (t.config as { url: string }).url, poolSize: 1 });
    try {
      const before = await hits();
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const holder = single.transaction(async (tx) => {
        await tx.query('select 1');
        entered();
        await held;
      });
      await inside;
      const controller = new AbortController();
      const waiting = single.query('insert into hit values (3)', [], {
        signal: controller.signal,
      });
      controller.abort();
      release();
      await holder;
      await expect(waiting).rejects.toMatchObject(CANCELLED);
      expect(await hits()).toBe(before);
      // The connection is still good for the next statement.
      await expect(single.query('select 1 as one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    } finally {
      if (single !== t.db) await single.close();
    }
  });

  test('a statement queued behind one outlasting its deadline is refused, even when that one held the thread', async () => {
    // PGlite runs the first statement on this thread: the second one's timer cannot fire before
    // it ends. On PostgreSQL the second waits for the pool's one connection.
    const single: Database =
      t.db.kind === 'pglite'
        ? t.db
        : await openDatabase({ url: (t.config as { url: string }).url, poolSize: 1 });
    try {
      const before = await hits();
      const slow = single.query('select count(*) from generate_series(1, 1000000)');
      const started = Date.now();
      const queued = single.query('insert into hit values (4)', [], {
        signal: AbortSignal.timeout(50),
      });
      await slow;
      expect(Date.now() - started).toBeGreaterThan(100); // the slow one did outlast the deadline
      await expect(queued).rejects.toMatchObject(CANCELLED);
      expect(await hits()).toBe(before);
    } finally {
      if (single !== t.db) await single.close();
    }
  });

  test('a signal that never aborts changes nothing', async () => {
    const { signal } = new AbortController();
    const { rows } = await t.db.query<{ v: number }>('select $1::int + 1 as v', [41], { signal });
    expect(rows).toEqual([{ v: 42 }]);
  });
});

// Interrupting a running statement and the server's own timeout need PostgreSQL (embedded PGlite
// runs a statement on the JavaScript thread and has no timers to stop it with).
if (testDatabaseKind() === 'postgres') {
  describe('a running statement on PostgreSQL', () => {
    let t: TestDatabase;
    let observer: Database;
    beforeAll(async () => {
      t = await createTestDatabase();
      observer = await openDatabase({ url: (t.config as { url: string }).url, poolSize: 1 });
    });
    afterAll(async () => {
      await observer.close();
      await t.dispose();
    });

    /** Statements of the test database running `pg_sleep`, seen from another connection. */
    const sleeping = async () =>
      Number(
        (
          await observer.query<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active' and pid <> pg_backend_pid() and query like '%pg_sleep%'",
          )
        ).rows[0]?.n,
      );

    test.each([
      ['unnamed', undefined],
      ['a named prepared statement', 'svc_cancel_test_sleep'],
    ])('%s is cancelled when its signal aborts, and the pool goes on', async (_kind, name) => {
      const controller = new AbortController();
      const running = t.db.query('select pg_sleep(30)', [], { name, signal: controller.signal });
      running.catch(() => undefined); // settled below
      await waitFor('the statement to start', 5000, async () => (await sleeping()) === 1);
      const aborted = Date.now();
      controller.abort();
      await expect(running).rejects.toMatchObject(CANCELLED);
      await waitFor('the statement to be gone', 1000, async () => (await sleeping()) === 0);
      expect(Date.now() - aborted).toBeLessThan(1000);
      await expect(t.db.query('select 1 as one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    });

    test('statementTimeoutMs is every connection statement_timeout: the database stops what runs longer', async () => {
      const db = await openDatabase(
        { url: (t.config as { url: string }).url, poolSize: 2 },
        { statementTimeoutMs: 200 },
      );
      try {
        const { rows } = await db.query<{ statement_timeout: string }>('show statement_timeout');
        expect(rows[0]?.statement_timeout).toBe('200ms');
        const started = Date.now();
        // No signal: nothing in this process stops it, the database does.
        await expect(db.query('select pg_sleep(5)')).rejects.toMatchObject(CANCELLED);
        expect(Date.now() - started).toBeLessThan(2000);
      } finally {
        await db.close();
      }
    });

    test('a migration lifts the statement timeout for its transaction', async () => {
      const url = (t.config as { url: string }).url;
      const migrator = createDefaultMigrator();
      await migrator.migrate(t.db, 'type Row { required n: int64; }');
      await t.db.query(
        'insert into "default"."Row" (n) select g from generate_series(1, 100000) g',
      );
      // Checking and indexing 100,000 rows for a new exclusive constraint takes far longer than 10 ms.
      const db = await openDatabase({ url, poolSize: 2 }, { statementTimeoutMs: 10 });
      try {
        const result = await migrator.migrate(
          db,
          'type Row { required n: int64 { constraint exclusive; } }',
        );
        expect(result.applied).toBe(true);
        await expect(db.query('select pg_sleep(1)')).rejects.toMatchObject(CANCELLED);
      } finally {
        await db.close();
      }
    });

    test('a pooler refusing the statement_timeout startup parameter: connections go without it, and a warning says so', async () => {
      const upstream = new URL((t.config as { url: string }).url);
      const pooler = await refusingPooler(upstream);
      const warnings: string[] = [];
      const url = new URL(upstream);
      url.host = `127.0.0.1:${pooler.port}`;
      try {
        const db = await openDatabase(
          { url: url.toString(), poolSize: 1 },
          { statementTimeoutMs: 200, onWarning: (message) => warnings.push(message) },
        );
        try {
          const { rows } = await db.query<{ statement_timeout: string }>('show statement_timeout');
          expect(rows[0]?.statement_timeout).toBe('0');
          expect(warnings).toHaveLength(1);
          expect(warnings[0]).toMatch(/statement_timeout/);
          expect(warnings[0]).toMatch(/track_extra_parameters/);
          expect(pooler.refused).toBe(1);
        } finally {
          await db.close();
        }
      } finally {
        await pooler.close();
      }
    });
  });
}

/**
 * A stand-in for PgBouncer's default configuration on loopback: a connection whose startup
 * packet carries `statement_timeout` is refused as PgBouncer refuses it (FATAL 08P01
 * "unsupported startup parameter"); any other is relayed to `upstream` byte for byte.
 */
async function refusingPooler(
  upstream: URL,
): Promise<{ port: number; refused: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const state = { refused: 0 };
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    client.once('data', (first) => {
      if (first.includes(Buffer.from('statement_timeout\0'))) {
        state.refused++;
        client.end(fatal('08P01', 'unsupported startup parameter: statement_timeout'));
        return;
      }
      const server = net.connect(Number(upstream.port || 5432), upstream.hostname);
      sockets.add(server);
      server.on('close', () => {
        sockets.delete(server);
        client.destroy();
      });
      server.on('error', () => client.destroy());
      client.on('close', () => server.destroy());
      server.write(first);
      client.pipe(server);
      server.pipe(client);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get refused() {
      return state.refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An ErrorResponse message (protocol 3): severity FATAL, the SQLSTATE and the message. */
function fatal(sqlState: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${sqlState}\0M${message}\0\0`, 'utf8');
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}
