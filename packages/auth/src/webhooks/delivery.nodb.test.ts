/**
 * Webhooks against a real HTTP receiver on 127.0.0.1 (port 0) that recomputes the HMAC of the raw
 * body. No retry; failures and timeouts are logged, never thrown.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AUTH_EVENT_TYPES, createEventBus } from '../events';
import { installWebhooks, verifyWebhookSignature } from './index';

interface Received {
  readonly path: string;
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
  readonly raw: Buffer;
}

interface Receiver {
  readonly url: string;
  readonly received: Received[];
  close(): Promise<void>;
}

/** Answers by `reply` (default 204); 'hang' never answers. */
async function startReceiver(
  reply: (req: Received) => number | 'hang' = () => 204,
): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Received = {
        path: req.url ?? '',
        method: req.method ?? '',
        headers: req.headers,
        raw: Buffer.concat(chunks),
      };
      received.push(entry);
      const status = reply(entry);
      if (status === 'hang') return;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function captureLogger() {
  const errors: { obj: unknown; msg?: string }[] = [];
  return {
    errors,
    logger: {
      error: (obj: unknown, msg?: string) => errors.push({ obj, msg }),
      warn: (obj: unknown, msg?: string) => errors.push({ obj, msg }),
    },
  };
}

/** What a receiver does: recompute the HMAC of the raw body, compare in constant time. */
function receiverChecks(secret: string, r: Received): boolean {
  const header = r.headers['x-svc-signature-256'];
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', secret).update(r.raw).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

let receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});
async function receiver(reply?: (req: Received) => number | 'hang'): Promise<Receiver> {
  const r = await startReceiver(reply);
  receivers.push(r);
  return r;
}

