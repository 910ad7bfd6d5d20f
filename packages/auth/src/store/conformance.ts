/**
 * The one conformance suite every `AuthStore` must pass (the Postgres store on PGlite and on
 * PostgreSQL, and the memory store). Call it from a test file with a harness that opens a store
 * over an empty storage and the clock the suite controls, and your test runner's functions
 * (Jest's or Vitest's globals), so a store written outside svc can run it too:
 *
 * @example
 * import { defineStoreConformance } from '@svc/auth/testing';
 * defineStoreConformance('my store', { open: async (now) => createMyStore({ now }) },
 *   { describe, test, expect, beforeAll, afterAll, beforeEach });
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import type { AuthStore, NewOAuthState, NewSession } from './types';

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
    const user = (
      email = `u${randomUUID().slice(0, 8)}@example.com`,
      extra: { username?: string } = {},
    ) => store.createUser({ email, passwordHash: '$2b$04$hash', ...extra });
    const session = (userId: string, over: Partial<NewSession> = {}): NewSession => ({
      userId,
      accessJti: randomUUID(),
      refreshHash: fresh(),
      expiresAt: new Date(t + 3_600_000),
      ...over,
    });
    /** `activeSince` for rotations: sessions idle for up to an hour still rotate. */
    const hourAgo = () => new Date(t - 3_600_000);

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
        const u = await store.createUser({
          email: 'Ann@Example.COM',
          passwordHash: 'h',
          metadata: { plan: 'pro' },
        });
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
        ['same username, other case', { email: 'other@example.com', username: 'ANN' }],
      ];
      for (const [name, second] of duplicates)
        test(`createUser refuses a duplicate (${name}) with USER_ALREADY_EXISTS`, async () => {
          await store.createUser({ email: 'ann@example.com', username: 'ann', passwordHash: 'h' });
          await expect(store.createUser({ passwordHash: 'h', ...second })).rejects.toMatchObject({
            code: 'USER_ALREADY_EXISTS',
          });
        });

      test('concurrent registrations of one email: exactly one wins', async () => {
        const results = await Promise.allSettled(
          Array.from({ length: 5 }, () =>
            store.createUser({ email: 'race@example.com', passwordHash: 'h' }),
          ),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results)
          if (r.status === 'rejected')
            expect(r.reason).toMatchObject({ code: 'USER_ALREADY_EXISTS' });
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
        expect((await store.findUserByLogin({ username: 'bOB' }))?.id).toBe(u.id);
        expect(await store.findUserByLogin({ username: 'bobby' })).toBeNull();
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

      test("replacePassword consumes the live reset tokens of the user (and no one else's)", async () => {
        const u = await user();
        const other = await user();
        const [h, ho] = [fresh(), fresh()];
        await store.issueResetToken(u.id, h, new Date(t + 3_600_000));
        await store.issueResetToken(other.id, ho, new Date(t + 3_600_000));
        await store.replacePassword(u.id, 'new-hash');
        expect(await store.consumeResetToken(h)).toBeNull();
        expect(await store.consumeResetToken(ho)).toBe(other.id);
      });

      test('rehashPassword replaces the hash only while it is unchanged, and keeps sessions', async () => {
        const u = await user();
        const s = await store.createSession(session(u.id));
        expect(await store.rehashPassword(u.id, 'not-the-hash', 'x')).toBe(false);
        expect(await store.rehashPassword(u.id, '$2b$04$hash', 'rehashed')).toBe(true);
        expect((await store.findUserById(u.id))?.passwordHash).toBe('rehashed');
        expect((await store.sessionState(s.accessJti))?.revoked).toBe(false);
        expect(await store.rehashPassword(randomUUID(), 'rehashed', 'y')).toBe(false);
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
        expect(first.users[0]).toMatchObject({
          id: made[0]!.id,
          active: true,
          emailVerified: false,
        });
        const rest = await store.listUsers({ limit: 10, offset: 2 });
        expect(rest.users.map((u) => u.email)).toEqual([
          'list2@example.com',
          'list3@example.com',
          'list4@example.com',
        ]);
        expect(await store.listUsers({ limit: 10, offset: 5 })).toEqual({ users: [], total: 5 });
      });

      test('markEmailVerified and setActive', async () => {
        const u = await user();
        expect(await store.markEmailVerified(u.id)).toBe(true);
        expect(await store.setActive(u.id, false)).toBe(true);
        expect(await store.findUserById(u.id)).toMatchObject({
          emailVerified: true,
          active: false,
        });
        expect(await store.setActive(randomUUID(), true)).toBe(false);
        expect(await store.setActive(randomUUID(), false)).toBe(false);
        expect(await store.markEmailVerified(randomUUID())).toBe(false);
      });

      test('deactivation revokes every session of the user; reactivation does not revive them', async () => {
        const u = await user();
        const other = await user();
        const a = await store.createSession(session(u.id));
        const b = await store.createSession(session(other.id));
        await store.setActive(u.id, false);
        expect((await store.sessionState(a.accessJti))?.revoked).toBe(true);
        expect((await store.sessionState(b.accessJti))?.revoked).toBe(false);
        await store.setActive(u.id, true);
        expect((await store.sessionState(a.accessJti))?.revoked).toBe(true);
      });
    });

    describe('sessions', () => {
      test('createSession, then its state by jti', async () => {
        const u = await user();
        const s = await store.createSession(session(u.id, { ip: '10.0.0.1', userAgent: 'jest' }));
        expect(s).toMatchObject({
          userId: u.id,
          ip: '10.0.0.1',
          userAgent: 'jest',
          revokedAt: null,
        });
        expect(s.createdAt.getTime()).toBe(T0);
        expect(s.lastActivityAt.getTime()).toBe(T0);
        expect(await store.sessionState(s.accessJti)).toEqual({
          sessionId: s.id,
          userId: u.id,
          revoked: false,
          lastActivityAt: new Date(T0),
          userActive: true,
          aal: 'aal1',
        });
        expect(s.aal).toBe('aal1');
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

      test('raiseSessionAssurance raises a live session to aal2 and leaves others alone', async () => {
        const u = await user();
        const a = await store.createSession(session(u.id));
        const b = await store.createSession(session(u.id));
        await store.raiseSessionAssurance(a.id);
        expect((await store.sessionState(a.accessJti))?.aal).toBe('aal2');
        expect((await store.sessionState(b.accessJti))?.aal).toBe('aal1');
        await store.raiseSessionAssurance(a.id);
        expect((await store.sessionState(a.accessJti))?.aal).toBe('aal2');
      });

      test('rotateSession revokes the old session and creates the next for the same user', async () => {
        const u = await user();
        const old = session(u.id);
        const created = await store.createSession(old);
        expect(await store.refreshState(old.refreshHash)).toEqual({
          sessionId: created.id,
          userId: u.id,
          revoked: false,
          expiresAt: old.expiresAt,
          lastActivityAt: new Date(T0),
          userActive: true,
          familyId: created.id,
          rotatedAt: null,
          aal: 'aal1',
        });
        const next = {
          accessJti: randomUUID(),
          refreshHash: fresh(),
          expiresAt: new Date(t + 7_200_000),
        };
        const rotated = await store.rotateSession(old.refreshHash, next, hourAgo());
        expect(rotated?.previous.revokedAt?.getTime()).toBe(T0);
        expect(rotated?.next).toMatchObject({
          userId: u.id,
          accessJti: next.accessJti,
          revokedAt: null,
        });
        expect((await store.sessionState(old.accessJti))?.revoked).toBe(true);
        expect((await store.sessionState(next.accessJti))?.revoked).toBe(false);
        // the used refresh token is dead
        expect((await store.refreshState(old.refreshHash))?.revoked).toBe(true);
        expect(
          await store.rotateSession(
            old.refreshHash,
            { ...next, accessJti: randomUUID(), refreshHash: fresh() },
            hourAgo(),
          ),
        ).toBeNull();
      });

      const dead: Array<[string, (s: AuthStore, uid: string) => Promise<string>]> = [
        ['unknown', async () => fresh()],
        [
          'revoked',
          async (s: AuthStore, uid: string) => {
            const x = session(uid);
            const created = await s.createSession(x);
            await s.revokeSession(created.id);
            return x.refreshHash;
          },
        ],
        [
          'expired',
          async (s: AuthStore, uid: string) => {
            const x = session(uid, { expiresAt: new Date(T0 + 1000) });
            await s.createSession(x);
            t = T0 + 1000;
            return x.refreshHash;
          },
        ],
        [
          'idle',
          async (s: AuthStore, uid: string) => {
            const x = session(uid, { expiresAt: new Date(T0 + 7 * 3_600_000) });
            await s.createSession(x);
            t = T0 + 3_600_000; // last activity T0 is not after activeSince (an hour ago)
            return x.refreshHash;
          },
        ],
      ];
      for (const [name, make] of dead)
        test(`rotateSession of an ${name} refresh token is null`, async () => {
          const u = await user();
          const h = await make(store, u.id);
          expect(
            await store.rotateSession(
              h,
              { accessJti: randomUUID(), refreshHash: fresh(), expiresAt: new Date(t + 1e6) },
              hourAgo(),
            ),
          ).toBeNull();
        });

      test('rotateSession refuses a live session of a deactivated user (checked in the same statement)', async () => {
        const u = await user();
        await store.setActive(u.id, false);
        const x = session(u.id); // made after the deactivation (a race with it), so not revoked by it
        await store.createSession(x);
        expect((await store.refreshState(x.refreshHash))?.userActive).toBe(false);
        expect(
          await store.rotateSession(
            x.refreshHash,
            { accessJti: randomUUID(), refreshHash: fresh(), expiresAt: new Date(t + 1e6) },
            hourAgo(),
          ),
        ).toBeNull();
        expect(await store.refreshState(fresh())).toBeNull();
      });

      test('ten concurrent rotations of one refresh token: exactly one succeeds', async () => {
        const u = await user();
        const old = session(u.id);
        await store.createSession(old);
        const results = await Promise.all(
          Array.from({ length: 10 }, () =>
            store.rotateSession(
              old.refreshHash,
              { accessJti: randomUUID(), refreshHash: fresh(), expiresAt: new Date(t + 1e6) },
              hourAgo(),
            ),
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

    describe('sessions: assurance levels (issue 26)', () => {
      test('a session keeps the level it was created with; rotation copies it', async () => {
        const u = await user();
        const strong = session(u.id, { aal: 'aal2' });
        const weak = session(u.id);
        const a = await store.createSession(strong);
        const b = await store.createSession(weak);
        expect([a.aal, b.aal]).toEqual(['aal2', 'aal1']);
        expect((await store.sessionState(strong.accessJti))?.aal).toBe('aal2');
        expect((await store.refreshState(strong.refreshHash))?.aal).toBe('aal2');
        expect((await store.sessionState(weak.accessJti))?.aal).toBe('aal1');
        const next = () => ({
          accessJti: randomUUID(),
          refreshHash: fresh(),
          expiresAt: new Date(t + 7_200_000),
        });
        const n1 = next();
        const r1 = await store.rotateSession(strong.refreshHash, n1, hourAgo());
        expect(r1?.next.aal).toBe('aal2');
        expect((await store.sessionState(n1.accessJti))?.aal).toBe('aal2');
        const n2 = next();
        expect((await store.rotateSession(weak.refreshHash, n2, hourAgo()))?.next.aal).toBe('aal1');
        expect((await store.refreshState(n2.refreshHash))?.aal).toBe('aal1');
        const listed = await store.listLiveSessions(u.id, hourAgo());
        expect(Object.fromEntries(listed.map((x) => [x.accessJti, x.aal]))).toEqual({
          [n1.accessJti]: 'aal2',
          [n2.accessJti]: 'aal1',
        });
      });
    });

    describe('sessions: families, lists, guests (issue 12)', () => {
      const next = () => ({
        accessJti: randomUUID(),
        refreshHash: fresh(),
        expiresAt: new Date(t + 7_200_000),
      });
      test('rotation carries the family and stamps rotatedAt; revokeSessionFamily ends the chain only', async () => {
        const u = await user();
        const first = session(u.id);
        const a = await store.createSession(first);
        expect(a.familyId).toBe(a.id);
        const other = await store.createSession(session(u.id));
        t += 1000;
        const n1 = next();
        const r1 = await store.rotateSession(first.refreshHash, n1, hourAgo());
        expect(r1?.next.familyId).toBe(a.id);
        const n2 = next();
        const r2 = await store.rotateSession(n1.refreshHash, n2, hourAgo());
        expect(r2?.next.familyId).toBe(a.id);
        expect(await store.refreshState(first.refreshHash)).toMatchObject({
          revoked: true,
          familyId: a.id,
          rotatedAt: new Date(T0 + 1000),
        });
        expect((await store.refreshState(n2.refreshHash))?.rotatedAt).toBeNull();
        // a session ended another way is not "rotated"
        await store.revokeSession(other.id);
        expect(await store.revokeSessionFamily(a.id)).toBe(1);
        expect((await store.sessionState(n2.accessJti))?.revoked).toBe(true);
        expect(await store.revokeSessionFamily(a.id)).toBe(0);
        expect(await store.revokeSessionFamily(randomUUID())).toBe(0);
        const c = await store.createSession(session(u.id));
        expect(await store.revokeSessionFamily(a.id)).toBe(0);
        expect((await store.sessionState(c.accessJti))?.revoked).toBe(false);
        const otherState = await store.refreshState(fresh());
        expect(otherState).toBeNull();
      });

      test('listLiveSessions: live ones of the user only, most recent activity first', async () => {
        const u = await user();
        const v = await user();
        const a = await store.createSession(session(u.id, { ip: '10.0.0.1', userAgent: 'A' }));
        t += 1000;
        const b = await store.createSession(session(u.id));
        const revoked = await store.createSession(session(u.id));
        await store.revokeSession(revoked.id);
        await store.createSession(session(u.id, { expiresAt: new Date(t + 10) }));
        await store.createSession(session(v.id));
        t += 20;
        let list = await store.listLiveSessions(u.id, hourAgo());
        expect(list.map((s) => s.id)).toEqual([b.id, a.id]);
        expect(list[1]).toMatchObject({ ip: '10.0.0.1', userAgent: 'A', revokedAt: null });
        t += 500;
        await store.touchSession(a.id);
        list = await store.listLiveSessions(u.id, hourAgo());
        expect(list.map((s) => s.id)).toEqual([a.id, b.id]);
        // idle past activeSince: not live
        expect((await store.listLiveSessions(u.id, new Date(T0 + 1000))).map((s) => s.id)).toEqual([
          a.id,
        ]);
        expect(await store.listLiveSessions(randomUUID(), hourAgo())).toEqual([]);
      });

      test("revokeUserSession ends only the user's own unrevoked session", async () => {
        const u = await user();
        const v = await user();
        const a = await store.createSession(session(u.id));
        const w = await store.createSession(session(v.id));
        expect(await store.revokeUserSession(u.id, w.id)).toBe(false);
        expect((await store.sessionState(w.accessJti))?.revoked).toBe(false);
        expect(await store.revokeUserSession(u.id, a.id)).toBe(true);
        expect(await store.revokeUserSession(u.id, a.id)).toBe(false);
        expect(await store.revokeUserSession(u.id, randomUUID())).toBe(false);
        expect((await store.sessionState(a.accessJti))?.revoked).toBe(true);
      });

      test('revokeOtherSessions keeps the current one and counts the rest', async () => {
        const u = await user();
        const v = await user();
        const keep = await store.createSession(session(u.id));
        const x = await store.createSession(session(u.id));
        await store.createSession(session(u.id));
        const w = await store.createSession(session(v.id));
        await store.revokeSession(x.id);
        expect(await store.revokeOtherSessions(u.id, keep.id)).toBe(1);
        expect((await store.sessionState(keep.accessJti))?.revoked).toBe(false);
        expect((await store.sessionState(w.accessJti))?.revoked).toBe(false);
        expect(await store.revokeOtherSessions(u.id, keep.id)).toBe(0);
      });

      test('guests: createUser isAnonymous; upgradeAnonymousUser once, same id, sessions revoked', async () => {
        const g = await store.createUser({
          email: `${randomUUID()}@anonymous.invalid`,
          passwordHash: null,
          isAnonymous: true,
        });
        expect(g).toMatchObject({ isAnonymous: true, passwordHash: null });
        expect(
          (await store.createUser({ email: 'plain@example.com', passwordHash: 'h' })).isAnonymous,
        ).toBe(false);
        const s = await store.createSession(session(g.id));
        await expect(
          store.upgradeAnonymousUser(g.id, 'plain@example.com', '$2b$04$x'),
        ).rejects.toMatchObject({ code: 'USER_ALREADY_EXISTS' });
        expect((await store.findUserById(g.id))?.isAnonymous).toBe(true);
        expect((await store.sessionState(s.accessJti))?.revoked).toBe(false);
        t += 1000;
        const up = await store.upgradeAnonymousUser(g.id, 'Guest@Example.com', '$2b$04$x');
        expect(up).toMatchObject({
          id: g.id,
          email: 'guest@example.com',
          passwordHash: '$2b$04$x',
          isAnonymous: false,
          emailVerified: false,
        });
        expect(up?.updatedAt.getTime()).toBe(T0 + 1000);
        expect((await store.sessionState(s.accessJti))?.revoked).toBe(true);
        expect(await store.upgradeAnonymousUser(g.id, 'again@example.com', 'h')).toBeNull();
        expect(await store.upgradeAnonymousUser(randomUUID(), 'x@example.com', 'h')).toBeNull();
        const plain = await store.findUserByEmail('plain@example.com');
        expect(await store.upgradeAnonymousUser(plain!.id, 'y@example.com', 'h')).toBeNull();
      });

      const guest = () =>
        store.createUser({
          email: `${randomUUID()}@anonymous.invalid`,
          passwordHash: null,
          isAnonymous: true,
        });
      test('deleteInactiveGuests: guests made and idle since the cut-off go, with all they hold', async () => {
        const idle = await guest();
        const idleSession = session(idle.id);
        await store.createSession(idleSession);
        await store.issueMagicLinkToken(idle.id, fresh(), new Date(t + 900_000));
        const busy = await guest();
        const busySession = await store.createSession(session(busy.id));
        const upgraded = await guest();
        await store.upgradeAnonymousUser(
          upgraded.id,
          `up${randomUUID().slice(0, 8)}@example.com`,
          'h',
        );
        const regular = await user();
        t += 10_000;
        await store.touchSession(busySession.id);
        const young = await guest();
        t += 10_000;
        // Cut-off T0 + 5 s: `idle` was made and last active before; `busy` was active after;
        // `young` was made after; `upgraded` and `regular` are not guests.
        expect(await store.deleteInactiveGuests(new Date(T0 + 5_000), 100)).toBe(1);
        expect(await store.findUserById(idle.id)).toBeNull();
        expect(await store.sessionState(idleSession.accessJti)).toBeNull();
        expect(await store.refreshState(idleSession.refreshHash)).toBeNull();
        for (const kept of [busy, upgraded, regular, young])
          expect((await store.findUserById(kept.id))?.id).toBe(kept.id);
        expect(await store.deleteInactiveGuests(new Date(T0 + 5_000), 100)).toBe(0);
        // The cut-off moved past everyone: only guests go.
        expect(await store.deleteInactiveGuests(new Date(t), 100)).toBe(2);
        expect(await store.findUserById(upgraded.id)).not.toBeNull();
        expect(await store.findUserById(regular.id)).not.toBeNull();
      });

      test('deleteInactiveGuests: at most `limit`, oldest first; concurrent sweeps delete each guest once', async () => {
        const made = [];
        for (let i = 0; i < 12; i++) {
          made.push(await guest());
          t += 1;
        }
        expect(await store.deleteInactiveGuests(new Date(t), 5)).toBe(5);
        expect(await store.findUserById(made[4]!.id)).toBeNull();
        expect(await store.findUserById(made[5]!.id)).not.toBeNull();
        const counts = await Promise.all(
          Array.from({ length: 4 }, () => store.deleteInactiveGuests(new Date(t), 3)),
        );
        // Seven left, four sweepers of three: each guest is counted by one sweeper at most.
        expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(7);
        const left = (await Promise.all(made.map((g) => store.findUserById(g.id)))).filter(
          (u) => u !== null,
        ).length;
        expect(counts.reduce((a, b) => a + b, 0)).toBe(7 - left);
        expect(await store.deleteInactiveGuests(new Date(t), 100)).toBe(left);
      });

      test('concurrent upgrades of one guest: exactly one wins', async () => {
        const g = await store.createUser({
          email: `${randomUUID()}@anonymous.invalid`,
          passwordHash: null,
          isAnonymous: true,
        });
        const results = await Promise.allSettled(
          Array.from({ length: 5 }, (_, i) =>
            store.upgradeAnonymousUser(g.id, `race${i}@example.com`, 'h'),
          ),
        );
        const won = results.filter((r) => r.status === 'fulfilled' && r.value !== null);
        expect(won).toHaveLength(1);
      });
    });

    describe('one-time tokens', () => {
      test('a reset token is single use; a newer one supersedes the older', async () => {
        const u = await user();
        const v = await user();
        const [h1, h2, hv] = [fresh(), fresh(), fresh()];
        await store.issueResetToken(u.id, h1, new Date(t + 3_600_000));
        await store.issueResetToken(v.id, hv, new Date(t + 3_600_000));
        await store.issueResetToken(u.id, h2, new Date(t + 3_600_000));
        expect(await store.consumeResetToken(h1)).toBeNull();
        expect(await store.consumeResetToken(h2)).toBe(u.id);
        expect(await store.consumeResetToken(h2)).toBeNull();
        expect(await store.consumeResetToken(fresh())).toBeNull();
        expect(await store.consumeResetToken(hv)).toBe(v.id); // another user's is untouched
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
        const results = await Promise.all(
          Array.from({ length: 10 }, () => store.consumeResetToken(h1)),
        );
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

    describe('passwordless: magic links and codes', () => {
      const soon = () => new Date(t + 900_000);
      const pending = () => `new-${randomUUID().slice(0, 8)}@example.com`;

      test('a magic link is single use; a newer one supersedes the older; others are untouched', async () => {
        const u = await user();
        const v = await user();
        const [h1, h2, hv] = [fresh(), fresh(), fresh()];
        await store.issueMagicLinkToken(u.id, h1, soon());
        await store.issueMagicLinkToken(v.id, hv, soon());
        await store.issueMagicLinkToken(u.id, h2, soon());
        expect(await store.redeemMagicLink(h1)).toBeNull();
        expect(await store.redeemMagicLink(h2)).toEqual({ kind: 'user', userId: u.id });
        expect(await store.redeemMagicLink(h2)).toBeNull();
        expect(await store.redeemMagicLink(fresh())).toBeNull();
        expect(await store.redeemMagicLink(hv)).toEqual({ kind: 'user', userId: v.id });
      });

      test('an expired magic link is refused', async () => {
        const u = await user();
        const h = fresh();
        await store.issueMagicLinkToken(u.id, h, soon());
        t += 900_000;
        expect(await store.redeemMagicLink(h)).toBeNull();
      });

      test('a signup token carries its pending email (lower-cased), single use, newest wins', async () => {
        const email = pending();
        const [h1, h2] = [fresh(), fresh()];
        await store.issueMagicLinkSignupToken(email.toUpperCase(), h1, soon());
        await store.issueMagicLinkSignupToken(email, h2, soon());
        expect(await store.redeemMagicLink(h1)).toBeNull();
        expect(await store.redeemMagicLink(h2)).toEqual({ kind: 'signup', email });
        expect(await store.redeemMagicLink(h2)).toBeNull();
        const h3 = fresh();
        await store.issueMagicLinkSignupToken(email, h3, soon());
        t += 900_000;
        expect(await store.redeemMagicLink(h3)).toBeNull();
      });

      test('concurrent redemption of one magic link: exactly one wins', async () => {
        const u = await user();
        const h = fresh();
        await store.issueMagicLinkToken(u.id, h, soon());
        const hs = fresh();
        await store.issueMagicLinkSignupToken(pending(), hs, soon());
        for (const hash of [h, hs]) {
          const results = await Promise.all(
            Array.from({ length: 10 }, () => store.redeemMagicLink(hash)),
          );
          expect(results.filter((r) => r !== null)).toHaveLength(1);
        }
      });

      test('a magic code: the right digest consumes it once; a wrong one counts a try', async () => {
        const u = await user();
        const [right, wrong] = [fresh(), fresh()];
        await store.issueMagicCode(u.id, right, new Date(t + 600_000));
        expect(await store.verifyMagicCode(u.id, wrong, 5)).toBe('wrong');
        expect(await store.verifyMagicCode(u.id, right, 5)).toBe('ok');
        expect(await store.verifyMagicCode(u.id, right, 5)).toBe('none');
        expect(await store.verifyMagicCode((await user()).id, right, 5)).toBe('none');
        expect(await store.verifyMagicCode(randomUUID(), right, 5)).toBe('none');
        expect(await store.verifyMagicCode('not-a-uuid', right, 5)).toBe('none');
      });

      test('a magic code dies after maxAttempts wrong tries, and at its expiry', async () => {
        const u = await user();
        const right = fresh();
        await store.issueMagicCode(u.id, right, new Date(t + 600_000));
        for (let i = 0; i < 5; i++)
          expect(await store.verifyMagicCode(u.id, fresh(), 5)).toBe('wrong');
        expect(await store.verifyMagicCode(u.id, right, 5)).toBe('none');
        // A new code starts afresh and replaces the old.
        const next = fresh();
        await store.issueMagicCode(u.id, next, new Date(t + 600_000));
        expect(await store.verifyMagicCode(u.id, right, 5)).toBe('wrong');
        t += 600_000;
        expect(await store.verifyMagicCode(u.id, next, 5)).toBe('none');
      });

      test('a new magic code kills the earlier one', async () => {
        const u = await user();
        const [first, second] = [fresh(), fresh()];
        await store.issueMagicCode(u.id, first, new Date(t + 600_000));
        await store.issueMagicCode(u.id, second, new Date(t + 600_000));
        expect(await store.verifyMagicCode(u.id, first, 5)).toBe('wrong');
        expect(await store.verifyMagicCode(u.id, second, 5)).toBe('ok');
      });

      test('concurrent magic-code checks never pass the try limit nor consume twice', async () => {
        const u = await user();
        const right = fresh();
        await store.issueMagicCode(u.id, right, new Date(t + 600_000));
        const wrongs = await Promise.all(
          Array.from({ length: 12 }, () => store.verifyMagicCode(u.id, fresh(), 5)),
        );
        expect(wrongs.filter((r) => r === 'wrong')).toHaveLength(5);
        expect(await store.verifyMagicCode(u.id, right, 5)).toBe('none');
        const v = await user();
        await store.issueMagicCode(v.id, right, new Date(t + 600_000));
        const oks = await Promise.all(
          Array.from({ length: 10 }, () => store.verifyMagicCode(v.id, right, 5)),
        );
        expect(oks.filter((r) => r === 'ok')).toHaveLength(1);
      });
    });

    describe('roles', () => {
      test('createRole, ensureRole, listRoles (sorted by code point)', async () => {
        expect(await store.createRole('editor', 'Edits')).toEqual({
          name: 'editor',
          description: 'Edits',
        });
        expect(await store.createRole('editor', 'again')).toBeNull();
        expect(await store.ensureRole('editor', 'ignored')).toEqual({
          name: 'editor',
          description: 'Edits',
        });
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

    describe('rate limits', () => {
      const key = (limit: number, windowMs = 60_000, name = `k-${randomUUID()}`) => ({
        key: name,
        limit,
        windowMs,
      });

      test('counts up to the limit, refuses the next with the time until the oldest hit leaves the window', async () => {
        const k = key(3);
        for (let i = 0; i < 3; i++) {
          expect(await store.hitRateLimit([k])).toEqual({ allowed: true });
          t += 10_000;
        }
        // Hits at T0, T0+10s, T0+20s; now T0+30s: the T0 hit leaves at T0+60s.
        expect(await store.hitRateLimit([k])).toEqual({ allowed: false, retryAfterMs: 30_000 });
        t = T0 + 59_999;
        expect(await store.hitRateLimit([k])).toEqual({ allowed: false, retryAfterMs: 1 });
        // The window slides: one hit has left, so one more passes, and the next waits for T0+10s.
        t = T0 + 60_000;
        expect(await store.hitRateLimit([k])).toEqual({ allowed: true });
        expect(await store.hitRateLimit([k])).toEqual({ allowed: false, retryAfterMs: 10_000 });
      });

      test('a refused request is not counted', async () => {
        const k = key(2, 1000);
        await store.hitRateLimit([k]);
        await store.hitRateLimit([k]);
        for (let i = 0; i < 5; i++) expect((await store.hitRateLimit([k])).allowed).toBe(false);
        t += 1000;
        expect(await store.hitRateLimit([k])).toEqual({ allowed: true });
        expect(await store.hitRateLimit([k])).toEqual({ allowed: true });
        expect((await store.hitRateLimit([k])).allowed).toBe(false);
      });

      test('several keys: counted against all or none; the longest wait wins', async () => {
        const full = key(1, 60_000);
        const roomy = key(3, 10_000);
        expect(await store.hitRateLimit([full, roomy])).toEqual({ allowed: true });
        t += 5_000;
        expect(await store.hitRateLimit([roomy, full])).toEqual({
          allowed: false,
          retryAfterMs: 55_000,
        });
        // `roomy` holds one hit, not two: two more pass, the third is refused.
        expect(await store.hitRateLimit([roomy])).toEqual({ allowed: true });
        expect(await store.hitRateLimit([roomy])).toEqual({ allowed: true });
        expect(await store.hitRateLimit([roomy])).toEqual({ allowed: false, retryAfterMs: 5_000 });
        expect(await store.hitRateLimit([key(1), roomy])).toEqual({
          allowed: false,
          retryAfterMs: 5_000,
        });
      });

      test('a limit lowered below the hits already counted waits for enough of them to leave', async () => {
        const name = `k-${randomUUID()}`;
        for (let i = 0; i < 4; i++) {
          await store.hitRateLimit([{ key: name, limit: 10, windowMs: 60_000 }]);
          t += 1_000;
        }
        // Hits at T0..T0+3s, now T0+4s; with limit 2, one may stay: the third leaves at T0+62s.
        expect(await store.hitRateLimit([{ key: name, limit: 2, windowMs: 60_000 }])).toEqual({
          allowed: false,
          retryAfterMs: 58_000,
        });
      });

      test('concurrent requests never exceed the limit', async () => {
        const k = key(5);
        const results = await Promise.all(
          Array.from({ length: 16 }, () => store.hitRateLimit([k])),
        );
        expect(results.filter((r) => r.allowed)).toHaveLength(5);
        const other = key(4);
        // Overlapping key sets in both orders at once: still exact, and no deadlock.
        const mixed = await Promise.all(
          Array.from({ length: 12 }, (_, i) => store.hitRateLimit(i % 2 ? [k, other] : [other, k])),
        );
        expect(mixed.filter((r) => r.allowed)).toHaveLength(0);
        t += 60_000;
        const again = await Promise.all(
          Array.from({ length: 12 }, (_, i) => store.hitRateLimit(i % 2 ? [k, other] : [other, k])),
        );
        expect(again.filter((r) => r.allowed)).toHaveLength(4);
      });

      test('pruneRateLimits deletes the counters whose hits have all left their window, and only those', async () => {
        const short = [key(5, 1_000), key(5, 1_000), key(5, 1_000)];
        const long = key(5, 60_000);
        for (const k of short) await store.hitRateLimit([k]);
        await store.hitRateLimit([long]);
        expect(await store.pruneRateLimits()).toBe(0);
        t += 1_000;
        expect(await store.pruneRateLimits()).toBe(3);
        expect(await store.pruneRateLimits()).toBe(0);
        // The long window's hit survived the sweep.
        for (let i = 0; i < 4; i++) await store.hitRateLimit([long]);
        expect((await store.hitRateLimit([long])).allowed).toBe(false);
        t += 60_000;
        expect(await store.pruneRateLimits()).toBe(1);
        expect(await store.hitRateLimit([long])).toEqual({ allowed: true });
      });

      test('sweeps running alongside requests neither fail them nor let more than the limit through', async () => {
        const keys = Array.from({ length: 6 }, () => key(3, 1_000));
        for (const k of keys) await store.hitRateLimit([k]);
        t += 1_000; // every counter has expired: the sweeps below want all of them
        const work = await Promise.all([
          ...Array.from({ length: 18 }, (_, i) =>
            store.hitRateLimit([keys[i % 6]!, keys[(i + 1) % 6]!]),
          ),
          ...Array.from({ length: 4 }, () => store.pruneRateLimits()),
        ]);
        const hits = work.slice(0, 18) as Array<{ allowed: boolean }>;
        // Each key takes 3 hits; each request charges two keys: at most 9 requests pass.
        expect(hits.filter((r) => r.allowed).length).toBeLessThanOrEqual(9);
        expect(hits.filter((r) => r.allowed).length).toBeGreaterThan(0);
      });

      test('refuses malformed keys', async () => {
        const k = key(1);
        await expect(store.hitRateLimit([])).rejects.toThrow(TypeError);
        await expect(store.hitRateLimit([k, k])).rejects.toThrow(TypeError);
        await expect(store.hitRateLimit([{ ...k, limit: 0 }])).rejects.toThrow(TypeError);
        await expect(store.hitRateLimit([{ ...k, windowMs: 1.5 }])).rejects.toThrow(TypeError);
      });
    });

    describe('webauthn', () => {
      const challenge = (userId: string | null, ceremony: 'register' | 'login' = 'register') => ({
        ceremony,
        userId,
        challengeHash: fresh(),
        expiresAt: new Date(t + 300_000),
      });
      const credential = (userId: string, credentialId = `cred-${randomUUID()}`) => ({
        credentialId,
        userId,
        publicKey: Uint8Array.from([0x30, 0x59, 1, 2, 3]),
        signCount: 0,
        name: 'Laptop',
        aaguid: '00'.repeat(16),
        backupEligible: true,
      });

      test('a challenge is consumed once, only for its ceremony, only before it expires', async () => {
        const u = await user();
        const c = challenge(u.id);
        const id = await store.createWebAuthnChallenge(c);
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
        expect(await store.consumeWebAuthnChallenge(id, 'login')).toBeNull();
        expect(await store.consumeWebAuthnChallenge(id, 'register')).toEqual({
          id,
          ceremony: 'register',
          userId: u.id,
          challengeHash: c.challengeHash,
          expiresAt: c.expiresAt,
          secondFactor: false,
        });
        expect(await store.consumeWebAuthnChallenge(id, 'register')).toBeNull();
        // A registration begun with the second factor proven says so at its finish.
        const proven = await store.createWebAuthnChallenge({
          ...challenge(u.id),
          secondFactor: true,
        });
        expect((await store.consumeWebAuthnChallenge(proven, 'register'))?.secondFactor).toBe(true);
        const late = await store.createWebAuthnChallenge(challenge(null, 'login'));
        t += 300_000;
        expect(await store.consumeWebAuthnChallenge(late, 'login')).toBeNull();
        expect(await store.consumeWebAuthnChallenge('not-a-uuid', 'login')).toBeNull();
        expect(await store.consumeWebAuthnChallenge(randomUUID(), 'login')).toBeNull();
      });

      test('concurrent consumers of one challenge: exactly one gets it', async () => {
        const id = await store.createWebAuthnChallenge(challenge(null, 'login'));
        const got = await Promise.all(
          Array.from({ length: 6 }, () => store.consumeWebAuthnChallenge(id, 'login')),
        );
        expect(got.filter((g) => g !== null)).toHaveLength(1);
      });

      test("credentials: create (unique id across users), find, list oldest first, delete only the owner's", async () => {
        const u = await user();
        const v = await user();
        const a = await store.createWebAuthnCredential(credential(u.id, 'cred-a'));
        expect(a).toEqual({
          ...credential(u.id, 'cred-a'),
          createdAt: new Date(t),
          lastUsedAt: null,
        });
        t += 1000;
        await store.createWebAuthnCredential(credential(u.id, 'cred-b'));
        expect(await store.createWebAuthnCredential(credential(v.id, 'cred-a'))).toBeNull();
        expect(await store.findWebAuthnCredential('cred-a')).toEqual(a);
        expect(await store.findWebAuthnCredential('cred-z')).toBeNull();
        expect((await store.listWebAuthnCredentials(u.id)).map((c) => c.credentialId)).toEqual([
          'cred-a',
          'cred-b',
        ]);
        expect(await store.listWebAuthnCredentials(v.id)).toEqual([]);
        expect(await store.listWebAuthnCredentials('not-a-uuid')).toEqual([]);
        expect(await store.deleteWebAuthnCredential(v.id, 'cred-a')).toBe(false);
        expect(await store.deleteWebAuthnCredential(u.id, 'cred-a')).toBe(true);
        expect(await store.deleteWebAuthnCredential(u.id, 'cred-a')).toBe(false);
        expect(await store.findWebAuthnCredential('cred-a')).toBeNull();
      });

      test('a use moves the counter forward only (0 and 0 always pass) and stamps lastUsedAt', async () => {
        const u = await user();
        await store.createWebAuthnCredential(credential(u.id, 'c0'));
        t += 5000;
        expect(await store.useWebAuthnCredential('c0', 0)).toBe(true);
        expect(await store.useWebAuthnCredential('c0', 0)).toBe(true);
        expect((await store.findWebAuthnCredential('c0'))?.lastUsedAt).toEqual(new Date(t));
        expect(await store.useWebAuthnCredential('c0', 4)).toBe(true);
        for (const n of [4, 3, 0]) expect(await store.useWebAuthnCredential('c0', n)).toBe(false);
        expect((await store.findWebAuthnCredential('c0'))?.signCount).toBe(4);
        expect(await store.useWebAuthnCredential('c0', 2 ** 32 - 1)).toBe(true);
        expect((await store.findWebAuthnCredential('c0'))?.signCount).toBe(2 ** 32 - 1);
        expect(await store.useWebAuthnCredential('missing', 9)).toBe(false);
        const racing = await Promise.all(
          Array.from({ length: 4 }, () => store.useWebAuthnCredential('c0', 2 ** 32 - 1)),
        );
        expect(racing.filter(Boolean)).toHaveLength(0);
      });
    });
    describe('mfa', () => {
      test('a TOTP enrolment is pending until confirmed; enrolling again replaces it', async () => {
        const u = await user();
        expect(await store.totpFactor(u.id)).toBeNull();
        expect(await store.mfaState(u.id)).toEqual({
          totpConfirmed: false,
          unusedRecoveryCodes: 0,
        });
        await store.putTotpSecret(u.id, 'sealed-1');
        expect(await store.totpFactor(u.id)).toEqual({
          userId: u.id,
          secretCiphertext: 'sealed-1',
          confirmedAt: null,
          lastUsedStep: null,
        });
        // Pending: no step can be used, the state owes nothing.
        expect(await store.useTotpStep(u.id, 5)).toBe(false);
        expect((await store.mfaState(u.id)).totpConfirmed).toBe(false);
        await store.putTotpSecret(u.id, 'sealed-2');
        // The first secret is gone: confirming it fails.
        expect(await store.confirmTotp(u.id, 'sealed-1', 10)).toBe(false);
        expect(await store.confirmTotp(u.id, 'sealed-2', 10)).toBe(true);
        expect(await store.confirmTotp(u.id, 'sealed-2', 11)).toBe(false);
        expect(await store.totpFactor(u.id)).toMatchObject({
          confirmedAt: new Date(T0),
          lastUsedStep: 10,
        });
        expect((await store.mfaState(u.id)).totpConfirmed).toBe(true);
        await store.putTotpSecret(u.id, 'sealed-3');
        expect(await store.totpFactor(u.id)).toMatchObject({
          confirmedAt: null,
          lastUsedStep: null,
        });
        expect(await store.deleteTotp(u.id)).toBe(true);
        expect(await store.deleteTotp(u.id)).toBe(false);
        expect(await store.totpFactor(u.id)).toBeNull();
      });

      test('TOTP steps only go forward, and of concurrent uses of one step exactly one wins', async () => {
        const u = await user();
        await store.putTotpSecret(u.id, 's');
        await store.confirmTotp(u.id, 's', 100);
        expect(await store.useTotpStep(u.id, 100)).toBe(false);
        expect(await store.useTotpStep(u.id, 99)).toBe(false);
        const wins = await Promise.all(
          Array.from({ length: 6 }, () => store.useTotpStep(u.id, 101)),
        );
        expect(wins.filter(Boolean)).toHaveLength(1);
        expect((await store.totpFactor(u.id))?.lastUsedStep).toBe(101);
        // Steps beyond 2^31 (bigint column) round-trip.
        expect(await store.useTotpStep(u.id, 3_000_000_000)).toBe(true);
        expect((await store.totpFactor(u.id))?.lastUsedStep).toBe(3_000_000_000);
      });

      test('recovery codes: a new batch kills the old; each code burns once, concurrently too', async () => {
        const u = await user();
        const other = await user();
        await store.replaceRecoveryCodes(u.id, ['a', 'b', 'c']);
        await store.replaceRecoveryCodes(other.id, ['a']);
        expect((await store.mfaState(u.id)).unusedRecoveryCodes).toBe(3);
        const wins = await Promise.all(
          Array.from({ length: 5 }, () => store.consumeRecoveryCode(u.id, 'a')),
        );
        expect(wins.filter(Boolean)).toHaveLength(1);
        expect((await store.mfaState(u.id)).unusedRecoveryCodes).toBe(2);
        // Another user's code of the same hash is untouched.
        expect((await store.mfaState(other.id)).unusedRecoveryCodes).toBe(1);
        await store.replaceRecoveryCodes(u.id, ['d']);
        expect(await store.consumeRecoveryCode(u.id, 'b')).toBe(false);
        expect(await store.consumeRecoveryCode(u.id, 'd')).toBe(true);
        expect((await store.mfaState(u.id)).unusedRecoveryCodes).toBe(0);
      });

      test('challenges: tries are counted up to the bound; expiry and consumption end them', async () => {
        const u = await user();
        await store.createMfaChallenge('h1', u.id, new Date(t + 300_000));
        for (let i = 0; i < 3; i++) expect(await store.attemptMfaChallenge('h1', 3)).toBe(u.id);
        expect(await store.attemptMfaChallenge('h1', 3)).toBeNull();
        expect(await store.attemptMfaChallenge('nope', 3)).toBeNull();

        await store.createMfaChallenge('h2', u.id, new Date(t + 300_000));
        const tries = await Promise.all(
          Array.from({ length: 8 }, () => store.attemptMfaChallenge('h2', 5)),
        );
        expect(tries.filter((x) => x === u.id)).toHaveLength(5);

        await store.createMfaChallenge('h3', u.id, new Date(t + 300_000));
        t += 300_000;
        expect(await store.attemptMfaChallenge('h3', 5)).toBeNull();
        expect(await store.completeMfaChallenge('h3', { kind: 'totp', step: 1 })).toBe(
          'challenge-dead',
        );
      });

      test('completing a challenge spends the proof with it, both or neither', async () => {
        const u = await user();
        await store.putTotpSecret(u.id, 's');
        await store.confirmTotp(u.id, 's', 100);
        await store.replaceRecoveryCodes(u.id, ['code']);
        await store.createMfaChallenge('c1', u.id, new Date(t + 300_000));
        // A replayed step: refused, and the challenge stays open.
        expect(await store.completeMfaChallenge('c1', { kind: 'totp', step: 100 })).toBe(
          'proof-refused',
        );
        expect(
          await store.completeMfaChallenge('c1', { kind: 'recovery-code', codeHash: 'x' }),
        ).toBe('proof-refused');
        expect(await store.completeMfaChallenge('c1', { kind: 'totp', step: 101 })).toBe(
          'completed',
        );
        expect(await store.completeMfaChallenge('c1', { kind: 'totp', step: 102 })).toBe(
          'challenge-dead',
        );
        // The dead challenge did not spend step 102.
        expect((await store.totpFactor(u.id))?.lastUsedStep).toBe(101);

        await store.createMfaChallenge('c2', u.id, new Date(t + 300_000));
        const results = await Promise.all(
          Array.from({ length: 4 }, () =>
            store.completeMfaChallenge('c2', { kind: 'recovery-code', codeHash: 'code' }),
          ),
        );
        expect(results.filter((r) => r === 'completed')).toHaveLength(1);
        expect((await store.mfaState(u.id)).unusedRecoveryCodes).toBe(0);
      });
    });
    // OAuth / OIDC (oauth/): states, identities, one-time codes.
    describe('proveEmail: a sign-in proved the address (issue 26, pre-account takeover)', () => {
      /** Everything a pre-account can hold: sessions, tokens, a passkey, a link, a code, MFA. */
      async function preAccount() {
        // Made with a provider account linked without the provider vouching for the address.
        const u = await store.createUserWithIdentity(
          { email: `pre${randomUUID().slice(0, 8)}@example.com`, passwordHash: '$2b$04$hash' },
          { provider: 'idp', subject: 'before', email: null },
        );
        const other = await user();
        await store.proveEmail(other.id, { provider: 'idp', subject: 'other', email: null });
        const attackerSession = session(u.id);
        const held = {
          attackerSession,
          session: await store.createSession(attackerSession),
          otherUsersSession: await store.createSession(session(other.id)),
          reset: fresh(),
          verification: fresh(),
          oauthCode: fresh(),
        };
        await store.issueResetToken(u.id, held.reset, new Date(t + 3_600_000));
        await store.issueVerificationToken(u.id, held.verification, new Date(t + 3_600_000));
        await store.createWebAuthnCredential({
          credentialId: `cred-${randomUUID()}`,
          userId: u.id,
          publicKey: Uint8Array.from([0x30, 0x59, 1, 2, 3]),
          signCount: 0,
          name: 'Attacker key',
          aaguid: '00'.repeat(16),
          backupEligible: false,
        });
        await store.createUserWithIdentity(
          { email: `l${randomUUID().slice(0, 8)}@example.com`, passwordHash: null },
          { provider: 'idp', subject: 'unrelated', email: null },
        );
        await store.putTotpSecret(u.id, 'sealed');
        await store.confirmTotp(u.id, 'sealed', 1);
        await store.replaceRecoveryCodes(u.id, ['r1', 'r2']);
        await store.createMfaChallenge('open-challenge', u.id, new Date(t + 300_000));
        await store.issueOAuthCode({
          codeHash: held.oauthCode,
          userId: u.id,
          provider: 'idp',
          codeChallenge: null,
          expiresAt: new Date(t + 120_000),
        });
        return { u, other, ...held };
      }

      for (const link of [undefined, { provider: 'idp', subject: 'proof', email: 'p@example.com' }])
        test(`an unverified address ${link ? 'with a link' : 'alone'}: verified; password, passkeys, earlier links, sessions and everything in flight dropped; second factors kept`, async () => {
          const p = await preAccount();
          t += 1000;
          const proof = await store.proveEmail(p.u.id, link);
          expect(proof).toEqual({
            user: { ...p.u, emailVerified: true, passwordHash: null, updatedAt: new Date(t) },
            proved: true,
          });
          expect(await store.findUserById(p.u.id)).toEqual(proof?.user);
          expect((await store.sessionState(p.session.accessJti))?.revoked).toBe(true);
          expect(
            await store.rotateSession(
              p.attackerSession.refreshHash,
              {
                accessJti: randomUUID(),
                refreshHash: fresh(),
                expiresAt: new Date(t + 3_600_000),
              },
              hourAgo(),
            ),
          ).toBeNull();
          expect(await store.consumeResetToken(p.reset)).toBeNull();
          expect(await store.consumeVerificationToken(p.verification)).toBeNull();
          expect(await store.consumeOAuthCode(p.oauthCode)).toBeNull();
          expect(await store.attemptMfaChallenge('open-challenge', 5)).toBeNull();
          expect(await store.listWebAuthnCredentials(p.u.id)).toEqual([]);
          expect((await store.listIdentities(p.u.id)).map((i) => i.subject)).toEqual(
            link ? ['proof'] : [],
          );
          // Kept: the second factor, and everything of other users.
          expect(await store.mfaState(p.u.id)).toEqual({
            totpConfirmed: true,
            unusedRecoveryCodes: 2,
          });
          expect((await store.sessionState(p.otherUsersSession.accessJti))?.revoked).toBe(false);
          expect((await store.findUserByIdentity('idp', 'other'))?.id).toBe(p.other.id);
          expect(await store.findUserByIdentity('idp', 'unrelated')).not.toBeNull();
          // A session made after the proof (the prover's own) lives; proving again is a no-op.
          const mine = await store.createSession(session(p.u.id));
          expect(await store.proveEmail(p.u.id)).toMatchObject({ proved: false });
          expect((await store.sessionState(mine.accessJti))?.revoked).toBe(false);
        });

      test('a verified address: nothing is dropped, only the link is made', async () => {
        const u = await user();
        await store.markEmailVerified(u.id);
        const s = await store.createSession(session(u.id));
        const reset = fresh();
        await store.issueResetToken(u.id, reset, new Date(t + 3_600_000));
        await store.proveEmail(u.id, { provider: 'idp', subject: 'first', email: null });
        const proof = await store.proveEmail(u.id, {
          provider: 'idp',
          subject: 'second',
          email: null,
        });
        expect(proof).toMatchObject({
          user: { id: u.id, emailVerified: true, passwordHash: '$2b$04$hash' },
          proved: false,
        });
        expect((await store.sessionState(s.accessJti))?.revoked).toBe(false);
        expect(await store.consumeResetToken(reset)).toBe(u.id);
        expect((await store.listIdentities(u.id)).map((i) => i.subject)).toEqual([
          'first',
          'second',
        ]);
      });

      test('concurrent proofs of one address: exactly one proves it', async () => {
        const u = await user();
        const results = await Promise.all(Array.from({ length: 5 }, () => store.proveEmail(u.id)));
        expect(results.filter((r) => r?.proved)).toHaveLength(1);
      });

      test('sessions rotated while the proof runs are dropped with the rest', async () => {
        // The attack: keep refreshing the pre-account's session while the owner proves the
        // address, hoping a rotation slips its new session past the revocation.
        for (let round = 0; round < 10; round++) {
          const u = await user();
          let current = session(u.id);
          await store.createSession(current);
          const rotations = (async () => {
            for (let i = 0; i < 8; i++) {
              const following = session(u.id);
              const r = await store.rotateSession(current.refreshHash, following, hourAgo());
              if (!r) return;
              current = following;
            }
          })();
          const [proof] = await Promise.all([store.proveEmail(u.id), rotations]);
          expect(proof?.proved).toBe(true);
          expect(await store.listLiveSessions(u.id, hourAgo())).toEqual([]);
        }
      }, 60_000);
    });

    describe('oauth', () => {
      const newState = (over: Partial<NewOAuthState> = {}): NewOAuthState => ({
        stateHash: fresh(),
        provider: 'idp',
        redirectUri: 'https://app.example.com/cb',
        callbackUrl: 'https://api.example.com/auth/oauth/idp/callback',
        nonceHash: fresh(),
        verifierSealed: 'sealed',
        codeChallenge: null,
        expiresAt: new Date(t + 600_000),
        ...over,
      });

      test('a state is consumed once, by its provider, before it expires', async () => {
        const st = newState({ codeChallenge: 'c'.repeat(43) });
        await store.createOAuthState(st);
        expect(await store.consumeOAuthState(st.stateHash, 'other')).toBeNull();
        expect(await store.consumeOAuthState(st.stateHash, 'idp')).toEqual({
          provider: 'idp',
          redirectUri: st.redirectUri,
          callbackUrl: st.callbackUrl,
          nonceHash: st.nonceHash,
          verifierSealed: 'sealed',
          codeChallenge: 'c'.repeat(43),
        });
        expect(await store.consumeOAuthState(st.stateHash, 'idp')).toBeNull();
        const late = newState();
        await store.createOAuthState(late);
        t += 600_000;
        expect(await store.consumeOAuthState(late.stateHash, 'idp')).toBeNull();
        expect(await store.consumeOAuthState(fresh(), 'idp')).toBeNull();
      });

      test('concurrent callbacks with one state: exactly one consumes it', async () => {
        const st = newState();
        await store.createOAuthState(st);
        const results = await Promise.all(
          Array.from({ length: 5 }, () => store.consumeOAuthState(st.stateHash, 'idp')),
        );
        expect(results.filter((r) => r !== null)).toHaveLength(1);
      });

      test('createUserWithIdentity makes both; findUserByIdentity finds the user', async () => {
        const u = await store.createUserWithIdentity(
          { email: 'Oa@Example.com', passwordHash: null, emailVerified: true },
          { provider: 'idp', subject: 's-1', email: 'Oa@Example.com' },
        );
        expect(u).toMatchObject({
          email: 'oa@example.com',
          passwordHash: null,
          emailVerified: true,
        });
        expect((await store.findUserByIdentity('idp', 's-1'))?.id).toBe(u.id);
        expect(await store.findUserByIdentity('idp', 's-2')).toBeNull();
        expect(await store.findUserByIdentity('other', 's-1')).toBeNull();
        expect(await store.listIdentities(u.id)).toEqual([
          {
            provider: 'idp',
            subject: 's-1',
            email: 'oa@example.com',
            userId: u.id,
            createdAt: new Date(T0),
          },
        ]);
      });

      test('createUserWithIdentity: a taken email or identity writes nothing', async () => {
        await store.createUserWithIdentity(
          { email: 'one@example.com', passwordHash: null },
          { provider: 'idp', subject: 's-1', email: null },
        );
        await expect(
          store.createUserWithIdentity(
            { email: 'two@example.com', passwordHash: null },
            { provider: 'idp', subject: 's-1', email: null },
          ),
        ).rejects.toMatchObject({ code: 'USER_ALREADY_EXISTS' });
        expect(await store.findUserByEmail('two@example.com')).toBeNull();
        await expect(
          store.createUserWithIdentity(
            { email: 'one@example.com', passwordHash: null },
            { provider: 'idp', subject: 's-2', email: null },
          ),
        ).rejects.toMatchObject({ code: 'USER_ALREADY_EXISTS' });
        expect(await store.findUserByIdentity('idp', 's-2')).toBeNull();
      });

      test('proveEmail with a link: a user may have several; one identity belongs to one user', async () => {
        const a = await user();
        const b = await user();
        await store.markEmailVerified(a.id);
        await store.markEmailVerified(b.id);
        const first = await store.proveEmail(a.id, { provider: 'idp', subject: 'x', email: null });
        expect(first).toMatchObject({ user: { id: a.id }, proved: false });
        t += 1;
        await store.proveEmail(a.id, { provider: 'gh', subject: '42', email: null });
        // Linking the same identity again is a no-op.
        await store.proveEmail(a.id, { provider: 'idp', subject: 'x', email: null });
        expect((await store.listIdentities(a.id)).map((i) => `${i.provider}:${i.subject}`)).toEqual(
          ['idp:x', 'gh:42'],
        );
        await expect(
          store.proveEmail(b.id, { provider: 'idp', subject: 'x', email: null }),
        ).rejects.toMatchObject({ code: 'USER_ALREADY_EXISTS' });
        expect(await store.listIdentities(b.id)).toEqual([]);
        expect(
          await store.proveEmail(randomUUID(), { provider: 'idp', subject: 'y', email: null }),
        ).toBeNull();
        expect(await store.proveEmail('not-a-uuid')).toBeNull();
      });

      test('proveEmail of an address linked to another user changes nothing, even when unverified', async () => {
        const a = await user();
        const b = await user();
        await store.proveEmail(a.id, { provider: 'idp', subject: 'x', email: null });
        const s = await store.createSession(session(b.id));
        await expect(
          store.proveEmail(b.id, { provider: 'idp', subject: 'x', email: null }),
        ).rejects.toMatchObject({ code: 'USER_ALREADY_EXISTS' });
        expect(await store.findUserById(b.id)).toMatchObject({
          emailVerified: false,
          passwordHash: '$2b$04$hash',
        });
        expect((await store.sessionState(s.accessJti))?.revoked).toBe(false);
      });
      test('a code is consumed once before it expires', async () => {
        const u = await user();
        const codeHash = fresh();
        await store.issueOAuthCode({
          codeHash,
          userId: u.id,
          provider: 'idp',
          codeChallenge: null,
          expiresAt: new Date(t + 120_000),
        });
        const results = await Promise.all(
          Array.from({ length: 4 }, () => store.consumeOAuthCode(codeHash)),
        );
        expect(results.filter((r) => r !== null)).toEqual([
          { userId: u.id, provider: 'idp', codeChallenge: null },
        ]);
        const late = fresh();
        await store.issueOAuthCode({
          codeHash: late,
          userId: u.id,
          provider: 'idp',
          codeChallenge: 'c'.repeat(43),
          expiresAt: new Date(t + 120_000),
        });
        t += 120_000;
        expect(await store.consumeOAuthCode(late)).toBeNull();
      });
    });
  });
}
