/**
 * Single-use rows: reset, verification and magic-link tokens, MFA challenges, OAuth states and
 * codes, WebAuthn challenges. Each is live while unconsumed and unexpired, and is consumed at most
 * once: of concurrent callers, one gets the row. One helper writes that statement for every such
 * table (Postgres), and one its memory twin, so the rule lives in one place.
 *
 * Table and column names come from the fixed, typed lists below, never from input; every value
 * is a bound parameter.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { AUTH_SCHEMA } from './migrations';
import type { AuthTables } from './sql';

/** Each single-use table and the column a caller names its row by. */
export const SINGLE_USE_KEY = {
  reset_tokens: 'token_hash',
  verification_tokens: 'token_hash',
  magic_link_tokens: 'token_hash',
  magic_link_signup_tokens: 'token_hash',
  mfa_challenges: 'token_hash',
  oauth_states: 'state_hash',
  oauth_codes: 'code_hash',
  webauthn_challenges: 'id',
} as const satisfies { readonly [T in keyof AuthTables]?: keyof AuthTables[T] & string };

export type SingleUseTable = keyof typeof SINGLE_USE_KEY;
export type ColumnOf<T extends SingleUseTable> = keyof AuthTables[T] & string;

/** The single-use tables whose rows belong to a user (`user_id`). */
export type UserTokenTable = {
  [T in SingleUseTable]: 'user_id' extends keyof AuthTables[T] ? T : never;
}[SingleUseTable];

export interface ConsumeOnce<T extends SingleUseTable, C extends ColumnOf<T>> {
  /** The row's key: its token hash (or, for WebAuthn challenges, its id). */
  readonly key: string;
  /** Stamped into `consumed_at`; the row must expire after it. */
  readonly at: Date;
  /** More columns the row must equal (an OAuth state's provider, a challenge's ceremony). */
  readonly where?: { readonly [K in ColumnOf<T>]?: string };
  /** A further condition (a magic-link redemption: no user token matched the hash). */
  readonly and?: RawBuilder<unknown>;
  /** The columns to hand back. */
  readonly returning: readonly C[];
}

/**
 * The statement that consumes one live row, as a fragment (a data-modifying CTE can embed it):
 * `update <table> set consumed_at = $at where <key> = $key [and <col> = $v ...] and consumed_at
 * is null and expires_at > $at returning <cols>`. One conditional UPDATE: the row lock orders
 * concurrent callers, and the loser re-reads `consumed_at` and matches nothing.
 */
export function consumeOnceSql<T extends SingleUseTable, C extends ColumnOf<T>>(
  table: T,
  c: ConsumeOnce<T, C>,
): RawBuilder<Pick<AuthTables[T], C>> {
  const where = Object.entries(c.where ?? {}).map(
    ([column, value]) => sql` and ${sql.ref(column)} = ${value}`,
  );
  return sql<Pick<AuthTables[T], C>>`update ${sql.table(`${AUTH_SCHEMA}.${table}`)}
    set consumed_at = ${c.at}
    where ${sql.ref(SINGLE_USE_KEY[table])} = ${c.key}${sql.join(where, sql``)}
      and consumed_at is null and expires_at > ${c.at}${c.and ? sql` and ${c.and}` : sql``}
    returning ${sql.join(c.returning.map((column) => sql.ref(column)))}`;
}

/** Consumes one live row of `table` (see `consumeOnceSql`); the returned columns, or null. */
export async function consumeOnce<T extends SingleUseTable, C extends ColumnOf<T>>(
  db: Kysely<AuthTables>,
  table: T,
  c: ConsumeOnce<T, C>,
): Promise<Pick<AuthTables[T], C> | null> {
  const { rows } = await consumeOnceSql(table, c).execute(db);
  return rows[0] ?? null;
}

/** The statement consuming every unconsumed row of the user in `table`, expired or not. */
export function consumeUserTokensSql(
  table: UserTokenTable,
  userId: string,
  at: Date,
): RawBuilder<unknown> {
  return sql`update ${sql.table(`${AUTH_SCHEMA}.${table}`)} set consumed_at = ${at}
    where user_id = ${userId} and consumed_at is null`;
}