describe('webhooks to a real receiver', () => {
  it('POSTs the signed event JSON with X-Svc-Event, X-Svc-Delivery and X-Svc-Signature-256', async () => {
    const r = await receiver();
    const { logger, errors } = captureLogger();
    const bus = createEventBus({ logger, now: () => Date.UTC(2031, 5, 7, 8, 9, 10, 11) });
    installWebhooks(
      bus,
      [{ url: `${r.url}/hooks/auth`, events: ['PasswordResetRequested'], secret: 'whsec_test' }],
      { logger },
    );

    bus.emit({
      eventType: 'PasswordResetRequested',
      userId: 'user-1',
      email: 'ann@example.com',
      resetToken: 'reset-tok',
    });
    await bus.settle();

    expect(r.received).toHaveLength(1);
    const got = r.received[0]!;
    expect(got.method).toBe('POST');
    expect(got.path).toBe('/hooks/auth');
    expect(got.headers['content-type']).toBe('application/json');
    const event = JSON.parse(got.raw.toString('utf8'));
    expect(event).toEqual({
      eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      eventType: 'PasswordResetRequested',
      timestamp: '2031-06-07T08:09:10.011Z',
      userId: 'user-1',
      email: 'ann@example.com',
      resetToken: 'reset-tok',
    });
    expect(Object.keys(event)).toEqual([
      'eventId',
      'eventType',
      'timestamp',
      'userId',
      'email',
      'resetToken',
    ]);
    expect(got.headers['x-svc-event']).toBe('PasswordResetRequested');
    expect(got.headers['x-svc-delivery']).toBe(event.eventId);
    expect(receiverChecks('whsec_test', got)).toBe(true);
    expect(receiverChecks('another-secret', got)).toBe(false);
    expect(
      verifyWebhookSignature('whsec_test', got.raw, got.headers['x-svc-signature-256'] as string),
    ).toBe(true);
    expect(errors).toEqual([]);
  });

  it('signs non-ASCII bodies over their UTF-8 bytes', async () => {
    const r = await receiver();
    const bus = createEventBus();
    installWebhooks(bus, [{ url: r.url, events: ['MagicLinkSignupRequested'], secret: 'clé 🔑' }], {
      logger: captureLogger().logger,
    });
    bus.emit({
      eventType: 'MagicLinkSignupRequested',
      pendingEmail: 'zoë@example.com',
      magicLinkToken: 'tök',
    });
    await bus.settle();
    expect(receiverChecks('clé 🔑', r.received[0]!)).toBe(true);
    expect(JSON.parse(r.received[0]!.raw.toString('utf8')).pendingEmail).toBe('zoë@example.com');
  });

  it('a subscription receives only its event types; each subscription signs with its own secret', async () => {
    const a = await receiver();
    const b = await receiver();
    const { logger, errors } = captureLogger();
    const bus = createEventBus({ logger });
    installWebhooks(
      bus,
      [
        { url: `${a.url}/a`, events: ['IdentityCreated', 'EmailVerified'], secret: 'secret-a' },
        { url: `${b.url}/b`, events: ['MagicCodeRequested'], secret: 'secret-b' },
      ],
      { logger },
    );
    const all = [...AUTH_EVENT_TYPES];
    for (const eventType of all) bus.emit({ eventType, userId: 'u' });
    await bus.settle();

    expect(a.received.map((x) => x.headers['x-svc-event']).sort()).toEqual([
      'EmailVerified',
      'IdentityCreated',
    ]);
    expect(b.received.map((x) => x.headers['x-svc-event'])).toEqual(['MagicCodeRequested']);
    for (const x of a.received) expect(receiverChecks('secret-a', x)).toBe(true);
    for (const x of b.received) expect(receiverChecks('secret-b', x)).toBe(true);
    expect(receiverChecks('secret-a', b.received[0]!)).toBe(false);
    // a different delivery id per event
    expect(new Set(a.received.map((x) => x.headers['x-svc-delivery'])).size).toBe(2);
    expect(errors).toEqual([]);
  });

  it('a receiver answering 500 gets one request, no retry; the failure is logged and nothing throws', async () => {
    const r = await receiver(() => 500);
    const ok = await receiver();
    const { logger, errors } = captureLogger();
    const bus = createEventBus({ logger });
    installWebhooks(
      bus,
      [
        { url: `${r.url}/fail`, events: ['IdentityCreated'], secret: 's' },
        { url: `${ok.url}/ok`, events: ['IdentityCreated'], secret: 's' },
      ],
      { logger },
    );
    expect(() =>
      bus.emit({ eventType: 'IdentityCreated', userId: 'u', email: 'e@example.com' }),
    ).not.toThrow();
    await expect(bus.settle()).resolves.toBeUndefined();
    // give a (wrong) retry a chance to show up
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.received).toHaveLength(1);
    expect(ok.received).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toMatch(/HTTP 500 \(no retry\)/);
    expect(errors[0]!.obj).toMatchObject({
      status: 500,
      eventType: 'IdentityCreated',
      url: `${r.url}/fail`,
    });
  });

  it('a receiver that never answers is cut off by the timeout, gets no retry, and nothing throws', async () => {
    const r = await receiver(() => 'hang');
    const { logger, errors } = captureLogger();
    const bus = createEventBus({ logger });
    installWebhooks(bus, [{ url: `${r.url}/slow`, events: ['EmailVerified'], secret: 's' }], {
      logger,
      timeoutMs: 200,
    });
    const started = Date.now();
    bus.emit({ eventType: 'EmailVerified', userId: 'u' });
    await bus.settle();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(5000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.received).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toMatch(/timed out after 200 ms \(no retry\)/);
  });

  it('a refused connection is logged and nothing throws', async () => {
    const r = await receiver();
    const url = r.url;
    await r.close();
    receivers = [];
    const { logger, errors } = captureLogger();
    const bus = createEventBus({ logger });
    installWebhooks(bus, [{ url: `${url}/gone`, events: ['EmailVerified'], secret: 's' }], {
      logger,
      timeoutMs: 2000,
    });
    bus.emit({ eventType: 'EmailVerified', userId: 'u' });
    await expect(bus.settle()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toMatch(/webhook delivery failed \(no retry\)/);
  });

  it('emit returns before the receiver is contacted', async () => {
    const r = await receiver();
    const bus = createEventBus({ logger: captureLogger().logger });
    installWebhooks(bus, [{ url: r.url, events: ['EmailVerified'], secret: 's' }]);
    bus.emit({ eventType: 'EmailVerified', userId: 'u' });
    expect(r.received).toHaveLength(0);
    await bus.settle();
    expect(r.received).toHaveLength(1);
  });
});
