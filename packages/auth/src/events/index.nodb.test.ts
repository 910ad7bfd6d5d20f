import type { AuthEvent } from '../types';
import { AUTH_EVENT_TYPES, createEventBus, isAuthEventType } from './index';

function captureLogger() {
  const errors: { obj: unknown; msg?: string }[] = [];
  const warns: { obj: unknown; msg?: string }[] = [];
  return {
    errors,
    warns,
    logger: {
      error: (obj: unknown, msg?: string) => errors.push({ obj, msg }),
      warn: (obj: unknown, msg?: string) => warns.push({ obj, msg }),
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createEventBus', () => {
  it('stamps a random UUID eventId and an ISO timestamp from the clock', async () => {
    const bus = createEventBus({ now: () => Date.UTC(2030, 0, 2, 3, 4, 5, 678) });
    const seen: AuthEvent[] = [];
    bus.on((e) => void seen.push(e));
    bus.emit({ eventType: 'IdentityCreated', userId: 'u1', email: 'a@example.com' });
    bus.emit({ eventType: 'IdentityCreated', userId: 'u2', email: 'b@example.com' });
    await bus.settle();
    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual({
      eventId: expect.stringMatching(UUID),
      eventType: 'IdentityCreated',
      timestamp: '2030-01-02T03:04:05.678Z',
      userId: 'u1',
      email: 'a@example.com',
    });
    expect(seen[0]!.eventId).not.toBe(seen[1]!.eventId);
    expect(Object.isFrozen(seen[0])).toBe(true);
  });

  it('orders fields as DECISIONS.md lists them and drops undefined ones', async () => {
    const bus = createEventBus();
    const seen: AuthEvent[] = [];
    bus.on((e) => void seen.push(e));
    bus.emit({
      pendingEmail: 'p@example.com',
      magicLinkToken: 't',
      eventType: 'MagicLinkSignupRequested',
      userId: undefined,
    });
    await bus.settle();
    expect(Object.keys(seen[0]!)).toEqual([
      'eventId',
      'eventType',
      'timestamp',
      'magicLinkToken',
      'pendingEmail',
    ]);
  });

  it('never lets the caller override eventId or timestamp', async () => {
    const bus = createEventBus();
    const seen: AuthEvent[] = [];
    bus.on((e) => void seen.push(e));
    bus.emit({ eventType: 'EmailVerified', eventId: 'forged', timestamp: 'forged' } as never);
    await bus.settle();
    expect(seen[0]!.eventId).toMatch(UUID);
    expect(seen[0]!.timestamp).not.toBe('forged');
  });

  it('delivers after emit returns, never synchronously nor in the same microtask run', async () => {
    const bus = createEventBus();
    const log: string[] = [];
    bus.on(() => void log.push('listener'));
    bus.emit({ eventType: 'EmailVerified', userId: 'u' });
    log.push('after emit');
    await Promise.resolve();
    await Promise.resolve();
    log.push('after microtasks');
    await bus.settle();
    expect(log).toEqual(['after emit', 'after microtasks', 'listener']);
  });

  it('delivers events in emit order and listeners in subscription order', async () => {
    const bus = createEventBus();
    const log: string[] = [];
    bus.on((e) => void log.push(`a:${e.userId}`));
    bus.on((e) => void log.push(`b:${e.userId}`));
    for (let i = 0; i < 5; i++) bus.emit({ eventType: 'IdentityAuthenticated', userId: String(i) });
    await bus.settle();
    expect(log).toEqual(['a:0', 'b:0', 'a:1', 'b:1', 'a:2', 'b:2', 'a:3', 'b:3', 'a:4', 'b:4']);
  });

  it('does not wait for a slow listener before calling the next one', async () => {
    const bus = createEventBus();
    const log: string[] = [];
    let release!: () => void;
    bus.on(
      () =>
        new Promise<void>(
          (resolve) =>
            (release = () => {
              log.push('slow done');
              resolve();
            }),
        ),
    );
    bus.on(() => void log.push('fast'));
    bus.emit({ eventType: 'EmailVerified' });
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['fast']);
    let settled = false;
    const s = bus.settle().then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    release();
    await s;
    expect(log).toEqual(['fast', 'slow done']);
  });

  it('a throwing or rejecting listener is logged and affects neither others nor the emitter', async () => {
    const { logger, errors } = captureLogger();
    const bus = createEventBus({ logger });
    const seen: string[] = [];
    bus.on(() => {
      throw new Error('sync boom');
    });
    bus.on(async () => {
      throw new Error('async boom');
    });
    bus.on((e) => void seen.push(e.eventType));
    expect(() =>
      bus.emit({
        eventType: 'PasswordResetRequested',
        userId: 'u',
        email: 'a@example.com',
        resetToken: 'SECRET-TOKEN',
      }),
    ).not.toThrow();
    await expect(bus.settle()).resolves.toBeUndefined();
    expect(seen).toEqual(['PasswordResetRequested']);
    expect(errors).toHaveLength(2);
    expect(errors.map((e) => (e.obj as { err: { message: string } }).err.message).sort()).toEqual([
      'async boom',
      'sync boom',
    ]);
    // never the event itself: the reset token must not reach the log
    expect(JSON.stringify(errors)).not.toContain('SECRET-TOKEN');
    expect(errors[0]!.obj).toMatchObject({
      eventType: 'PasswordResetRequested',
      eventId: expect.stringMatching(UUID),
    });
  });

  it('a throwing logger does not break delivery', async () => {
    const bus = createEventBus({
      logger: {
        error: () => {
          throw new Error('logger down');
        },
        warn: () => {},
      },
    });
    const seen: string[] = [];
    bus.on(() => {
      throw new Error('x');
    });
    bus.on((e) => void seen.push(e.eventType));
    bus.emit({ eventType: 'EmailVerified' });
    await bus.settle();
    expect(seen).toEqual(['EmailVerified']);
  });

  it('unsubscribe stops delivery, including of events emitted but not yet delivered', async () => {
    const bus = createEventBus();
    const seen: string[] = [];
    const off = bus.on((e) => void seen.push(e.userId ?? ''));
    bus.emit({ eventType: 'EmailVerified', userId: '1' });
    await bus.settle();
    bus.emit({ eventType: 'EmailVerified', userId: '2' });
    off();
    off(); // idempotent
    bus.emit({ eventType: 'EmailVerified', userId: '3' });
    await bus.settle();
    expect(seen).toEqual(['1']);
  });

  it('a listener subscribed after an emit does not receive that event; one function subscribed twice is called twice', async () => {
    const bus = createEventBus();
    const seen: string[] = [];
    const fn = (e: AuthEvent) => void seen.push(e.userId ?? '');
    bus.emit({ eventType: 'EmailVerified', userId: 'early' });
    bus.on(fn);
    bus.on(fn);
    bus.emit({ eventType: 'EmailVerified', userId: 'late' });
    await bus.settle();
    expect(seen).toEqual(['late', 'late']);
  });

  it('settle resolves at once with nothing pending, and also waits for events emitted by listeners meanwhile', async () => {
    const bus = createEventBus();
    await expect(bus.settle()).resolves.toBeUndefined();
    const seen: string[] = [];
    bus.on((e) => {
      seen.push(e.eventType);
      if (e.eventType === 'IdentityCreated') bus.emit({ eventType: 'IdentityAuthenticated' });
    });
    bus.emit({ eventType: 'IdentityCreated' });
    await bus.settle();
    expect(seen).toEqual(['IdentityCreated', 'IdentityAuthenticated']);
  });

  it('settle is bounded when a listener emits on every event', async () => {
    const bus = createEventBus();
    let count = 0;
    let stop = false;
    bus.on(() => {
      count++;
      if (!stop) bus.emit({ eventType: 'EmailVerified' });
    });
    bus.emit({ eventType: 'EmailVerified' });
    await bus.settle();
    stop = true;
    expect(count).toBeGreaterThan(1);
    expect(count).toBeLessThanOrEqual(101);
    await bus.settle();
  });

  it('emit never throws, even on garbage input', () => {
    const { logger } = captureLogger();
    const bus = createEventBus({ logger });
    bus.on(() => {});
    expect(() => bus.emit(null as never)).not.toThrow();
  });

  it('knows the eight event kinds of the spec', () => {
    expect(AUTH_EVENT_TYPES).toHaveLength(8);
    expect(isAuthEventType('MagicCodeRequested')).toBe(true);
    expect(isAuthEventType('magiccoderequested')).toBe(false);
    expect(isAuthEventType(undefined)).toBe(false);
  });
});
