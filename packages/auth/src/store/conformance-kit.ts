/**
 * What every feature's conformance cases (`<feature>/store.conformance.ts`) share: the scope
 * `defineStoreConformance` hands them (the store under test, its clock, the test-runner functions)
 * and a few helpers.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AuthStore, NewSession, UserRecord } from './types';

/** The test-runner functions the suite uses (Jest and Vitest globals fit). */
export interface TestApi {
  describe(name: string, fn: () => void): void;
  test(name: string, fn: () => Promise<unknown>, timeout?: number): void;
  // The suite uses the matcher chain (toBe, toEqual, rejects, ...): typed loosely on purpose.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  expect(value: unknown): any;
  beforeAll(fn: () => Promise<unknown>, timeout?: number): void;
  afterAll(fn: () => Promise<unknown>, timeout?: number): void;
  beforeEach(fn: () => Promise<unknown>, timeout?: number): void;
}

/** What a feature's cases run with. */
export interface StoreCaseScope {
  readonly api: TestApi;
  /** The store under test: a fresh one, over empty storage, for every test. */
  readonly store: AuthStore;
  /** The time the store reads (ms since the epoch): `T0` when a test starts; tests move it. */
  t: number;
  /** A new user (a random email unless given). */
  user(email?: string, extra?: { username?: string }): Promise<UserRecord>;
  /** A new session's fields for the user, expiring an hour from now. */
  session(userId: string, over?: Partial<NewSession>): NewSession;
  /** `activeSince` for rotations: sessions idle for up to an hour still rotate. */
  hourAgo(): Date;
}

/** When every test starts. */
export const T0 = Date.UTC(2030, 0, 1);
export const hash = (s: string) => createHash('sha256').update(s).digest('hex');
/** A fresh token digest. */
export const fresh = () => hash(randomBytes(32).toString('base64url'));

/** The scope over a store the caller swaps for every test, and a clock it resets. */
export function caseScope(api: TestApi, current: () => AuthStore): StoreCaseScope {
  const scope: StoreCaseScope = {
    api,
    get store() {
      return current();
    },
    t: T0,
    user: (email = `u${randomUUID().slice(0, 8)}@example.com`, extra = {}) =>
      current().createUser({ email, passwordHash: '$2b$04$hash', ...extra }),
    session: (userId, over = {}) => ({
      userId,
      accessJti: randomUUID(),
      refreshHash: fresh(),
      expiresAt: new Date(scope.t + 3_600_000),
      ...over,
    }),
    hourAgo: () => new Date(scope.t - 3_600_000),
  };
  return scope;
}
