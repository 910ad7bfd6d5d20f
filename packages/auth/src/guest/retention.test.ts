/**
 * Issue 26, point 4: abandoned guests were never removed, so `POST /auth/anonymous` grew the users
 * table without bound. A guest inactive for `guestRetention` (default 30 days) is now deleted, with
 * its sessions, at start and inside normal traffic. Time is the injected clock; the database is
 * the engine SVC_TEST_DB names.
 */
import { createAuth } from '../create-auth';
import { SECRET, T0, codeOf, manualClock, session, useCoreHarness } from '../__tests__/harness';
import { createMemoryStore } from '../store/memory';
import type { AuthStore } from '../store/types';
import { createGuestSweeper, GUEST_SWEEP_EVERY_MS } from './retention';

const h = useCoreHarness();
const QUIET = { info: () => {}, warn: () => {}, error: () => {} };
const DAY = 24 * 3600;
const PASSWORD = 'correct horse battery staple';

const guestCount = async () =>
  Number(
    (
      await h
        .db()
        .db.query<{ n: number }>('select count(*)::int as n from svc_auth.users where is_anonymous')
    ).rows[0]?.n,
  );

describe('guestRetention', () => {
  test('a guest abandoned for 30 days is deleted at the next start, its tokens with it', async () => {
    // Sessions may idle a week (so a guest can come back days later); retention stays 30 days.
    const config = { sessionTimeout: 7 * DAY, refreshTokenExpiry: 30 * DAY };
    const { auth, clock } = await h.make(config);
    const abandoned = await auth.signInAnonymously();
    const returning = await auth.signInAnonymously();
    const upgraded = await auth.signInAnonymously();
    await auth.upgrade(upgraded.token, { email: 'kept@example.com', password: PASSWORD });
    await auth.register({ email: 'user@example.com', password: PASSWORD });

    clock.advance(6 * DAY);
    // The returning guest comes back within its session's idle time.
    const back = await auth.refresh(returning.refreshToken);
    await auth.verifyToken(back.token);
    clock.advance(24 * DAY + 1);
    await auth.settle();
    // No request since: nothing swept yet.
    expect(await guestCount()).toBe(2);

    // Another process starts (same database, same clock): its start sweeps.
    const next = await createAuth(
      { jwtSecret: SECRET, bcryptRounds: 4, ...config },
      { database: h.db().db, now: clock, logger: QUIET },
    );
    try {
      await next.settle();
      expect(await guestCount()).toBe(1);
      expect(await next.findUser(abandoned.user.id)).toBeNull();
      expect(await next.findUser(returning.user.id)).not.toBeNull();
      expect(await next.findUser('kept@example.com')).not.toBeNull();
      expect(await next.findUser('user@example.com')).not.toBeNull();
      expect(await codeOf(next.refresh(abandoned.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
      const { rows } = await h
        .db()
        .db.query('select 1 from svc_auth.sessions where user_id = $1', [abandoned.user.id]);
      expect(rows).toEqual([]);
    } finally {
      await next.close();
    }
  });

  test('inside traffic: a token check sweeps once retention has passed', async () => {
    const { auth, clock } = await h.make({ guestRetention: 2 * DAY });
    const guest = await auth.signInAnonymously();
    clock.advance(2 * DAY + 1);
    // Not yet: no request came since the start's sweep (which found nothing).
    await auth.settle();
    expect(await guestCount()).toBe(1);
    const user = await session(auth.register({ email: 'user@example.com', password: PASSWORD }));
    await auth.verifyToken(user.token);
    await auth.settle();
    expect(await guestCount()).toBe(0);
    expect(await codeOf(auth.refresh(guest.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
  });

  test('guestRetention 0 keeps guests forever', async () => {
    const { auth, clock } = await h.make({ guestRetention: 0 });
    await auth.signInAnonymously();
    clock.advance(3650 * DAY);
    await auth.signInAnonymously();
    await auth.settle();
    expect(await guestCount()).toBe(2);
  });
});

describe('the sweeper', () => {
  /** A memory store whose sweeps are counted and held until released. */
  function gatedStore() {
    const clock = manualClock();
    const store = createMemoryStore({ now: clock });
    const calls: Date[] = [];
    let release: () => void = () => {};
    let gate = Promise.resolve();
    const counted: Pick<AuthStore, 'deleteInactiveGuests'> = {
      async deleteInactiveGuests(since, limit) {
        calls.push(since);
        await gate;
        return store.deleteInactiveGuests(since, limit);
      },
    };
    return {
      store,
      clock,
      calls,
      counted,
      hold() {
        gate = new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      release: () => release(),
    };
  }
  const guest = (store: AuthStore) =>
    store.createUser({
      email: `${Math.random()}@anonymous.invalid`,
      passwordHash: null,
      isAnonymous: true,
    });

  test('at most once per interval per process; one sweep at a time; never awaited by poke', async () => {
    const g = gatedStore();
    const sweeper = createGuestSweeper({ store: g.counted, retentionSeconds: DAY, now: g.clock });
    g.hold();
    sweeper.poke();
    sweeper.poke(); // one under way: nothing more
    expect(g.calls).toHaveLength(1);
    g.clock.advance(GUEST_SWEEP_EVERY_MS / 1000);
    sweeper.poke(); // due, but one is still under way
    expect(g.calls).toHaveLength(1);
    g.release();
    await sweeper.idle();
    sweeper.poke();
    expect(g.calls).toHaveLength(2);
    expect(g.calls[1]?.getTime()).toBe(T0 + GUEST_SWEEP_EVERY_MS - DAY * 1000);
    await sweeper.idle();
    g.clock.advance(GUEST_SWEEP_EVERY_MS / 1000 - 1);
    sweeper.poke();
    expect(g.calls).toHaveLength(2);
    g.clock.advance(1);
    sweeper.poke();
    expect(g.calls).toHaveLength(3);
    await sweeper.idle();
  });

  test('a full batch: the next poke sweeps again at once, until the backlog is gone', async () => {
    const g = gatedStore();
    for (let i = 0; i < 5; i++) await guest(g.store);
    g.clock.advance(DAY + 1);
    const sweeper = createGuestSweeper({
      store: g.counted,
      retentionSeconds: DAY,
      now: g.clock,
      batch: 2,
    });
    for (let i = 0; i < 10; i++) {
      sweeper.poke();
      await sweeper.idle();
    }
    // 2 + 2 + 1: the third batch was not full, so the pokes after it waited for the interval.
    expect(g.calls).toHaveLength(3);
    expect((await g.store.listUsers({ limit: 10, offset: 0 })).total).toBe(0);
  });

  test('a failing sweep is logged, not thrown, and tried again after the interval', async () => {
    const warned: unknown[] = [];
    let fail = true;
    let calls = 0;
    const clock = manualClock();
    const sweeper = createGuestSweeper({
      store: {
        async deleteInactiveGuests() {
          calls++;
          if (fail) throw new Error('database down');
          return 0;
        },
      },
      retentionSeconds: DAY,
      now: clock,
      logger: { ...QUIET, warn: (obj) => void warned.push(obj) },
    });
    sweeper.poke();
    await sweeper.idle();
    expect(warned).toHaveLength(1);
    fail = false;
    clock.advance(GUEST_SWEEP_EVERY_MS / 1000);
    sweeper.poke();
    await sweeper.idle();
    expect(calls).toBe(2);
  });
});
