/**
 * @svc/core/testing: what a test suite needs to run on both engines. Not part of the main entry:
 * nothing here belongs in a program.
 *
 * @example
 * import { createTestDatabase } from '@svc/core/testing';
 * const tdb = await createTestDatabase(); // PGlite, or a fresh PostgreSQL database with SVC_TEST_DB=postgres
 * await tdb.db.query('select 1');
 * await tdb.dispose();
 */
import { randomBytes } from 'node:crypto';
import { openDatabase, type OpenDatabaseOptions } from './db/open';
import type { Database, Transaction } from './db/types';

/**
 * The database a test suite runs against, chosen by the environment so the same suite runs on
 * both engines: `SVC_TEST_DB=postgres` with `SVC_TEST_DATABASE_URL` (a server where the user may
 * create databases) gives a fresh database of its own, dropped on close; anything else gives
 * embedded PGlite in memory.
 */
export function testDatabaseKind(env: NodeJS.ProcessEnv = process.env): 'postgres' | 'pglite' {
  return env.SVC_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

export interface TestDatabase {
  /** Open connection to the fresh database. */
  readonly db: Database;
  /** A config that opens the same database again (for a server under test). */
  readonly config: { url: string } | { memory: true };
  /** Closes the connection and drops the database (PostgreSQL). */
  dispose(): Promise<void>;
}

export async function createTestDatabase(
  env: NodeJS.ProcessEnv = process.env,
  options: OpenDatabaseOptions = {},
): Promise<TestDatabase> {
  if (testDatabaseKind(env) === 'pglite') {
    const db = await openDatabase({ memory: true }, options);
    return { db, config: { memory: true }, dispose: () => db.close() };
  }
  const adminUrl = env.SVC_TEST_DATABASE_URL;
  if (!adminUrl) {
    throw new Error('SVC_TEST_DB=postgres needs SVC_TEST_DATABASE_URL (a server URL)');
  }
  const name = `svc_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await openDatabase({ url: adminUrl, poolSize: 1 });
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.close();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), poolSize: 5 }, options);
  return {
    db,
    config: { url: url.toString() },
    async dispose() {
      await db.close();
      const again = await openDatabase({ url: adminUrl, poolSize: 1 });
      try {
        await again.query(`drop database if exists ${name} with (force)`);
      } finally {
        await again.close();
      }
    },
  };
}

/** What `rolledBack` throws to end its transaction. */
class RolledBack extends Error {}

/**
 * Runs `body` in a transaction that is always rolled back, and returns what `body` returned: a
 * test's writes never reach the next test. An error `body` throws is thrown as it is.
 */
export async function rolledBack<T>(
  db: Database,
  body: (tx: Transaction) => Promise<T>,
): Promise<T> {
  let result: { value: T } | null = null;
  try {
    await db.transaction(async (tx) => {
      result = { value: await body(tx) };
      throw new RolledBack();
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
  return (result as unknown as { value: T }).value;
}
