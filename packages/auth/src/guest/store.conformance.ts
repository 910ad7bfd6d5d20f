/** Conformance cases of the guest verbs (`guest/store.ts`). */
import { randomUUID } from 'node:crypto';
import { T0, fresh, type StoreCaseScope } from '../store/conformance-kit';

/** Run by `defineStoreConformance` inside its top-level describe. */
export function guestStoreCases(cx: StoreCaseScope): void {
  const { describe, test, expect } = cx.api;
  const { user, session } = cx;
  describe('sessions: families, lists, guests (issue 12)', () => {
    test('guests: createUser isAnonymous; upgradeAnonymousUser once, same id, sessions revoked', async () => {
      const g = await cx.store.createUser({
        email: `${randomUUID()}@anonymous.invalid`,
        passwordHash: null,
        isAnonymous: true,
      });
      expect(g).toMatchObject({ isAnonymous: true, passwordHash: null });
      expect(
        (await cx.store.createUser({ email: 'plain@example.com', passwordHash: 'h' })).isAnonymous,
      ).toBe(false);
      const s = await cx.store.createSession(session(g.id));
      await expect(
        cx.store.upgradeAnonymousUser(g.id, 'plain@example.com', '$2b$04$x'),
      ).rejects.toMatchObject({ code: 'USER_ALREADY_EXISTS' });
      expect((await cx.store.findUserById(g.id))?.isAnonymous).toBe(true);
      expect((await cx.store.sessionState(s.accessJti))?.revoked).toBe(false);
      cx.t += 1000;
      const up = await cx.store.upgradeAnonymousUser(g.id, 'Guest@Example.com', '$2b$04$x');
      expect(up).toMatchObject({
        id: g.id,
        email: 'guest@example.com',
        passwordHash: '$2b$04$x',
        isAnonymous: false,
        emailVerified: false,
      });
      expect(up?.updatedAt.getTime()).toBe(T0 + 1000);
      expect((await cx.store.sessionState(s.accessJti))?.revoked).toBe(true);
      expect(await cx.store.upgradeAnonymousUser(g.id, 'again@example.com', 'h')).toBeNull();
      expect(await cx.store.upgradeAnonymousUser(randomUUID(), 'x@example.com', 'h')).toBeNull();
      const plain = await cx.store.findUserByEmail('plain@example.com');
      expect(await cx.store.upgradeAnonymousUser(plain!.id, 'y@example.com', 'h')).toBeNull();
    });

    const guest = () =>
      cx.store.createUser({
        email: `${randomUUID()}@anonymous.invalid`,
        passwordHash: null,
        isAnonymous: true,
      });
    test('deleteInactiveGuests: guests made and idle since the cut-off go, with all they hold', async () => {
      const idle = await guest();
      const idleSession = session(idle.id);
      await cx.store.createSession(idleSession);
      await cx.store.issueMagicLinkToken(idle.id, fresh(), new Date(cx.t + 900_000));
      const busy = await guest();
      const busySession = await cx.store.createSession(session(busy.id));
      const upgraded = await guest();
      await cx.store.upgradeAnonymousUser(
        upgraded.id,
        `up${randomUUID().slice(0, 8)}@example.com`,
        'h',
      );
      const regular = await user();
      cx.t += 10_000;
      await cx.store.touchSession(busySession.id);
      const young = await guest();
      cx.t += 10_000;
      // Cut-off T0 + 5 s: `idle` was made and last active before; `busy` was active after;
      // `young` was made after; `upgraded` and `regular` are not guests.
      expect(await cx.store.deleteInactiveGuests(new Date(T0 + 5_000), 100)).toBe(1);
      expect(await cx.store.findUserById(idle.id)).toBeNull();
      expect(await cx.store.sessionState(idleSession.accessJti)).toBeNull();
      expect(await cx.store.refreshState(idleSession.refreshHash)).toBeNull();
      for (const kept of [busy, upgraded, regular, young])
        expect((await cx.store.findUserById(kept.id))?.id).toBe(kept.id);
      expect(await cx.store.deleteInactiveGuests(new Date(T0 + 5_000), 100)).toBe(0);
      // The cut-off moved past everyone: only guests go.
      expect(await cx.store.deleteInactiveGuests(new Date(cx.t), 100)).toBe(2);
      expect(await cx.store.findUserById(upgraded.id)).not.toBeNull();
      expect(await cx.store.findUserById(regular.id)).not.toBeNull();
    });

    test('deleteInactiveGuests: at most `limit`, oldest first; concurrent sweeps delete each guest once', async () => {
      const made = [];
      for (let i = 0; i < 12; i++) {
        made.push(await guest());
        cx.t += 1;
      }
      expect(await cx.store.deleteInactiveGuests(new Date(cx.t), 5)).toBe(5);
      expect(await cx.store.findUserById(made[4]!.id)).toBeNull();
      expect(await cx.store.findUserById(made[5]!.id)).not.toBeNull();
      const counts = await Promise.all(
        Array.from({ length: 4 }, () => cx.store.deleteInactiveGuests(new Date(cx.t), 3)),
      );
      // Seven left, four sweepers of three: each guest is counted by one sweeper at most.
      expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(7);
      const left = (await Promise.all(made.map((g) => cx.store.findUserById(g.id)))).filter(
        (u) => u !== null,
      ).length;
      expect(counts.reduce((a, b) => a + b, 0)).toBe(7 - left);
      expect(await cx.store.deleteInactiveGuests(new Date(cx.t), 100)).toBe(left);
    });

    test('concurrent upgrades of one guest: exactly one wins', async () => {
      const g = await cx.store.createUser({
        email: `${randomUUID()}@anonymous.invalid`,
        passwordHash: null,
        isAnonymous: true,
      });
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, (_, i) =>
          cx.store.upgradeAnonymousUser(g.id, `race${i}@example.com`, 'h'),
        ),
      );
      const won = results.filter((r) => r.status === 'fulfilled' && r.value !== null);
      expect(won).toHaveLength(1);
    });
  });
}
