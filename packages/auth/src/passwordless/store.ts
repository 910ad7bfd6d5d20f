/** Passwordless storage: magic links (a user's, or an email's signup) and magic codes. */
import { sql } from 'kysely';
import type { MemoryState } from '../store/memory-state';
import { AUTH_SCHEMA } from '../store/migrations';
import {
  consumeOnceIn,
  consumeOnceSql,
  consumeUserTokensSql,
  liveRow,
  memoryUserTokens,
} from '../store/single-use';
import { type PgRunner, UUID_RE } from '../store/sql';

/** What a redeemed magic link named: a user's sign-in, or the signup of an email with no account. */
export type MagicLinkRedemption =
  | { readonly kind: 'user'; readonly userId: string }
  | { readonly kind: 'signup'; readonly email: string };

/** A magic code check: `ok` (now consumed), `wrong` (one try counted), `none` (no live code). */
export type MagicCodeOutcome = 'ok' | 'wrong' | 'none';

export interface PasswordlessStore {
  /** Issues a magic-link token (SHA-256 hex) for a user, consuming the user's earlier live ones. */
  issueMagicLinkToken(userId: string, tokenHash: string, expiresAt: Date): Promise<void>;
  /**
   * Issues a magic-link signup token for an email that has no account (kept apart from users'
   * tokens), consuming the earlier live ones of that email. `email` arrives canonical.
   */
  issueMagicLinkSignupToken(email: string, tokenHash: string, expiresAt: Date): Promise<void>;
  /**
   * Consumes an unconsumed, unexpired magic-link token of either kind with one conditional UPDATE
   * (single use: of concurrent callers exactly one gets it); what it named, or null.
   */
  redeemMagicLink(tokenHash: string): Promise<MagicLinkRedemption | null>;
  /** Stores the user's magic code (a keyed digest), replacing any earlier one (which dies). */
  issueMagicCode(userId: string, codeHash: string, expiresAt: Date): Promise<void>;
  /**
   * Checks `codeHash` against the user's live code (unconsumed, unexpired, fewer than
   * `maxAttempts` wrong tries) in one conditional UPDATE: a match consumes it (`ok`), a mismatch
   * counts one try (`wrong`); no live code is `none`. Concurrent callers never count past the limit
   * nor consume a code twice.
   */
  verifyMagicCode(userId: string, codeHash: string, maxAttempts: number): Promise<MagicCodeOutcome>;
}

