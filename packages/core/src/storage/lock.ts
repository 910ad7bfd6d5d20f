/**
 * storage/lock: the lock rows that serialise migrations, in place of advisory locks (which
 * CockroachDB accepts as a no-op and older YugabyteDB releases lack; docs/scaling.md, "Cheap
 * wins"). `svc_meta.locks` has one row per lock name (`svc_meta` for core's migrations, `svc_auth`
 * for auth's); `withLock` runs a function in one transaction that first locks its row with
 * `SELECT ... FOR UPDATE`. The row lock is transaction-scoped, like `pg_advisory_xact_lock` was:
 * COMMIT or ROLLBACK releases it, so a transaction-mode pooler cannot leak it.
 *
 * The table and its rows are made in that same transaction when missing (a dry run on an empty
 * database leaves nothing). Two processes starting at once on an empty database both try to make
 * them: the second's `create ... if not exists` waits for the first's transaction, then fails on
 * the catalog's unique index (23505), or with 42P06/42P07 (duplicate schema/table). That failure
 * of the set-up, and only that, starts the transaction again (at most LOCK_SETUP_ATTEMPTS times);
 * by then the table is there and the second waits on the row like any later starter.
 */
import type { Database, Transaction } from '../db';
import { databaseErrorFields } from '../errors';

/** Core's migration lock (storage/migrate). */
export const MIGRATION_LOCK = 'svc_meta';
const LOCK_SETUP_ATTEMPTS = 5;
/** Failures of `create ... if not exists` racing another transaction making the same object. */
const CATALOG_RACE = new Set(['23505', '42P06', '42P07', '42710']);

class LockSetupRace {
  constructor(readonly cause: unknown) {}
}

/**
 * Runs `fn` in one transaction that holds the lock row `name` from its start: concurrent callers
 * with the same name run one after another. The pool's `statement_timeout` is lifted for the
 * transaction (the wait for the lock, a long migration).
 */
export async function withLock<T>(
  db: Database,
  name: string,
  fn: (tx: Transaction) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        await tx.query('set local statement_timeout = 0');
        await lockRow(tx, name);
        return fn(tx);
      });
    } catch (err) {
      if (!(err instanceof LockSetupRace)) throw err;
      if (attempt >= LOCK_SETUP_ATTEMPTS) throw err.cause;
    }
  }
}

async function lockRow(tx: Transaction, name: string): Promise<void> {
  try {
    await tx.query('create schema if not exists svc_meta');
    await tx.query('create table if not exists svc_meta.locks (name text primary key)');
    await tx.query('insert into svc_meta.locks (name) values ($1) on conflict do nothing', [name]);
  } catch (err) {
    const code = databaseErrorFields(err)?.code;
    if (code !== undefined && CATALOG_RACE.has(code)) throw new LockSetupRace(err);
    throw err;
  }
  await tx.query('select name from svc_meta.locks where name = $1 for update', [name]);
}
