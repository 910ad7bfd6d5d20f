/** WebAuthn storage: ceremony challenges (single use) and registered passkeys. */
import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { MemoryState } from '../store/memory-state';
import { consumeOnce, consumeOnceIn } from '../store/single-use';
import { type AuthTables, compare, type PgRunner, UUID_RE } from '../store/sql';

/** The WebAuthn ceremony a challenge was issued for. */
export type WebAuthnCeremony = 'register' | 'login';

export interface NewWebAuthnChallenge {
  readonly ceremony: WebAuthnCeremony;
  /** The user it is bound to: always for `register`; for `login` only when an email named one. */
  readonly userId: string | null;
  /** SHA-256 hex of the challenge bytes. */
  readonly challengeHash: string;
  readonly expiresAt: Date;
  /**
   * A `register` ceremony begun with the user's second factor proven (an `aal2` session or a
   * code): its finish needs no second proof. @default false
   */
  readonly secondFactor?: boolean;
}

export interface WebAuthnChallengeRecord {
  readonly id: string;
  readonly ceremony: WebAuthnCeremony;
  readonly userId: string | null;
  readonly challengeHash: string;
  readonly expiresAt: Date;
  readonly secondFactor: boolean;
}

export interface NewWebAuthnCredential {
  /** base64url of the credential id bytes. */
  readonly credentialId: string;
  readonly userId: string;
  /** The public key, SubjectPublicKeyInfo DER. */
  readonly publicKey: Uint8Array;
  readonly signCount: number;
  readonly name: string;
  /** The authenticator's AAGUID, 32 hex digits. */
  readonly aaguid: string;
  readonly backupEligible: boolean;
}