// The magic-link verbs are one statement each (data-modifying CTEs): one round trip, atomic.
export function postgresPasswordlessStore(r: PgRunner): PasswordlessStore {
  const { root, k, now } = r;
  return {
    async issueMagicLinkToken(userId, tokenHash, expiresAt) {
      const at = now();
      await sql`with superseded as (${consumeUserTokensSql('magic_link_tokens', userId, at)})
        insert into ${sql.table(`${AUTH_SCHEMA}.magic_link_tokens`)}
          (token_hash, user_id, created_at, expires_at, consumed_at)
        values (${tokenHash}, ${userId}, ${at}, ${expiresAt}, null)`.execute(root);
    },
    async issueMagicLinkSignupToken(email, tokenHash, expiresAt) {
      const at = now();
      const e = email.toLowerCase();
      const table = sql.table(`${AUTH_SCHEMA}.magic_link_signup_tokens`);
      // Rows of an email with no account have no user to cascade from: its dead ones go here.
      await sql`with dead as (
          delete from ${table}
          where email = ${e} and (consumed_at is not null or expires_at <= ${at})),
        superseded as (
          update ${table} set consumed_at = ${at}
          where email = ${e} and consumed_at is null and expires_at > ${at})
        insert into ${table} (token_hash, email, created_at, expires_at, consumed_at)
        values (${tokenHash}, ${e}, ${at}, ${expiresAt}, null)`.execute(root);
    },
    async redeemMagicLink(tokenHash) {
      const at = now();
      const mine = consumeOnceSql('magic_link_tokens', {
        key: tokenHash,
        at,
        returning: ['user_id'],
      });
      const signup = consumeOnceSql('magic_link_signup_tokens', {
        key: tokenHash,
        at,
        and: sql`not exists (select 1 from mine)`,
        returning: ['email'],
      });
      const { rows } = await sql<{ user_id: string | null; email: string | null }>`
        with mine as (${mine}), signup as (${signup})
        select (select user_id from mine) as user_id, (select email from signup) as email`.execute(
        root,
      );
      const row = rows[0];
      if (row?.user_id) return { kind: 'user', userId: row.user_id };
      return row?.email ? { kind: 'signup', email: row.email } : null;
    },
    async issueMagicCode(userId, codeHash, expiresAt) {
      const at = now();
      await k()
        .insertInto('magic_codes')
        .values({
          user_id: userId,
          code_hash: codeHash,
          attempts: 0,
          created_at: at,
          expires_at: expiresAt,
          consumed_at: null,
        })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            code_hash: codeHash,
            attempts: 0,
            created_at: at,
            expires_at: expiresAt,
            consumed_at: null,
          }),
        )
        .execute();
    },
    async verifyMagicCode(userId, codeHash, maxAttempts) {
      if (!UUID_RE.test(userId)) return 'none';
      const at = now();
      // One statement: the row lock orders concurrent checks, and each re-reads the row it waited
      // for (attempts, consumed_at) before deciding, so no try is lost and no code is used twice.
      const { rows } = await sql<{ matched: boolean }>`
        update ${sql.table(`${AUTH_SCHEMA}.magic_codes`)} set
          attempts = case when code_hash = ${codeHash} then attempts else attempts + 1 end,
          consumed_at = case when code_hash = ${codeHash} then ${at}::timestamptz else null end
        where user_id = ${userId} and consumed_at is null and expires_at > ${at}
          and attempts < ${maxAttempts}
        returning code_hash = ${codeHash} as matched`.execute(root);
      const row = rows[0];
      return row ? (row.matched ? 'ok' : 'wrong') : 'none';
    },
  };
}

export function memoryPasswordlessStore(m: MemoryState): PasswordlessStore {
  const { now } = m;
  const links = memoryUserTokens(m.magicLinkTokens, now, m.requireUser, { siblings: false });
  return {
    issueMagicLinkToken: links.issue,
    async issueMagicLinkSignupToken(email, tokenHash, expiresAt) {
      const e = email.toLowerCase();
      const at = now();
      for (const [hash, row] of m.magicSignupTokens) {
        if (row.email !== e) continue;
        if (row.consumedAt || row.expiresAt.getTime() <= at.getTime())
          m.magicSignupTokens.delete(hash);
        else row.consumedAt = at;
      }
      m.magicSignupTokens.set(tokenHash, { email: e, expiresAt, consumedAt: null });
    },
    async redeemMagicLink(tokenHash): Promise<MagicLinkRedemption | null> {
      const at = now();
      const mine = consumeOnceIn(m.magicLinkTokens, tokenHash, at);
      if (mine) return { kind: 'user', userId: mine.userId };
      const signup = consumeOnceIn(m.magicSignupTokens, tokenHash, at);
      return signup ? { kind: 'signup', email: signup.email } : null;
    },
    async issueMagicCode(userId, codeHash, expiresAt) {
      m.requireUser(userId);
      m.magicCodes.set(userId, { codeHash, attempts: 0, expiresAt, consumedAt: null });
    },
    async verifyMagicCode(userId, codeHash, maxAttempts): Promise<MagicCodeOutcome> {
      const at = now();
      const row = liveRow(m.magicCodes, userId, at, (c) => c.attempts < maxAttempts);
      if (!row) return 'none';
      if (row.codeHash === codeHash) {
        row.consumedAt = at;
        return 'ok';
      }
      row.attempts++;
      return 'wrong';
    },
  };
}
