/** OAuth / OIDC storage: authorization requests in flight, linked identities, one-time codes. */
import { sql } from 'kysely';
import { authError } from '../errors';
import type { MemoryState } from '../store/memory-state';
import { consumeOnce, consumeOnceIn } from '../store/single-use';
import {
  compare,
  isPgError,
  newUserRow,
  type PgRunner,
  pgErrorText,
  toUser,
  UUID_RE,
} from '../store/sql';
import type { NewUser, UserRecord } from '../store/types';

/** One authorization request in flight (`/auth/oauth/:provider/authorize` → its callback). */
export interface NewOAuthState {
  /** SHA-256 hex of the `state` parameter. */
  readonly stateHash: string;
  readonly provider: string;
  /** The app address to return to (already checked against the allow-list). */
  readonly redirectUri: string;
  /** svc's own callback URL sent to the provider (the token request repeats it). */
  readonly callbackUrl: string;
  /** SHA-256 hex of the OIDC nonce; null for plain OAuth 2.0 providers. */
  readonly nonceHash: string | null;
  /** The PKCE verifier, encrypted under a key derived from the raw state. */
  readonly verifierSealed: string;
  /** The app's own S256 challenge (PKCE between the app and svc), or null. */
  readonly codeChallenge: string | null;
  readonly expiresAt: Date;
}
export type OAuthStateRecord = Omit<NewOAuthState, 'stateHash' | 'expiresAt'>;

/** A provider account linked to a user. */
export interface OAuthIdentity {
  readonly provider: string;
  readonly subject: string;
  /** The address the provider gave at link time (lower-cased), or null. */
  readonly email: string | null;
}
export interface OAuthIdentityRecord extends OAuthIdentity {
  readonly userId: string;
  readonly createdAt: Date;
}

/** The one-time code the callback hands the app, exchanged at `/auth/oauth/token`. */
export interface NewOAuthCode {
  /** SHA-256 hex of the code. */
  readonly codeHash: string;
  readonly userId: string;
  readonly provider: string;
  readonly codeChallenge: string | null;
  readonly expiresAt: Date;
}
export interface OAuthCodeRecord {
  readonly userId: string;
  readonly provider: string;
  readonly codeChallenge: string | null;
}

export interface OAuthStore {
  createOAuthState(state: NewOAuthState): Promise<void>;
  /**
   * Consumes the unconsumed, unexpired state of `provider` with this hash (one conditional UPDATE:
   * of concurrent callers one gets the record, the others null).
   */
  consumeOAuthState(stateHash: string, provider: string): Promise<OAuthStateRecord | null>;
  /** The user a provider account is linked to, or null. */
  findUserByIdentity(provider: string, subject: string): Promise<UserRecord | null>;
  /**
   * Creates the user and links the identity, atomically. An email or an identity already taken
   * throws `USER_ALREADY_EXISTS` and writes nothing.
   */
  createUserWithIdentity(user: NewUser, identity: OAuthIdentity): Promise<UserRecord>;
  /** The identities of a user, oldest first. */
  listIdentities(userId: string): Promise<OAuthIdentityRecord[]>;
  issueOAuthCode(code: NewOAuthCode): Promise<void>;
  /** Consumes an unconsumed, unexpired code (single use, one conditional UPDATE), or null. */
  consumeOAuthCode(codeHash: string): Promise<OAuthCodeRecord | null>;
}

