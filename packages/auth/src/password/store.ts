/** Password-reset storage: the single-use reset tokens. */
import type { MemoryState } from '../store/memory-state';
import { memoryUserTokens, postgresUserTokens, type UserTokenVerbs } from '../store/single-use';
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

/** A consumed reset token takes the user's other ones with it: one link resets once. */
const SIBLINGS = { siblings: true };

const verbs = (v: UserTokenVerbs): PasswordResetStore => ({
  issueResetToken: v.issue,
  consumeResetToken: v.consume,
});

export function postgresPasswordResetStore(r: PgRunner): PasswordResetStore {
  return verbs(postgresUserTokens(r.root, r.now, 'reset_tokens', SIBLINGS));
}

export function memoryPasswordResetStore(m: MemoryState): PasswordResetStore {
  return verbs(memoryUserTokens(m.resetTokens, m.now, m.requireUser, SIBLINGS));
}
