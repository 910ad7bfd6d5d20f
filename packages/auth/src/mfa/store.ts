/** MFA storage: TOTP enrolments, recovery codes, and the challenges of a sign-in owing a factor. */
import type { Kysely } from 'kysely';
import type { MemoryState } from '../store/memory-state';
import { AUTH_SCHEMA } from '../store/migrations';
import { consumeOnce, liveRow } from '../store/single-use';
import { type AuthTables, type PgRunner, UUID_RE } from '../store/sql';

/** A user's TOTP enrolment. */
export interface TotpFactorRecord {
  readonly userId: string;
  /** The secret as `mfa/secret-box` sealed it. */
  readonly secretCiphertext: string;
  /** Null while pending. */
  readonly confirmedAt: Date | null;
  /** The last accepted RFC 6238 time step, or null. */
  readonly lastUsedStep: number | null;
}

/** What `completeSignIn` needs to decide on an MFA challenge. */
export interface MfaState {
  readonly totpConfirmed: boolean;
  readonly unusedRecoveryCodes: number;
}

/** How an MFA challenge is answered. */
export type MfaProof =
  | { readonly kind: 'totp'; readonly step: number }
  | { readonly kind: 'recovery-code'; readonly codeHash: string };

export interface MfaStore {
  /**
   * Stores a new TOTP secret (already encrypted: opaque to the store) for the user, pending
   * (`confirmedAt` null, no step used), replacing any earlier enrolment, confirmed or not.
   */
  putTotpSecret(userId: string, secretCiphertext: string): Promise<void>;
  totpFactor(userId: string): Promise<TotpFactorRecord | null>;
  /**
   * Confirms the pending enrolment holding exactly `secretCiphertext` (a later enroll replaced it:
   * false) and records `step` as used, in one conditional UPDATE.
   */
  confirmTotp(userId: string, secretCiphertext: string, step: number): Promise<boolean>;
  /**
   * Records `step` as the user's last accepted TOTP step if the factor is confirmed and `step` is
   * above the last one (one conditional UPDATE: of concurrent callers with one code, one wins).
   */
  useTotpStep(userId: string, step: number): Promise<boolean>;
  /** Removes the user's TOTP enrolment; false when there was none. */
  deleteTotp(userId: string): Promise<boolean>;
  /** Replaces every recovery code of the user (used or not) by this batch of hashes, atomically. */
  replaceRecoveryCodes(userId: string, codeHashes: readonly string[]): Promise<void>;
  /** Burns an unused code of the user (conditional UPDATE); false when none matched. */
  consumeRecoveryCode(userId: string, codeHash: string): Promise<boolean>;
  /** Whether the user owes a second factor, and how many recovery codes are left: one query. */
  mfaState(userId: string): Promise<MfaState>;
  /** Opens a challenge (and deletes the user's expired or consumed ones). */
  createMfaChallenge(tokenHash: string, userId: string, expiresAt: Date): Promise<void>;
  /**
   * Counts one try against a live challenge (unconsumed, unexpired, fewer than `maxAttempts`
   * tries so far) in one conditional UPDATE; the user id, or null when the challenge is dead.
   */
  attemptMfaChallenge(tokenHash: string, maxAttempts: number): Promise<string | null>;
  /**
   * Consumes the challenge and spends the proof (the TOTP step, or the recovery code) in one
   * transaction: both or neither. `challenge-dead`: consumed (by a concurrent caller), expired or
   * unknown; `proof-refused`: the step was not above the last one or the code was used.
   */
  completeMfaChallenge(
    tokenHash: string,
    proof: MfaProof,
  ): Promise<'completed' | 'challenge-dead' | 'proof-refused'>;
}

/** Thrown inside `completeMfaChallenge`'s transaction to roll it back. */
const PROOF_REFUSED = Symbol('proof refused');

/** Whether a user owes a second factor and how many recovery codes remain, in one round trip. */
const MFA_STATE_SQL = `select
    exists (select 1 from ${AUTH_SCHEMA}.totp_factors where user_id = $1 and confirmed_at is not null) as confirmed,
    (select count(*)::int from ${AUTH_SCHEMA}.recovery_codes where user_id = $1 and used_at is null) as codes`;

