/** Password-reset storage: the single-use reset tokens. */
import type { MemoryState } from '../store/memory-state';
import { issueUserTokenIn } from '../store/memory-state';
import {
  consumeOnce,
  consumeOnceIn,
  consumeUserRowsIn,
  consumeUserTokens,
  issueUserToken,
} from '../store/single-use';
import type { PgRunner } from '../store/sql';

export interface PasswordResetStore {
  /** Issues a reset token, consuming the user's earlier ones (only the newest link works). */
  issueResetToken(userId: string, tokenHash: string, expiresAt: Date): Promise<void>;
  /**
   * Consumes an unconsumed, unexpired reset token (single use, atomic) and every other live reset
   * token of its user; returns the user id, or null.
   */
  consumeResetToken(tokenHash: string): Promise<string | null>;
}

export function postgresPasswordResetStore(r: PgRunner): PasswordResetStore {
  const { root, now } = r;
  return {
    issueResetToken: (userId, tokenHash, expiresAt) =>
      issueUserToken(root, now, 'reset_tokens', userId, tokenHash, expiresAt),
    consumeResetToken: (tokenHash) =>
      root.transaction().execute(async (trx) => {
        const at = now();
        const row = await consumeOnce(trx, 'reset_tokens', {
          key: tokenHash,
          at,
          returning: ['user_id'],
        });
        if (!row) return null;
        await consumeUserTokens(trx, 'reset_tokens', row.user_id, at);
        return row.user_id;
      }),
  };
}

export function memoryPasswordResetStore(m: MemoryState): PasswordResetStore {
  return {
    async issueResetToken(userId, tokenHash, expiresAt) {
      issueUserTokenIn(m, m.resetTokens, userId, tokenHash, expiresAt);
    },
    async consumeResetToken(tokenHash) {
      const at = m.now();
      const row = consumeOnceIn(m.resetTokens, tokenHash, at);
      if (!row) return null;
      consumeUserRowsIn(m.resetTokens, row.userId, at);
      return row.userId;
    },
  };
}
