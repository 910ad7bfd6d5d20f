/** Conformance cases of the account verbs (`account/store.ts`). */
import { randomUUID } from 'node:crypto';
import { T0, fresh, type StoreCaseScope } from '../store/conformance-kit';

/** Run by `defineStoreConformance` inside its top-level describe. */
export function accountStoreCases(cx: StoreCaseScope): void {
  const { describe, test, expect } = cx.api;
  const { user, session } = cx;
  describe('accounts', () => {
    test('createUser lower-cases the email and fills defaults', async () => {
      const u = await cx.store.createUser({
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
        await cx.store.createUser({ email: 'ann@example.com', username: 'ann', passwordHash: 'h' });
        await expect(cx.store.createUser({ passwordHash: 'h', ...second })).rejects.toMatchObject({
          code: 'USER_ALREADY_EXISTS',
        });
      });

    test('concurrent registrations of one email: exactly one wins', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () =>
          cx.store.createUser({ email: 'race@example.com', passwordHash: 'h' }),
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
      expect((await cx.store.findUserById(u.id))?.email).toBe('bob@example.com');
      expect((await cx.store.findUserByEmail('BOB@EXAMPLE.com'))?.id).toBe(u.id);
      expect((await cx.store.findUserByLogin({ email: 'Bob@example.com' }))?.id).toBe(u.id);
      expect((await cx.store.findUserByLogin({ username: 'Bob' }))?.id).toBe(u.id);
      expect((await cx.store.findUserByLogin({ username: 'bOB' }))?.id).toBe(u.id);
      expect(await cx.store.findUserByLogin({ username: 'bobby' })).toBeNull();
      expect(await cx.store.findUserById(randomUUID())).toBeNull();
      expect(await cx.store.findUserById('not-a-uuid')).toBeNull();
      expect(await cx.store.findUserByEmail('nobody@example.com')).toBeNull();
    });

    test('replacePassword swaps the hash, revokes every session, bumps updatedAt', async () => {
      const u = await user();
      const a = await cx.store.createSession(session(u.id));
      const b = await cx.store.createSession(session(u.id));
      cx.t += 1000;
      expect(await cx.store.replacePassword(u.id, 'new-hash')).toBe(true);
      const after = await cx.store.findUserById(u.id);
      expect(after?.passwordHash).toBe('new-hash');
      expect(after?.updatedAt.getTime()).toBe(T0 + 1000);
      expect((await cx.store.sessionState(a.accessJti))?.revoked).toBe(true);
      expect((await cx.store.sessionState(b.accessJti))?.revoked).toBe(true);
      expect(await cx.store.replacePassword(randomUUID(), 'x')).toBe(false);
    });

    test("replacePassword consumes the live reset tokens of the user (and no one else's)", async () => {
      const u = await user();
      const other = await user();
      const [h, ho] = [fresh(), fresh()];
      await cx.store.issueResetToken(u.id, h, new Date(cx.t + 3_600_000));
      await cx.store.issueResetToken(other.id, ho, new Date(cx.t + 3_600_000));
      await cx.store.replacePassword(u.id, 'new-hash');
      expect(await cx.store.consumeResetToken(h)).toBeNull();
      expect(await cx.store.consumeResetToken(ho)).toBe(other.id);
    });

    test('rehashPassword replaces the hash only while it is unchanged, and keeps sessions', async () => {
      const u = await user();
      const s = await cx.store.createSession(session(u.id));
      expect(await cx.store.rehashPassword(u.id, 'not-the-hash', 'x')).toBe(false);
      expect(await cx.store.rehashPassword(u.id, '$2b$04$hash', 'rehashed')).toBe(true);
      expect((await cx.store.findUserById(u.id))?.passwordHash).toBe('rehashed');
      expect((await cx.store.sessionState(s.accessJti))?.revoked).toBe(false);
      expect(await cx.store.rehashPassword(randomUUID(), 'rehashed', 'y')).toBe(false);
    });

    test('listUsers: oldest first, paged, with sorted roles and the total', async () => {
      expect(await cx.store.listUsers({ limit: 10, offset: 0 })).toEqual({ users: [], total: 0 });
      const made = [];
      for (let i = 0; i < 5; i++) {
        made.push(await user(`list${i}@example.com`));
        cx.t += 1000;
      }
      await cx.store.createRole('zeta', null);
      await cx.store.createRole('alpha', null);
      await cx.store.assignRole(made[1]!.id, 'zeta');
      await cx.store.assignRole(made[1]!.id, 'alpha');
      const first = await cx.store.listUsers({ limit: 2, offset: 0 });
      expect(first.total).toBe(5);
      expect(first.users.map((u) => u.email)).toEqual(['list0@example.com', 'list1@example.com']);
      expect(first.users.map((u) => u.roles)).toEqual([[], ['alpha', 'zeta']]);
      expect(first.users[0]).toMatchObject({
        id: made[0]!.id,
        active: true,
        emailVerified: false,
      });
      const rest = await cx.store.listUsers({ limit: 10, offset: 2 });
      expect(rest.users.map((u) => u.email)).toEqual([
        'list2@example.com',
        'list3@example.com',
        'list4@example.com',
      ]);
      expect(await cx.store.listUsers({ limit: 10, offset: 5 })).toEqual({ users: [], total: 5 });
    });

    test('markEmailVerified and setActive', async () => {
      const u = await user();
      expect(await cx.store.markEmailVerified(u.id)).toBe(true);
      expect(await cx.store.setActive(u.id, false)).toBe(true);
      expect(await cx.store.findUserById(u.id)).toMatchObject({
        emailVerified: true,
        active: false,
      });
      expect(await cx.store.setActive(randomUUID(), true)).toBe(false);
      expect(await cx.store.setActive(randomUUID(), false)).toBe(false);
      expect(await cx.store.markEmailVerified(randomUUID())).toBe(false);
    });

    test('deactivation revokes every session of the user; reactivation does not revive them', async () => {
      const u = await user();
      const other = await user();
      const a = await cx.store.createSession(session(u.id));
      const b = await cx.store.createSession(session(other.id));
      await cx.store.setActive(u.id, false);
      expect((await cx.store.sessionState(a.accessJti))?.revoked).toBe(true);
      expect((await cx.store.sessionState(b.accessJti))?.revoked).toBe(false);
      await cx.store.setActive(u.id, true);
      expect((await cx.store.sessionState(a.accessJti))?.revoked).toBe(true);
    });

    test('sessionUser: the same state as sessionState, with the whole user, or null', async () => {
      const u = await user();
      const s = await cx.store.createSession(session(u.id));
      const found = await cx.store.sessionUser(s.accessJti);
      expect(found?.state).toEqual(await cx.store.sessionState(s.accessJti));
      expect(found?.user).toEqual(await cx.store.findUserById(u.id));
      await cx.store.setActive(u.id, false);
      expect((await cx.store.sessionUser(s.accessJti))?.state).toMatchObject({
        revoked: true,
        userActive: false,
      });
      expect(await cx.store.sessionUser(randomUUID())).toBeNull();
    });
  });
}