/** The step only goes forward: a code whose step is at or below the last accepted one is a replay. */
async function useTotpStepIn(
  db: Kysely<AuthTables>,
  userId: string,
  step: number,
): Promise<boolean> {
  const r = await db
    .withSchema(AUTH_SCHEMA)
    .updateTable('totp_factors')
    .set({ last_used_step: step })
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Burns an unused recovery code: of concurrent callers with one code, one wins. */
async function useRecoveryCodeIn(
  db: Kysely<AuthTables>,
  userId: string,
  codeHash: string,
  at: Date,
): Promise<boolean> {
  const r = await db
    .withSchema(AUTH_SCHEMA)
    .updateTable('recovery_codes')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export function postgresMfaStore(r: PgRunner): MfaStore {
  const { root, k, now, database } = r;
  return {
    async putTotpSecret(userId, secretCiphertext) {
      const at = now();
      await k()
        .insertInto('totp_factors')
        .values({
          user_id: userId,
          secret_ciphertext: secretCiphertext,
          confirmed_at: null,
          last_used_step: null,
          created_at: at,
        })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            secret_ciphertext: secretCiphertext,
            confirmed_at: null,
            last_used_step: null,
            created_at: at,
          }),
        )
        .execute();
    },
    async totpFactor(userId) {
      if (!UUID_RE.test(userId)) return null;
      const row = await k()
        .selectFrom('totp_factors')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row
        ? {
            userId: row.user_id,
            secretCiphertext: row.secret_ciphertext,
            confirmedAt: row.confirmed_at ? new Date(row.confirmed_at) : null,
            lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
          }
        : null;
    },
    async confirmTotp(userId, secretCiphertext, step) {
      if (!UUID_RE.test(userId)) return false;
      const res = await k()
        .updateTable('totp_factors')
        .set({ confirmed_at: now(), last_used_step: step })
        .where('user_id', '=', userId)
        .where('secret_ciphertext', '=', secretCiphertext)
        .where('confirmed_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },
    async useTotpStep(userId, step) {
      return UUID_RE.test(userId) ? useTotpStepIn(root, userId, step) : false;
    },
    async deleteTotp(userId) {
      if (!UUID_RE.test(userId)) return false;
      const res = await k()
        .deleteFrom('totp_factors')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },
    async replaceRecoveryCodes(userId, codeHashes) {
      await root.transaction().execute(async (trx) => {
        const at = now();
        await k(trx).deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        if (codeHashes.length === 0) return;
        await k(trx)
          .insertInto('recovery_codes')
          .values(
            codeHashes.map((code_hash) => ({
              user_id: userId,
              code_hash,
              created_at: at,
              used_at: null,
            })),
          )
          .execute();
      });
    },
    async consumeRecoveryCode(userId, codeHash) {
      return UUID_RE.test(userId) ? useRecoveryCodeIn(root, userId, codeHash, now()) : false;
    },
    async mfaState(userId) {
      if (!UUID_RE.test(userId)) return { totpConfirmed: false, unusedRecoveryCodes: 0 };
      const { rows } = await database.query<{ confirmed: boolean; codes: number }>(MFA_STATE_SQL, [
        userId,
      ]);
      const row = rows[0];
      return {
        totpConfirmed: row?.confirmed === true,
        unusedRecoveryCodes: Number(row?.codes ?? 0),
      };
    },
    async createMfaChallenge(tokenHash, userId, expiresAt) {
      await root.transaction().execute(async (trx) => {
        const at = now();
        await k(trx)
          .deleteFrom('mfa_challenges')
          .where('user_id', '=', userId)
          .where((eb) => eb.or([eb('expires_at', '<=', at), eb('consumed_at', 'is not', null)]))
          .execute();
        await k(trx)
          .insertInto('mfa_challenges')
          .values({
            token_hash: tokenHash,
            user_id: userId,
            created_at: at,
            expires_at: expiresAt,
            consumed_at: null,
            attempts: 0,
          })
          .execute();
      });
    },
    async attemptMfaChallenge(tokenHash, maxAttempts) {
      const row = await k()
        .updateTable('mfa_challenges')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('token_hash', '=', tokenHash)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now())
        .where('attempts', '<', maxAttempts)
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id ?? null;
    },
    async completeMfaChallenge(tokenHash, proof) {
      try {
        return await root.transaction().execute(async (trx) => {
          const at = now();
          const row = await consumeOnce(trx, 'mfa_challenges', {
            key: tokenHash,
            at,
            returning: ['user_id'],
          });
          if (!row) return 'challenge-dead' as const;
          const spent =
            proof.kind === 'totp'
              ? await useTotpStepIn(trx, row.user_id, proof.step)
              : await useRecoveryCodeIn(trx, row.user_id, proof.codeHash, at);
          // Neither happens without the other: the rollback gives the challenge back.
          if (!spent) throw PROOF_REFUSED;
          return 'completed' as const;
        });
      } catch (err) {
        if (err === PROOF_REFUSED) return 'proof-refused';
        throw err;
      }
    },
  };
}

