/**
 * The one object every operation of @svc/auth works over. `createAuth` builds it once from the
 * configuration and options; the feature folders (`account/`, `session/`, `password/`,
 * `verification/`, `roles/`, `admin/`) export plain async functions `(ctx, ...input)` over it, and
 * `createAuth` assembles them into the `Auth` instance. Nothing else is shared between features:
 * no closure, no module state (better-auth's AuthContext plays the same part).
 */
import type { ResolvedAuthConfig } from './config';
import type { AuthLogger, EventBus } from './events';
import type { GuestSweeper } from './guest/retention';
import type { PasswordHasher, PasswordPolicy } from './password';
import type { RateLimiter } from './rate-limit';
import type { AuthStore } from './store/types';
import type { TokenVerifier } from './token/verify';

export interface OperationContext {
  readonly config: ResolvedAuthConfig;
  readonly store: AuthStore;
  /** The clock, in milliseconds (tests move it by hand). */
  readonly now: () => number;
  /** Randomness for refresh, reset and verification tokens. */
  readonly random: (n: number) => Buffer;
  /** Where operations emit events, after the write that causes them. */
  readonly bus: EventBus;
  /** Checked before the work a limit protects (bcrypt, mail). */
  readonly limiter: RateLimiter;
  readonly passwords: PasswordHasher;
  readonly policy: PasswordPolicy;
  /** Signs and verifies access tokens; absent without a `jwtSecret` (`createAuthAdmin`). */
  readonly tokens: TokenVerifier | undefined;
  readonly logger: AuthLogger | undefined;
  /** Deletes guests past `guestRetention`; poked at start and by traffic (never awaited there). */
  readonly guests: GuestSweeper;
}