/** Consumes every unconsumed row of the user in `table`, expired or not (they stop working). */
export async function consumeUserTokens(
  db: Kysely<AuthTables>,
  table: UserTokenTable,
  userId: string,
  at: Date,
): Promise<void> {
  await consumeUserTokensSql(table, userId, at).execute(db);
}

/** Issuing and redeeming one kind of a user's single-use token. */
export interface UserTokenVerbs {
  /** Issues a token, consuming the user's earlier ones first (only the newest works). */
  issue(userId: string, tokenHash: string, expiresAt: Date): Promise<void>;
  /**
   * Consumes a live token (and, with `siblings`, every other unconsumed token of its user) in one
   * transaction; its user id, or null.
   */
  consume(tokenHash: string): Promise<string | null>;
}

/** The verbs of a user-token table in Postgres: each in one transaction. */
export function postgresUserTokens(
  root: Kysely<AuthTables>,
  now: () => Date,
  table: 'reset_tokens' | 'verification_tokens',
  { siblings }: { readonly siblings: boolean },
): UserTokenVerbs {
  return {
    issue: (userId, tokenHash, expiresAt) =>
      root.transaction().execute(async (trx) => {
        const at = now();
        await consumeUserTokens(trx, table, userId, at);
        await sql`insert into ${sql.table(`${AUTH_SCHEMA}.${table}`)}
            (token_hash, user_id, created_at, expires_at, consumed_at)
          values (${tokenHash}, ${userId}, ${at}, ${expiresAt}, null)`.execute(trx);
      }),
    consume: (tokenHash) =>
      root.transaction().execute(async (trx) => {
        const at = now();
        const row = await consumeOnce(trx, table, { key: tokenHash, at, returning: ['user_id'] });
        if (!row) return null;
        if (siblings) await consumeUserTokens(trx, table, row.user_id, at);
        return row.user_id;
      }),
  };
}

// --- the memory twins -------------------------------------------------------------------------

/** A single-use row of the memory store. */
export interface SingleUseRow {
  expiresAt: Date;
  consumedAt: Date | null;
}

/** The row `key` names if it is live at `at` (unconsumed, unexpired) and meets `also`. */
export function liveRow<R extends SingleUseRow>(
  rows: ReadonlyMap<string, R>,
  key: string,
  at: Date,
  also: (row: R) => boolean = () => true,
): R | undefined {
  const row = rows.get(key);
  return row && !row.consumedAt && row.expiresAt.getTime() > at.getTime() && also(row)
    ? row
    : undefined;
}

/** The memory twin of `consumeOnce`: stamps the live row `key` names, and returns it. */
export function consumeOnceIn<R extends SingleUseRow>(
  rows: ReadonlyMap<string, R>,
  key: string,
  at: Date,
  also?: (row: R) => boolean,
): R | undefined {
  const row = liveRow(rows, key, at, also);
  if (row) row.consumedAt = at;
  return row;
}

/** The memory twin of `consumeUserTokens`. */
export function consumeUserRowsIn(
  rows: ReadonlyMap<string, { readonly userId: string | null; consumedAt: Date | null }>,
  userId: string,
  at: Date,
): void {
  for (const row of rows.values())
    if (row.userId === userId && !row.consumedAt) row.consumedAt = at;
}

/** A user-token row of the memory store. */
export interface UserTokenRow {
  userId: string;
  expiresAt: Date;
  consumedAt: Date | null;
}

/** The memory twin of `postgresUserTokens`, over one table; `requireUser` throws for no such user. */
export function memoryUserTokens(
  rows: Map<string, UserTokenRow>,
  now: () => Date,
  requireUser: (userId: string) => void,
  { siblings }: { readonly siblings: boolean },
): UserTokenVerbs {
  return {
    async issue(userId, tokenHash, expiresAt) {
      requireUser(userId);
      consumeUserRowsIn(rows, userId, now());
      rows.set(tokenHash, { userId, expiresAt, consumedAt: null });
    },
    async consume(tokenHash) {
      const at = now();
      const row = consumeOnceIn(rows, tokenHash, at);
      if (!row) return null;
      if (siblings) consumeUserRowsIn(rows, row.userId, at);
      return row.userId;
    },
  };
}
