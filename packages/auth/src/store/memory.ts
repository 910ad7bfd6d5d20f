import { memoryAccountStore } from '../account/store';
import { memoryGuestStore } from '../guest/store';
import { memoryMfaStore } from '../mfa/store';
import { memoryOAuthStore } from '../oauth/store';
import { memoryPasswordResetStore } from '../password/store';
import { memoryPasswordlessStore } from '../passwordless/store';
import { memoryRateLimitStore } from '../rate-limit/store';
import { memoryRoleStore } from '../roles/store';
import { memorySessionStore } from '../session/store';
import { memoryVerificationStore } from '../verification/store';
import { memoryWebAuthnStore } from '../webauthn/store';
import { createMemoryState, type MemoryStoreOptions } from './memory-state';
import type { AuthStore } from './types';

export type { MemoryStoreOptions } from './memory-state';

/**
 * An in-memory `AuthStore`: for tests and for programs that do not need accounts to outlive the
 * process. Every feature's verbs over one shared state. Every verb runs synchronously inside one
 * promise, so each is atomic by construction. Records handed out are copies: mutating them does
 * not change the store.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): AuthStore {
  const m = createMemoryState(options);
  return {
    async migrate() {},
    ...memoryAccountStore(m),
    ...memorySessionStore(m),
    ...memoryGuestStore(m),
    ...memoryPasswordResetStore(m),
    ...memoryVerificationStore(m),
    ...memoryPasswordlessStore(m),
    ...memoryRoleStore(m),
    ...memoryRateLimitStore(m),
    ...memoryWebAuthnStore(m),
    ...memoryMfaStore(m),
    ...memoryOAuthStore(m),
  };
}