export interface WebAuthnCredentialRecord extends NewWebAuthnCredential {
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

export interface WebAuthnStore {
  /** Stores a challenge and returns its id (a UUID); also deletes challenges long expired. */
  createWebAuthnChallenge(challenge: NewWebAuthnChallenge): Promise<string>;
  /**
   * Consumes the unconsumed, unexpired challenge `id` of `ceremony` (one conditional UPDATE:
   * single use even across processes) and returns it; null when there is none.
   */
  consumeWebAuthnChallenge(
    id: string,
    ceremony: WebAuthnCeremony,
  ): Promise<WebAuthnChallengeRecord | null>;
  /** Stores a credential; null when the credential id is already registered (to anyone). */
  createWebAuthnCredential(
    credential: NewWebAuthnCredential,
  ): Promise<WebAuthnCredentialRecord | null>;
  findWebAuthnCredential(credentialId: string): Promise<WebAuthnCredentialRecord | null>;
  /** The user's credentials, oldest first. */
  listWebAuthnCredentials(userId: string): Promise<WebAuthnCredentialRecord[]>;
  /**
   * Records a use: stores `signCount` and stamps `lastUsedAt`, only while the stored counter is
   * below `signCount`, or both are 0 (an authenticator without a counter). One conditional UPDATE;
   * false (and nothing changed) otherwise: the counter did not move forward.
   */
  useWebAuthnCredential(credentialId: string, signCount: number): Promise<boolean>;
  /** Deletes the user's credential; false when the user holds no such credential. */
  deleteWebAuthnCredential(userId: string, credentialId: string): Promise<boolean>;
}

/** Challenges this long past their expiry are deleted as new ones come. */
const CHALLENGE_KEEP_MS = 3600_000;

export function postgresWebAuthnStore(r: PgRunner): WebAuthnStore {
  const { root, k, now } = r;
  return {
    async createWebAuthnChallenge(c) {
      const at = now();
      const id = randomUUID();
      // Expired challenges go as new ones come: the table holds about five minutes of ceremonies.
      await k()
        .deleteFrom('webauthn_challenges')
        .where('expires_at', '<', new Date(at.getTime() - CHALLENGE_KEEP_MS))
        .execute();
      await k()
        .insertInto('webauthn_challenges')
        .values({
          id,
          ceremony: c.ceremony,
          user_id: c.userId,
          challenge_hash: c.challengeHash,
          created_at: at,
          expires_at: c.expiresAt,
          consumed_at: null,
          second_factor: c.secondFactor ?? false,
        })
        .execute();
      return id;
    },
    async consumeWebAuthnChallenge(id, ceremony) {
      if (!UUID_RE.test(id)) return null;
      const row = await consumeOnce(root, 'webauthn_challenges', {
        key: id,
        at: now(),
        where: { ceremony },
        returning: ['id', 'ceremony', 'user_id', 'challenge_hash', 'expires_at', 'second_factor'],
      });
      return row
        ? {
            id: row.id,
            ceremony: row.ceremony,
            userId: row.user_id,
            challengeHash: row.challenge_hash,
            expiresAt: new Date(row.expires_at),
            secondFactor: row.second_factor,
          }
        : null;
    },
    async createWebAuthnCredential(c) {
      const row = await k()
        .insertInto('webauthn_credentials')
        .values({
          credential_id: c.credentialId,
          user_id: c.userId,
          public_key: Buffer.from(c.publicKey),
          sign_count: c.signCount,
          name: c.name,
          aaguid: c.aaguid,
          backup_eligible: c.backupEligible,
          created_at: now(),
          last_used_at: null,
        })
        .onConflict((oc) => oc.column('credential_id').doNothing())
        .returningAll()
        .executeTakeFirst();
      return row ? toCredential(row) : null;
    },
    async findWebAuthnCredential(credentialId) {
      const row = await k()
        .selectFrom('webauthn_credentials')
        .selectAll()
        .where('credential_id', '=', credentialId)
        .executeTakeFirst();
      return row ? toCredential(row) : null;
    },
    async listWebAuthnCredentials(userId) {
      if (!UUID_RE.test(userId)) return [];
      const rows = await k()
        .selectFrom('webauthn_credentials')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('credential_id')
        .execute();
      return rows.map(toCredential);
    },
    async useWebAuthnCredential(credentialId, signCount) {
      const res = await k()
        .updateTable('webauthn_credentials')
        .set({ sign_count: signCount, last_used_at: now() })
        .where('credential_id', '=', credentialId)
        .where((eb) =>
          eb.or([
            eb('sign_count', '<', signCount),
            eb.and([eb('sign_count', '=', 0), eb(eb.val(signCount), '=', 0)]),
          ]),
        )
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },
    async deleteWebAuthnCredential(userId, credentialId) {
      if (!UUID_RE.test(userId)) return false;
      const res = await k()
        .deleteFrom('webauthn_credentials')
        .where('user_id', '=', userId)
        .where('credential_id', '=', credentialId)
        .executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },
  };
}

function toCredential(r: Selectable<AuthTables['webauthn_credentials']>): WebAuthnCredentialRecord {
  return {
    credentialId: r.credential_id,
    userId: r.user_id,
    publicKey: new Uint8Array(r.public_key),
    signCount: Number(r.sign_count),
    name: r.name,
    aaguid: r.aaguid,
    backupEligible: r.backup_eligible,
    createdAt: new Date(r.created_at),
    lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null,
  };
}

export function memoryWebAuthnStore(m: MemoryState): WebAuthnStore {
  const { webauthnChallenges: challenges, webauthnCredentials: credentials, users } = m;
  const copy = m.copyCredential;
  return {
    async createWebAuthnChallenge(c) {
      const t = m.now().getTime();
      for (const [id, row] of challenges)
        if (row.expiresAt.getTime() < t - CHALLENGE_KEEP_MS) challenges.delete(id);
      if (c.userId !== null) m.requireUser(c.userId);
      const id = m.uuid();
      challenges.set(id, {
        id,
        ceremony: c.ceremony,
        userId: c.userId,
        challengeHash: c.challengeHash,
        expiresAt: c.expiresAt,
        secondFactor: c.secondFactor ?? false,
        consumedAt: null,
      });
      return id;
    },
    async consumeWebAuthnChallenge(id, ceremony) {
      const row = consumeOnceIn(
        challenges,
        id,
        m.now(),
        (c) => c.ceremony === ceremony && (c.userId === null || users.has(c.userId)),
      );
      if (!row) return null;
      const { consumedAt: _c, ...record } = row;
      return record;
    },
    async createWebAuthnCredential(c) {
      if (credentials.has(c.credentialId)) return null;
      m.requireUser(c.userId);
      const record: WebAuthnCredentialRecord = {
        ...c,
        publicKey: new Uint8Array(c.publicKey),
        createdAt: m.now(),
        lastUsedAt: null,
      };
      credentials.set(c.credentialId, record);
      return copy(record);
    },
    async findWebAuthnCredential(credentialId) {
      const c = credentials.get(credentialId);
      return c && users.has(c.userId) ? copy(c) : null;
    },
    async listWebAuthnCredentials(userId) {
      return [...credentials.values()]
        .filter((c) => c.userId === userId)
        .sort(
          (a, b) =>
            a.createdAt.getTime() - b.createdAt.getTime() ||
            compare(a.credentialId, b.credentialId),
        )
        .map(copy);
    },
    async useWebAuthnCredential(credentialId, signCount) {
      const c = credentials.get(credentialId);
      if (!c || !users.has(c.userId)) return false;
      if (!(c.signCount < signCount || (c.signCount === 0 && signCount === 0))) return false;
      credentials.set(credentialId, { ...c, signCount, lastUsedAt: m.now() });
      return true;
    },
    async deleteWebAuthnCredential(userId, credentialId) {
      const c = credentials.get(credentialId);
      if (!c || c.userId !== userId) return false;
      credentials.delete(credentialId);
      return true;
    },
  };
}
