/** Conformance cases of the session verbs (`session/store.ts`). */
import { randomUUID } from 'node:crypto';
import { T0, fresh, type StoreCaseScope } from '../store/conformance-kit';
import type { AuthStore } from '../store/types';

/** Run by `defineStoreConformance` inside its top-level describe. */
export function sessionStoreCases(cx: StoreCaseScope): void {
  const { describe, test, expect } = cx.api;
  const { user, session, hourAgo } = cx;
  describe('sessions', () => {
    test('createSession, then its state by jti', async () => {
      const u = await user();
      const s = await cx.store.createSession(session(u.id, { ip: '10.0.0.1', userAgent: 'jest' }));
      expect(s).toMatchObject({
        userId: u.id,
        ip: '10.0.0.1',
        userAgent: 'jest',
        revokedAt: null,
      });
      expect(s.createdAt.getTime()).toBe(T0);
      expect(s.lastActivityAt.getTime()).toBe(T0);
      expect(await cx.store.sessionState(s.accessJti)).toEqual({
        sessionId: s.id,
        userId: u.id,
        revoked: false,
        lastActivityAt: new Date(T0),
        userActive: true,
        aal: 'aal1',
      });
      expect(s.aal).toBe('aal1');
      await cx.store.setActive(u.id, false);
      expect((await cx.store.sessionState(s.accessJti))?.userActive).toBe(false);
      expect(await cx.store.sessionState(randomUUID())).toBeNull();
    });

    test('touchSession moves last activity forward only', async () => {
      const u = await user();
      const s = await cx.store.createSession(session(u.id));
      cx.t += 5000;
      await cx.store.touchSession(s.id);
      expect((await cx.store.sessionState(s.accessJti))?.lastActivityAt.getTime()).toBe(T0 + 5000);
      cx.t -= 3000;
      await cx.store.touchSession(s.id);
      expect((await cx.store.sessionState(s.accessJti))?.lastActivityAt.getTime()).toBe(T0 + 5000);
    });

    test('raiseSessionAssurance raises a live session to aal2 and leaves others alone', async () => {
      const u = await user();
      const a = await cx.store.createSession(session(u.id));
      const b = await cx.store.createSession(session(u.id));
      await cx.store.raiseSessionAssurance(a.id);
      expect((await cx.store.sessionState(a.accessJti))?.aal).toBe('aal2');
      expect((await cx.store.sessionState(b.accessJti))?.aal).toBe('aal1');
      await cx.store.raiseSessionAssurance(a.id);
      expect((await cx.store.sessionState(a.accessJti))?.aal).toBe('aal2');
    });

    test('rotateSession revokes the old session and creates the next for the same user', async () => {
      const u = await user();
      const old = session(u.id);
      const created = await cx.store.createSession(old);
      expect(await cx.store.refreshState(old.refreshHash)).toEqual({
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
        expiresAt: new Date(cx.t + 7_200_000),
      };
      const rotated = await cx.store.rotateSession(old.refreshHash, next, hourAgo());
      expect(rotated?.previous.revokedAt?.getTime()).toBe(T0);
      expect(rotated?.next).toMatchObject({
        userId: u.id,
        accessJti: next.accessJti,
        revokedAt: null,
      });
      expect((await cx.store.sessionState(old.accessJti))?.revoked).toBe(true);
      expect((await cx.store.sessionState(next.accessJti))?.revoked).toBe(false);
      // the used refresh token is dead
      expect((await cx.store.refreshState(old.refreshHash))?.revoked).toBe(true);
      expect(
        await cx.store.rotateSession(
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
          cx.t = T0 + 1000;
          return x.refreshHash;
        },
      ],
      [
        'idle',
        async (s: AuthStore, uid: string) => {
          const x = session(uid, { expiresAt: new Date(T0 + 7 * 3_600_000) });
          await s.createSession(x);
          cx.t = T0 + 3_600_000; // last activity T0 is not after activeSince (an hour ago)
          return x.refreshHash;
        },
      ],
    ];
    for (const [name, make] of dead)
      test(`rotateSession of an ${name} refresh token is null`, async () => {
        const u = await user();
        const h = await make(cx.store, u.id);
        expect(
          await cx.store.rotateSession(
            h,
            { accessJti: randomUUID(), refreshHash: fresh(), expiresAt: new Date(cx.t + 1e6) },
            hourAgo(),
          ),
        ).toBeNull();
      });

    test('rotateSession refuses a live session of a deactivated user (checked in the same statement)', async () => {
      const u = await user();
      await cx.store.setActive(u.id, false);
      const x = session(u.id); // made after the deactivation (a race with it), so not revoked by it
      await cx.store.createSession(x);
      expect((await cx.store.refreshState(x.refreshHash))?.userActive).toBe(false);
      expect(
        await cx.store.rotateSession(
          x.refreshHash,
          { accessJti: randomUUID(), refreshHash: fresh(), expiresAt: new Date(cx.t + 1e6) },
          hourAgo(),
        ),
      ).toBeNull();
      expect(await cx.store.refreshState(fresh())).toBeNull();
    });

    test('ten concurrent rotations of one refresh token: exactly one succeeds', async () => {
      const u = await user();
      const old = session(u.id);
      await cx.store.createSession(old);
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          cx.store.rotateSession(
            old.refreshHash,
            { accessJti: randomUUID(), refreshHash: fresh(), expiresAt: new Date(cx.t + 1e6) },
            hourAgo(),
          ),
        ),
      );
      expect(results.filter((r) => r !== null)).toHaveLength(1);
    });

    test('revokeSession and revokeUserSessions', async () => {
      const u = await user();
      const other = await user();
      const a = await cx.store.createSession(session(u.id));
      const b = await cx.store.createSession(session(u.id));
      const c = await cx.store.createSession(session(other.id));
      await cx.store.revokeSession(a.id);
      expect((await cx.store.sessionState(a.accessJti))?.revoked).toBe(true);
      expect(await cx.store.revokeUserSessions(u.id)).toBe(1);
      expect((await cx.store.sessionState(b.accessJti))?.revoked).toBe(true);
      expect((await cx.store.sessionState(c.accessJti))?.revoked).toBe(false);
      expect(await cx.store.revokeUserSessions(randomUUID())).toBe(0);
    });
  });
  describe('sessions: assurance levels (issue 26)', () => {
    test('a session keeps the level it was created with; rotation copies it', async () => {
      const u = await user();
      const strong = session(u.id, { aal: 'aal2' });
      const weak = session(u.id);
      const a = await cx.store.createSession(strong);
      const b = await cx.store.createSession(weak);
      expect([a.aal, b.aal]).toEqual(['aal2', 'aal1']);
      expect((await cx.store.sessionState(strong.accessJti))?.aal).toBe('aal2');
      expect((await cx.store.refreshState(strong.refreshHash))?.aal).toBe('aal2');
      expect((await cx.store.sessionState(weak.accessJti))?.aal).toBe('aal1');
      const next = () => ({
        accessJti: randomUUID(),
        refreshHash: fresh(),
        expiresAt: new Date(cx.t + 7_200_000),
      });
      const n1 = next();
      const r1 = await cx.store.rotateSession(strong.refreshHash, n1, hourAgo());
      expect(r1?.next.aal).toBe('aal2');
      expect((await cx.store.sessionState(n1.accessJti))?.aal).toBe('aal2');
      const n2 = next();
      expect((await cx.store.rotateSession(weak.refreshHash, n2, hourAgo()))?.next.aal).toBe(
        'aal1',
      );
      expect((await cx.store.refreshState(n2.refreshHash))?.aal).toBe('aal1');
      const listed = await cx.store.listLiveSessions(u.id, hourAgo());
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
      expiresAt: new Date(cx.t + 7_200_000),
    });
    test('rotation carries the family and stamps rotatedAt; revokeSessionFamily ends the chain only', async () => {
      const u = await user();
      const first = session(u.id);
      const a = await cx.store.createSession(first);
      expect(a.familyId).toBe(a.id);
      const other = await cx.store.createSession(session(u.id));
      cx.t += 1000;
      const n1 = next();
      const r1 = await cx.store.rotateSession(first.refreshHash, n1, hourAgo());
      expect(r1?.next.familyId).toBe(a.id);
      const n2 = next();
      const r2 = await cx.store.rotateSession(n1.refreshHash, n2, hourAgo());
      expect(r2?.next.familyId).toBe(a.id);
      expect(await cx.store.refreshState(first.refreshHash)).toMatchObject({
        revoked: true,
        familyId: a.id,
        rotatedAt: new Date(T0 + 1000),
      });
      expect((await cx.store.refreshState(n2.refreshHash))?.rotatedAt).toBeNull();
      // a session ended another way is not "rotated"
      await cx.store.revokeSession(other.id);
      expect(await cx.store.revokeSessionFamily(a.id)).toBe(1);
      expect((await cx.store.sessionState(n2.accessJti))?.revoked).toBe(true);
      expect(await cx.store.revokeSessionFamily(a.id)).toBe(0);
      expect(await cx.store.revokeSessionFamily(randomUUID())).toBe(0);
      const c = await cx.store.createSession(session(u.id));
      expect(await cx.store.revokeSessionFamily(a.id)).toBe(0);
      expect((await cx.store.sessionState(c.accessJti))?.revoked).toBe(false);
      const otherState = await cx.store.refreshState(fresh());
      expect(otherState).toBeNull();
    });

    test('listLiveSessions: live ones of the user only, most recent activity first', async () => {
      const u = await user();
      const v = await user();
      const a = await cx.store.createSession(session(u.id, { ip: '10.0.0.1', userAgent: 'A' }));
      cx.t += 1000;
      const b = await cx.store.createSession(session(u.id));
      const revoked = await cx.store.createSession(session(u.id));
      await cx.store.revokeSession(revoked.id);
      await cx.store.createSession(session(u.id, { expiresAt: new Date(cx.t + 10) }));
      await cx.store.createSession(session(v.id));
      cx.t += 20;
      let list = await cx.store.listLiveSessions(u.id, hourAgo());
      expect(list.map((s) => s.id)).toEqual([b.id, a.id]);
      expect(list[1]).toMatchObject({ ip: '10.0.0.1', userAgent: 'A', revokedAt: null });
      cx.t += 500;
      await cx.store.touchSession(a.id);
      list = await cx.store.listLiveSessions(u.id, hourAgo());
      expect(list.map((s) => s.id)).toEqual([a.id, b.id]);
      // idle past activeSince: not live
      expect((await cx.store.listLiveSessions(u.id, new Date(T0 + 1000))).map((s) => s.id)).toEqual(
        [a.id],
      );
      expect(await cx.store.listLiveSessions(randomUUID(), hourAgo())).toEqual([]);
    });

    test("revokeUserSession ends only the user's own unrevoked session", async () => {
      const u = await user();
      const v = await user();
      const a = await cx.store.createSession(session(u.id));
      const w = await cx.store.createSession(session(v.id));
      expect(await cx.store.revokeUserSession(u.id, w.id)).toBe(false);
      expect((await cx.store.sessionState(w.accessJti))?.revoked).toBe(false);
      expect(await cx.store.revokeUserSession(u.id, a.id)).toBe(true);
      expect(await cx.store.revokeUserSession(u.id, a.id)).toBe(false);
      expect(await cx.store.revokeUserSession(u.id, randomUUID())).toBe(false);
      expect((await cx.store.sessionState(a.accessJti))?.revoked).toBe(true);
    });

    test('revokeOtherSessions keeps the current one and counts the rest', async () => {
      const u = await user();
      const v = await user();
      const keep = await cx.store.createSession(session(u.id));
      const x = await cx.store.createSession(session(u.id));
      await cx.store.createSession(session(u.id));
      const w = await cx.store.createSession(session(v.id));
      await cx.store.revokeSession(x.id);
      expect(await cx.store.revokeOtherSessions(u.id, keep.id)).toBe(1);
      expect((await cx.store.sessionState(keep.accessJti))?.revoked).toBe(false);
      expect((await cx.store.sessionState(w.accessJti))?.revoked).toBe(false);
      expect(await cx.store.revokeOtherSessions(u.id, keep.id)).toBe(0);
    });
  });
}
