/**
 * The one conformance suite every `AuthStore` must pass (the Postgres store on PGlite and on
 * PostgreSQL, and the memory store). Call it from a test file with a harness that opens a store
 * over an empty storage and the clock the suite controls, and your test runner's functions
 * (Jest's or Vitest's globals), so a store written outside svc can run it too:
 *
 * @example
 * import { defineStoreConformance } from '@svc/auth';
 * defineStoreConformance('my store', { open: async (now) => createMyStore({ now }) },
 *   { describe, test, expect, beforeAll, afterAll, beforeEach });
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import type { AuthStore, NewSession } from './types';

export interface StoreHarness {
  /** Once per file (open a database, migrate...). */
  setup?(): Promise<void>;
  /** A store over empty storage, reading time from `now`. */
  open(now: () => number): Promise<AuthStore>;
  teardown?(): Promise<void>;
}

const T0 = Date.UTC(2030, 0, 1);
const hash = (s: string) => createHash('sha256').update(s).digest('hex');
const fresh = () => hash(randomBytes(32).toString('base64url'));

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

export function defineStoreConformance(label: string, harness: StoreHarness, api: TestApi): void {
  const { describe, test, expect, beforeAll, afterAll, beforeEach } = api;
  describe(`AuthStore conformance: ${label}`, () => {
    let t = T0;
    const now = () => t;
    let store: AuthStore;
    const user = (email = `u${randomUUID().slice(0, 8)}@example.com`, extra: { username?: string } = {}) =>
      store.createUser({ email, passwordHash: '$2b$04$hash', ...extra });
    const session = (userId: string, over: Partial<NewSession> = {}): NewSession => ({
      userId,
      accessJti: randomUUID(),
      refreshHash: fresh(),
      expiresAt: new Date(t + 3_600_000),
      ...over,
    });

    beforeAll(async () => {
      await harness.setup?.();
    }, 60_000);
    afterAll(async () => {
      await harness.teardown?.();
    });
    beforeEach(async () => {
      t = T0;
      store = await harness.open(now);
    });

    describe('accounts', () => {
      test('createUser lower-cases the email and fills defaults', async () => {
        const u = await store.createUser({ email: 'Ann@Example.COM', passwordHash: 'h', metadata: { plan: 'pro' } });
        expect(u).toMatchObject({
          email: 'ann@example.com',
          username: null,
          passwordHash: 'h',
          emailVerified: false,
          active: true,
          isAnonymous: false,
          metadata: { plan: 'pro' },
        });
        expect(u.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(u.createdAt.getTime()).toBe(T0);
        expect(u.updatedAt.getTime()).toBe(T0);
      });

      const duplicates: Array<[string, { email: string; username?: string }]> = [
        ['same email, other case', { email: 'ANN@example.com' }],
        ['same username', { email: 'other@example.com', username: 'ann' }],
      ];
      for (const [name, second] of duplicates) test(`createUser refuses a duplicate (${name}) with USER_ALREADY_EXISTS`, async () => {
        await store.createUser({ email: 'ann@example.com', username: 'ann', passwordHash: 'h' });
        await expect(store.createUser({ passwordHash: 'h', ...second })).rejects.toMatchObject({ code: 'USER_ALREADY_EXISTS' });
      });

      test('concurrent registrations of one email: exactly one wins', async () => {
        const results = await Promise.allSettled(
          Array.from({ length: 5 }, () => store.createUser({ email: 'race@example.com', passwordHash: 'h' })),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'USER_ALREADY_EXISTS' });
      });

      test('several users may have no username', async () => {
        await user();
        await expect(user()).resolves.toMatchObject({ username: null });
      });

      test('findUserById / ByEmail / ByLogin', async () => {
        const u = await user('bob@example.com', { username: 'Bob' });
        expect((await store.findUserById(u.id))?.email).toBe('bob@example.com');
        expect((await store.findUserByEmail('BOB@EXAMPLE.com'))?.id).toBe(u.id);
        expect((await store.findUserByLogin({ email: 'Bob@example.com' }))?.id).toBe(u.id);
        expect((await store.findUserByLogin({ username: 'Bob' }))?.id).toBe(u.id);
        expect(await store.findUserByLogin({ username: 'bob' })).toBeNull();
        expect(await store.findUserById(randomUUID())).toBeNull();
        expect(await store.findUserById('not-a-uuid')).toBeNull();
        expect(await store.findUserByEmail('nobody@example.com')).toBeNull();
      });

      test('replacePassword swaps the hash, revokes every session, bumps updatedAt', async () => {
        const u = await user();
        const a = await store.createSession(session(u.id));
        const b = await store.createSession(session(u.id));
        t += 1000;
        expect(await store.replacePassword(u.id, 'new-hash')).toBe(true);
        const after = await store.findUserById(u.id);
        expect(after?.passwordHash).toBe('new-hash');
        expect(after?.updatedAt.getTime()).toBe(T0 + 1000);
        expect((await store.sessionState(a.accessJti))?.revoked).toBe(true);
        expect((await store.sessionState(b.accessJti))?.revoked).toBe(true);
        expect(await store.replacePassword(randomUUID(), 'x')).toBe(false);
      });

      test('listUsers: oldest first, paged, with sorted roles and the total', async () => {
        expect(await store.listUsers({ limit: 10, offset: 0 })).toEqual({ users: [], total: 0 });
        const made = [];
        for (let i = 0; i < 5; i++) {
          made.push(await user(`list${i}@example.com`));
          t += 1000;
        }
        await store.createRole('zeta', null);
        await store.createRole('alpha', null);
        await store.assignRole(made[1]!.id, 'zeta');
        await store.assignRole(made[1]!.id, 'alpha');
        const first = await store.listUsers({ limit: 2, offset: 0 });
        expect(first.total).toBe(5);
        expect(first.users.map((u) => u.email)).toEqual(['list0@example.com', 'list1@example.com']);
        expect(first.users.map((u) => u.roles)).toEqual([[], ['alpha', 'zeta']]);
        expect(first.users[0]).toMatchObject({ id: made[0]!.id, active: true, emailVerified: false });
        const rest = await store.listUsers({ limit: 10, offset: 2 });
        expect(rest.users.map((u) => u.email)).toEqual(['list2@example.com', 'list3@example.com', 'list4@example.com']);
        expect(await store.listUsers({ limit: 10, offset: 5 })).toEqual({ users: [], total: 5 });
      });

      test('markEmailVerified and setActive', async () => {
        const u = await user();
        expect(await store.markEmailVerified(u.id)).toBe(true);
        expect(await store.setActive(u.id, false)).toBe(true);
        expect(await store.findUserById(u.id)).toMatchObject({ emailVerified: true, active: false });
        expect(await store.setActive(randomUUID(), true)).toBe(false);
        expect(await store.markEmailVerified(randomUUID())).toBe(false);
      });
    });

    describe('sessions', () => {
      test('createSession, then its state by jti', async () => {
        const u = await user();
        const s = await store.createSession(session(u.id, { ip: '10.0.0.1', userAgent: 'jest' }));
        expect(s).toMatchObject({ userId: u.id, ip: '10.0.0.1', userAgent: 'jest', revokedAt: null });
        expect(s.createdAt.getTime()).toBe(T0);
        expect(s.lastActivityAt.getTime()).toBe(T0);
        expect(await store.sessionState(s.accessJti)).toEqual({
          sessionId: s.id,
          userId: u.id,
          revoked: false,
          lastActivityAt: new Date(T0),
          userActive: true,
        });
        await store.setActive(u.id, false);
        expect((await store.sessionState(s.accessJti))?.userActive).toBe(false);
        expect(await store.sessionState(randomUUID())).toBeNull();
      });

      test('touchSession moves last activity forward only', async () => {
        const u = await user();
        const s = await store.createSession(session(u.id));
        t += 5000;
        await store.touchSession(s.id);
        expect((await store.sessionState(s.accessJti))?.lastActivityAt.getTime()).toBe(T0 + 5000);
        t -= 3000;
        await store.touchSession(s.id);
        expect((await store.sessionState(s.accessJti))?.lastActivityAt.getTime()).toBe(T0 + 5000);
      });

      test('rotateSession revokes the old session and creates the next for the same user', async () => {
        const u = await user();
        const old = session(u.id);
        await store.createSession(old);
        expect(await store.refreshableSessionUser(old.refreshHash)).toBe(u.id);
        const next = { accessJti: randomUUID(), refreshHash: fresh(), expiresAt: new Date(t + 7_200_000) };
        const rotated = await store.rotateSession(old.refreshHash, next);
        expect(rotated?.previous.revokedAt?.getTime()).toBe(T0);
        expect(rotated?.next).toMatchObject({ userId: u.id, accessJti: next.accessJti, revokedAt: null });
        expect((await store.sessionState(old.accessJti))?.revoked).toBe(true);
        expect((await store.sessionState(next.accessJti))?.revoked).toBe(false);
        // the used refresh token is dead
        expect(await store.refreshableSessionUser(old.refreshHash)).toBeNull();
        expect(await store.rotateSession(old.refreshHash, { ...next, accessJti: randomUUID(), refreshHash: fresh() })).toBeNull();
      });

      const dead: Array<[string, (s: AuthStore, uid: string) => Promise<string>]> = [
        ['unknown', async () => fresh()],
        ['revoked', async (s: AuthStore, uid: string) => {
          const x = session(uid);
          const created = await s.createSession(x);
          await s.revokeSession(created.id);
          return x.refreshHash;
        }],
        ['expired', async (s: AuthStore, uid: string) => {
          const x = session(uid, { expiresAt: new Date(T0 + 1000) });
          await s.createSession(x);
          t = T0 + 1000;
          return x.refreshHash;
        }],
      ];
      for (const [name, make] of dead) test(`rotateSession of an ${name} refresh token is null`, async () => {
        const u = await user();
        const h = await make(store, u.id);
        expect(await store.refreshableSessionUser(h)).toBeNull();
        expect(await store.rotateSession(h, { accessJti: randomUUID(), refreshHash: fresh(), expiresAt: new Date(t + 1e6) })).toBeNull();
      });

      test('ten concurrent rotations of one refresh token: exactly one succeeds', async () => {
        const u = await user();
        const old = session(u.id);
        await store.createSession(old);
        const results = await Promise.all(
          Array.from({ length: 10 }, () =>
            store.rotateSession(old.refreshHash, { accessJti: randomUUID(), refreshHash: fresh(), expiresAt: new Date(t + 1e6) }),
          ),
        );
        expect(results.filter((r) => r !== null)).toHaveLength(1);
      });

      test('revokeSession and revokeUserSessions', async () => {
        const u = await user();
        const other = await user();
        const a = await store.createSession(session(u.id));
        const b = await store.createSession(session(u.id));
        const c = await store.createSession(session(other.id));
        await store.revokeSession(a.id);
        expect((await store.sessionState(a.accessJti))?.revoked).toBe(true);
        expect(await store.revokeUserSessions(u.id)).toBe(1);
        expect((await store.sessionState(b.accessJti))?.revoked).toBe(true);
        expect((await store.sessionState(c.accessJti))?.revoked).toBe(false);
        expect(await store.revokeUserSessions(randomUUID())).toBe(0);
      });
    });

    describe('one-time tokens', () => {
      test('a reset token is single use and takes its siblings with it', async () => {
        const u = await user();
        const [h1, h2] = [fresh(), fresh()];
        await store.issueResetToken(u.id, h1, new Date(t + 3_600_000));
        await store.issueResetToken(u.id, h2, new Date(t + 3_600_000));
        expect(await store.consumeResetToken(h1)).toBe(u.id);
        expect(await store.consumeResetToken(h1)).toBeNull();
        expect(await store.consumeResetToken(h2)).toBeNull();
        expect(await store.consumeResetToken(fresh())).toBeNull();
      });

      test('an expired reset token is refused', async () => {
        const u = await user();
        const h1 = fresh();
        await store.issueResetToken(u.id, h1, new Date(t + 3_600_000));
        t += 3_600_000;
        expect(await store.consumeResetToken(h1)).toBeNull();
      });

      test('concurrent consumption of one reset token: exactly one wins', async () => {
        const u = await user();
        const h1 = fresh();
        await store.issueResetToken(u.id, h1, new Date(t + 3_600_000));
        const results = await Promise.all(Array.from({ length: 10 }, () => store.consumeResetToken(h1)));
        expect(results.filter((r) => r === u.id)).toHaveLength(1);
      });

      test('a new verification token replaces the earlier one', async () => {
        const u = await user();
        const v = await user();
        const [h1, h2, hv] = [fresh(), fresh(), fresh()];
        await store.issueVerificationToken(u.id, h1, new Date(t + 86_400_000));
        await store.issueVerificationToken(v.id, hv, new Date(t + 86_400_000));
        await store.issueVerificationToken(u.id, h2, new Date(t + 86_400_000));
        expect(await store.consumeVerificationToken(h1)).toBeNull();
        expect(await store.consumeVerificationToken(h2)).toBe(u.id);
        expect(await store.consumeVerificationToken(h2)).toBeNull();
        expect(await store.consumeVerificationToken(hv)).toBe(v.id); // another user's is untouched
      });

      test('an expired verification token is refused', async () => {
        const u = await user();
        const h1 = fresh();
        await store.issueVerificationToken(u.id, h1, new Date(t + 1000));
        t += 1000;
        expect(await store.consumeVerificationToken(h1)).toBeNull();
      });
    });

    describe('roles', () => {
      test('createRole, ensureRole, listRoles (sorted by code point)', async () => {
        expect(await store.createRole('editor', 'Edits')).toEqual({ name: 'editor', description: 'Edits' });
        expect(await store.createRole('editor', 'again')).toBeNull();
        expect(await store.ensureRole('editor', 'ignored')).toEqual({ name: 'editor', description: 'Edits' });
        expect(await store.ensureRole('Admin', null)).toEqual({ name: 'Admin', description: null });
        expect(await store.listRoles()).toEqual([
          { name: 'Admin', description: null },
          { name: 'editor', description: 'Edits' },
        ]);
      });

      test('assignRole, userRoles, revokeRole', async () => {
        const u = await user();
        await store.createRole('b', null);
        await store.createRole('a', null);
        expect(await store.assignRole(u.id, 'b')).toBe('assigned');
        expect(await store.assignRole(u.id, 'a')).toBe('assigned');
        expect(await store.assignRole(u.id, 'a')).toBe('already-assigned');
        expect(await store.assignRole(u.id, 'missing')).toBe('no-such-role');
        expect(await store.assignRole(randomUUID(), 'a')).toBe('no-such-user');
        expect(await store.userRoles(u.id)).toEqual(['a', 'b']);
        expect(await store.revokeRole(u.id, 'a')).toBe(true);
        expect(await store.revokeRole(u.id, 'a')).toBe(false);
        expect(await store.userRoles(u.id)).toEqual(['b']);
      });

      test('deleteRole cascades to assignments', async () => {
        const u = await user();
        await store.createRole('gone', null);
        await store.assignRole(u.id, 'gone');
        expect(await store.deleteRole('gone')).toBe(true);
        expect(await store.deleteRole('gone')).toBe(false);
        expect(await store.userRoles(u.id)).toEqual([]);
        expect(await store.listRoles()).toEqual([]);
      });
    });
  });
}