export function postgresOAuthStore(r: PgRunner): OAuthStore {
  const { root, k, now } = r;
  return {
    async createOAuthState(st) {
      const at = now();
      // Expired requests go as new ones come (indexed on expires_at): the table stays small.
      await k().deleteFrom('oauth_states').where('expires_at', '<=', at).execute();
      await k()
        .insertInto('oauth_states')
        .values({
          state_hash: st.stateHash,
          provider: st.provider,
          redirect_uri: st.redirectUri,
          callback_url: st.callbackUrl,
          nonce_hash: st.nonceHash,
          verifier_sealed: st.verifierSealed,
          code_challenge: st.codeChallenge,
          created_at: at,
          expires_at: st.expiresAt,
          consumed_at: null,
        })
        .execute();
    },
    async consumeOAuthState(stateHash, provider) {
      const row = await consumeOnce(root, 'oauth_states', {
        key: stateHash,
        at: now(),
        where: { provider },
        returning: [
          'provider',
          'redirect_uri',
          'callback_url',
          'nonce_hash',
          'verifier_sealed',
          'code_challenge',
        ],
      });
      return row
        ? {
            provider: row.provider,
            redirectUri: row.redirect_uri,
            callbackUrl: row.callback_url,
            nonceHash: row.nonce_hash,
            verifierSealed: row.verifier_sealed,
            codeChallenge: row.code_challenge,
          }
        : null;
    },
    async findUserByIdentity(provider, subject) {
      const row = await k()
        .selectFrom('oauth_identities as i')
        .innerJoin('users as u', 'u.id', 'i.user_id')
        .selectAll('u')
        .where('i.provider', '=', provider)
        .where('i.subject', '=', subject)
        .executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async createUserWithIdentity(input, identity) {
      const at = now();
      try {
        return await root.transaction().execute(async (trx) => {
          const row = await k(trx)
            .insertInto('users')
            .values(newUserRow(input, at, false))
            .returningAll()
            .executeTakeFirstOrThrow();
          await k(trx)
            .insertInto('oauth_identities')
            .values({
              provider: identity.provider,
              subject: identity.subject,
              user_id: row.id,
              email: identity.email?.toLowerCase() ?? null,
              created_at: at,
            })
            .execute();
          return toUser(row);
        });
      } catch (err) {
        if (isPgError(err, '23505')) {
          const which = /oauth_identities/.test(pgErrorText(err))
            ? 'this provider account'
            : /username/.test(pgErrorText(err))
              ? 'this username'
              : 'this email';
          throw authError('USER_ALREADY_EXISTS', `a user with ${which} already exists`, {
            cause: err,
          });
        }
        throw err;
      }
    },
    async listIdentities(userId) {
      if (!UUID_RE.test(userId)) return [];
      const rows = await k()
        .selectFrom('oauth_identities')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy(sql`provider collate "C"`)
        .orderBy(sql`subject collate "C"`)
        .execute();
      return rows.map((row) => ({
        provider: row.provider,
        subject: row.subject,
        email: row.email,
        userId: row.user_id,
        createdAt: new Date(row.created_at),
      }));
    },
    async issueOAuthCode(code) {
      await k().deleteFrom('oauth_codes').where('expires_at', '<=', now()).execute();
      await k()
        .insertInto('oauth_codes')
        .values({
          code_hash: code.codeHash,
          user_id: code.userId,
          provider: code.provider,
          code_challenge: code.codeChallenge,
          created_at: now(),
          expires_at: code.expiresAt,
          consumed_at: null,
        })
        .execute();
    },
    async consumeOAuthCode(codeHash) {
      const row = await consumeOnce(root, 'oauth_codes', {
        key: codeHash,
        at: now(),
        returning: ['user_id', 'provider', 'code_challenge'],
      });
      return row
        ? { userId: row.user_id, provider: row.provider, codeChallenge: row.code_challenge }
        : null;
    },
  };
}

export function memoryOAuthStore(m: MemoryState): OAuthStore {
  const { oauthStates: states, oauthIdentities: identities, oauthCodes: codes, now } = m;
  return {
    async createOAuthState(st) {
      const at = now().getTime();
      for (const [h, row] of states) if (row.expiresAt.getTime() <= at) states.delete(h);
      if (states.has(st.stateHash)) throw new Error('oauth state already in use');
      states.set(st.stateHash, { ...st, consumedAt: null });
    },
    async consumeOAuthState(stateHash, provider) {
      const row = consumeOnceIn(states, stateHash, now(), (s) => s.provider === provider);
      if (!row) return null;
      const { stateHash: _h, expiresAt: _e, consumedAt: _c, ...record } = row;
      return { ...record };
    },
    async findUserByIdentity(provider, subject) {
      const identity = identities.get(m.identityKey(provider, subject));
      const u = identity ? m.users.get(identity.userId) : undefined;
      return u ? m.copyUser(u) : null;
    },
    async createUserWithIdentity(input, identity) {
      const key = m.identityKey(identity.provider, identity.subject);
      if (identities.has(key))
        throw authError('USER_ALREADY_EXISTS', 'a user with this provider account already exists');
      if (m.byEmail(input.email))
        throw authError('USER_ALREADY_EXISTS', 'a user with this email already exists');
      if (input.username != null && m.byUsername(input.username))
        throw authError('USER_ALREADY_EXISTS', 'a user with this username already exists');
      const user = m.insertUser(input, false);
      identities.set(key, {
        provider: identity.provider,
        subject: identity.subject,
        email: identity.email?.toLowerCase() ?? null,
        userId: user.id,
        createdAt: user.createdAt,
      });
      return m.copyUser(user);
    },
    async listIdentities(userId) {
      return [...identities.values()]
        .filter((i) => i.userId === userId)
        .sort(
          (a, b) =>
            a.createdAt.getTime() - b.createdAt.getTime() ||
            compare(a.provider, b.provider) ||
            compare(a.subject, b.subject),
        )
        .map((i) => ({ ...i }));
    },
    async issueOAuthCode(code) {
      const at = now().getTime();
      for (const [h, row] of codes) if (row.expiresAt.getTime() <= at) codes.delete(h);
      if (codes.has(code.codeHash)) throw new Error('oauth code already in use');
      m.requireUser(code.userId);
      codes.set(code.codeHash, {
        userId: code.userId,
        provider: code.provider,
        codeChallenge: code.codeChallenge,
        expiresAt: code.expiresAt,
        consumedAt: null,
      });
    },
    async consumeOAuthCode(codeHash) {
      const row = consumeOnceIn(codes, codeHash, now());
      return row
        ? { userId: row.userId, provider: row.provider, codeChallenge: row.codeChallenge }
        : null;
    },
  };
}
