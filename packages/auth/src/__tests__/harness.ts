/**
 * Shared setup of the operation suites (a `*.test.ts` beside each feature folder's operations):
 * one database per test file (PGlite in memory, or PostgreSQL with SVC_TEST_DB=postgres), tables
 * emptied between tests, a clock tests move by hand, and the events each instance emitted.
 */
import { createTestDatabase, type TestDatabase } from '@svc/core/testing';
import { createAuth } from '../create-auth';
import type { Auth, AuthConfig, AuthEvent, AuthResult, SignInResult } from '../types';

const QUIET = { info: () => {}, warn: () => {}, error: () => {} };

export const SECRET = 'test-secret-that-is-at-least-32-characters-long';
export const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

export interface Clock {
  (): number;
  set(ms: number): void;
  advance(seconds: number): void;
}

export function manualClock(start = T0): Clock {
  let t = start;
  return Object.assign(() => t, {
    set: (ms: number): void => {
      t = ms;
    },
    advance: (seconds: number): void => {
      t += seconds * 1000;
    },
  });
}

export interface CoreHarness {
  readonly db: () => TestDatabase;
  /** A fresh instance over the shared database (tables emptied), its clock and its events. */
  make(config?: Partial<AuthConfig>): Promise<{ auth: Auth; clock: Clock; events: AuthEvent[] }>;
}

/** Registers beforeAll/afterAll/afterEach hooks; call at the top of a test file. */
export function useCoreHarness(): CoreHarness {
  let tdb: TestDatabase | undefined;
  const open: Auth[] = [];
  beforeAll(async () => {
    tdb = await createTestDatabase();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((a) => a.close()));
  });
  afterAll(async () => {
    await tdb?.dispose();
  });
  return {
    db: () => tdb!,
    async make(config = {}) {
      const clock = manualClock();
      // Quiet: with no SMTP configured, the email listener warns at construction and logs mail.
      const auth = await createAuth(
        { jwtSecret: SECRET, bcryptRounds: 4, ...config },
        { database: tdb!.db, now: clock, logger: QUIET },
      );
      await tdb!.db.query('truncate svc_auth.users, svc_auth.roles, svc_auth.rate_limits cascade');
      const events: AuthEvent[] = [];
      auth.on((e) => void events.push(e));
      open.push(auth);
      return { auth, clock, events };
    },
  };
}

/** The SvcError code a promise rejects with. */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as { code?: string }).code ?? `(no code: ${String(err)})`;
  }
  return '(resolved)';
}

/** The newest reset or verification token the events carried. */
export const tokenOf = (
  events: AuthEvent[],
  type: AuthEvent['eventType'],
  key: 'resetToken' | 'verificationToken',
) => events.filter((e) => e.eventType === type).at(-1)?.[key] as string;

/** The Auth result of a sign-in that must not have asked for a second factor (fails the test if it did). */
export async function session(result: Promise<SignInResult> | SignInResult): Promise<AuthResult> {
  const r = await result;
  if ('mfaRequired' in r) throw new Error('expected a session, got an MFA challenge');
  return r;
}
