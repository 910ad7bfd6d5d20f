/** Email-verification storage: verification tokens, and the proof of an address by a sign-in. */
import { authError } from '../errors';
import type { MemoryState } from '../store/memory-state';
import {
  consumeUserRowsIn,
  consumeUserTokens,
  memoryUserTokens,
  postgresUserTokens,
} from '../store/single-use';
import { type PgRunner, revokeUserSessionsIn, toUser, UUID_RE } from '../store/sql';
import type { OAuthIdentity, UserRecord } from '../store/types';

/** The outcome of `proveEmail`: the user as it is after, and whether this call verified the address. */
export interface EmailProof {
  readonly user: UserRecord;
  readonly proved: boolean;
}

export interface VerificationStore {
  /** Issues a verification token, consuming the user's earlier ones (they stop working). */
  issueVerificationToken(userId: string, tokenHash: string, expiresAt: Date): Promise<void>;
  /** Consumes an unconsumed, unexpired verification token (single use); its user id, or null. */
  consumeVerificationToken(tokenHash: string): Promise<string | null>;
  /**
   * The address of the user was proven by a sign-in (a magic link or code sent to it, or a
   * provider vouching for it; see "Proving an address" in docs/http.md), atomically:
   * - with `link`, the provider account is linked to the user first (a no-op when that exact link
   *   exists; one linked to another user throws `USER_ALREADY_EXISTS` and changes nothing);
   * - when the address was not verified yet, it becomes verified, and everything whoever held the
   *   account before the proof could sign in with, or still holds, is dropped: the password, the
   *   passkeys, the provider accounts linked before (all but `link`), every session (their refresh
   *   tokens with them), and what is in flight: reset and verification tokens, open MFA challenges,
   *   OAuth codes not yet exchanged. Second factors (TOTP, recovery codes) stay: the address is one
   *   factor, and must not get past the other;
   * - when it was verified already, nothing else changes (`proved` false).
   * A session the user's rotation inserts concurrently is revoked too (rotations and the proof
   * serialise on the user's row). Null when there is no such user.
   */
  proveEmail(userId: string, link?: OAuthIdentity): Promise<EmailProof | null>;
}

export function postgresVerificationStore(r: PgRunner): VerificationStore {
  const { root, k, now } = r;
  const tokens = postgresUserTokens(root, now, 'verification_tokens', { siblings: false });
  return {
    issueVerificationToken: tokens.issue,
    consumeVerificationToken: tokens.consume,
    async proveEmail(userId, link) {
      if (!UUID_RE.test(userId)) return null;
      return root.transaction().execute(async (trx) => {
        const at = now();
        // FOR UPDATE, not a weaker lock: it conflicts with the key-share lock a session insert
        // takes on its user, so no session of this user can be created while the proof runs, and
        // one being created (a rotation, a sign-in) finishes first and is revoked below.
        const user = await k(trx)
          .selectFrom('users')
          .selectAll()
          .where('id', '=', userId)
          .forUpdate()
          .executeTakeFirst();
        if (!user) return null;
        if (link) {
          const inserted = await k(trx)
            .insertInto('oauth_identities')
            .values({
              provider: link.provider,
              subject: link.subject,
              user_id: userId,
              email: link.email?.toLowerCase() ?? null,
              created_at: at,
            })
            .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
            .returning('user_id')
            .executeTakeFirst();
          if (!inserted) {
            const owner = await k(trx)
              .selectFrom('oauth_identities')
              .select('user_id')
              .where('provider', '=', link.provider)
              .where('subject', '=', link.subject)
              .executeTakeFirst();
            if (owner && owner.user_id !== userId)
              throw authError(
                'USER_ALREADY_EXISTS',
                'this provider account is linked to another user',
              );
          }
        }
        if (user.email_verified) return { user: toUser(user), proved: false };
        const updated = await k(trx)
          .updateTable('users')
          .set({ email_verified: true, password_hash: null, updated_at: at })
          .where('id', '=', userId)
          .returningAll()
          .executeTakeFirstOrThrow();
        await revokeUserSessionsIn(trx, userId, at);
        await consumeUserTokens(trx, 'reset_tokens', userId, at);
        await consumeUserTokens(trx, 'verification_tokens', userId, at);
        await consumeUserTokens(trx, 'mfa_challenges', userId, at);
        await consumeUserTokens(trx, 'oauth_codes', userId, at);
        await k(trx).deleteFrom('webauthn_credentials').where('user_id', '=', userId).execute();
        await k(trx)
          .deleteFrom('oauth_identities')
          .where('user_id', '=', userId)
          .$if(link !== undefined, (q) =>
            q.where((eb) =>
              eb.or([
                eb('provider', '<>', link?.provider ?? ''),
                eb('subject', '<>', link?.subject ?? ''),
              ]),
            ),
          )
          .execute();
        return { user: toUser(updated), proved: true };
      });
    },
  };
}

export function memoryVerificationStore(m: MemoryState): VerificationStore {
  const tokens = memoryUserTokens(m.verificationTokens, m.now, m.requireUser, { siblings: false });
  return {
    issueVerificationToken: tokens.issue,
    consumeVerificationToken: tokens.consume,
    async proveEmail(userId, link) {
      const user = m.users.get(userId);
      if (!user) return null;
      const at = m.now();
      if (link) {
        const key = m.identityKey(link.provider, link.subject);
        const existing = m.oauthIdentities.get(key);
        if (existing && existing.userId !== userId)
          throw authError('USER_ALREADY_EXISTS', 'this provider account is linked to another user');
        if (!existing)
          m.oauthIdentities.set(key, {
            provider: link.provider,
            subject: link.subject,
            email: link.email?.toLowerCase() ?? null,
            userId,
            createdAt: at,
          });
      }
      if (user.emailVerified) return { user: m.copyUser(user), proved: false };
      m.update(userId, { emailVerified: true, passwordHash: null });
      m.revokeAll(userId);
      consumeUserRowsIn(m.resetTokens, userId, at);
      consumeUserRowsIn(m.verificationTokens, userId, at);
      consumeUserRowsIn(m.mfaChallenges, userId, at);
      consumeUserRowsIn(m.oauthCodes, userId, at);
      for (const [id, c] of m.webauthnCredentials)
        if (c.userId === userId) m.webauthnCredentials.delete(id);
      const kept = link ? m.identityKey(link.provider, link.subject) : undefined;
      for (const [key, i] of m.oauthIdentities)
        if (i.userId === userId && key !== kept) m.oauthIdentities.delete(key);
      return { user: m.copyUser(m.users.get(userId) as UserRecord), proved: true };
    },
  };
}