export function memoryMfaStore(m: MemoryState): MfaStore {
  const { totpFactors, recoveryCodes, mfaChallenges, now } = m;
  const useTotpStep = (userId: string, step: number) => {
    const f = totpFactors.get(userId);
    if (!f?.confirmedAt || (f.lastUsedStep !== null && f.lastUsedStep >= step)) return false;
    totpFactors.set(userId, { ...f, lastUsedStep: step });
    return true;
  };
  const useRecoveryCode = (userId: string, codeHash: string) => {
    const codes = recoveryCodes.get(userId);
    if (!codes || codes.get(codeHash) !== null) return false;
    codes.set(codeHash, now());
    return true;
  };
  return {
    async putTotpSecret(userId, secretCiphertext) {
      m.requireUser(userId);
      totpFactors.set(userId, {
        userId,
        secretCiphertext,
        confirmedAt: null,
        lastUsedStep: null,
      });
    },
    async totpFactor(userId) {
      const f = totpFactors.get(userId);
      return f ? { ...f } : null;
    },
    async confirmTotp(userId, secretCiphertext, step) {
      const f = totpFactors.get(userId);
      if (!f || f.secretCiphertext !== secretCiphertext || f.confirmedAt) return false;
      totpFactors.set(userId, { ...f, confirmedAt: now(), lastUsedStep: step });
      return true;
    },
    async useTotpStep(userId, step) {
      return useTotpStep(userId, step);
    },
    async deleteTotp(userId) {
      return totpFactors.delete(userId);
    },
    async replaceRecoveryCodes(userId, codeHashes) {
      m.requireUser(userId);
      recoveryCodes.set(userId, new Map(codeHashes.map((h) => [h, null])));
    },
    async consumeRecoveryCode(userId, codeHash) {
      return useRecoveryCode(userId, codeHash);
    },
    async mfaState(userId) {
      let unused = 0;
      for (const usedAt of recoveryCodes.get(userId)?.values() ?? []) if (!usedAt) unused++;
      return {
        totpConfirmed: Boolean(totpFactors.get(userId)?.confirmedAt),
        unusedRecoveryCodes: unused,
      };
    },
    async createMfaChallenge(tokenHash, userId, expiresAt) {
      m.requireUser(userId);
      const at = now().getTime();
      for (const [hash, c] of mfaChallenges) {
        if (c.userId === userId && (c.consumedAt || c.expiresAt.getTime() <= at))
          mfaChallenges.delete(hash);
      }
      mfaChallenges.set(tokenHash, { userId, expiresAt, consumedAt: null, attempts: 0 });
    },
    async attemptMfaChallenge(tokenHash, maxAttempts) {
      const c = liveRow(mfaChallenges, tokenHash, now(), (row) => row.attempts < maxAttempts);
      if (!c) return null;
      c.attempts++;
      return c.userId;
    },
    async completeMfaChallenge(tokenHash, proof) {
      const c = liveRow(mfaChallenges, tokenHash, now());
      if (!c) return 'challenge-dead';
      const spent =
        proof.kind === 'totp'
          ? useTotpStep(c.userId, proof.step)
          : useRecoveryCode(c.userId, proof.codeHash);
      if (!spent) return 'proof-refused';
      c.consumedAt = now();
      return 'completed';
    },
  };
}
