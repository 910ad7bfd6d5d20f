/**
 * Issue 5, through the whole server: events reach a webhook receiver that checks their
 * signatures, and emails reach a real SMTP peer with the right headers, branding and links.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SvcServer } from '../src';
import { parseMail, startPeer, type Peer } from '@svc/smtp/testing';
import { SECRET, sharedDatabase, start } from './helpers';

const db = sharedDatabase();
const WEBHOOK_SECRET = `whsec-${randomUUID()}`;

interface Delivery {
  headers: http.IncomingHttpHeaders;
  body: Record<string, string>;
  signatureValid: boolean;
}

/** A receiver that verifies each delivery's HMAC itself, as a subscriber would. */
async function startReceiver(): Promise<{
  url: string;
  deliveries: Delivery[];
  close(): Promise<void>;
}> {
  const deliveries: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const expected = Buffer.from(
        `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(raw).digest('hex')}`,
      );
      const given = Buffer.from(String(req.headers['x-svc-signature-256'] ?? ''));
      deliveries.push({
        headers: req.headers,
        body: JSON.parse(raw.toString('utf8')),
        signatureValid: given.length === expected.length && timingSafeEqual(given, expected),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe('auth events leave the server as signed webhooks and branded email', () => {
  let server: SvcServer;
  let peer: Peer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    peer = await startPeer();
    receiver = await startReceiver();
    server = await start(db.get(), {
      enableAuth: true,
      jwtSecret: SECRET,
      authConfig: {
        requireEmailVerification: true,
        emailBaseUrl: 'http://127.0.0.1:8080/app',
        smtp: {
          host: '127.0.0.1',
          port: peer.port,
          from: 'Acme <noreply@example.com>',
          timeoutMs: 10000,
        },
        branding: { appName: 'Acme Notes', brandColor: '#ff6600' },
        webhooks: [
          {
            url: receiver.url,
            events: ['IdentityCreated', 'EmailVerificationRequested', 'PasswordResetRequested'],
            secret: WEBHOOK_SECRET,
          },
        ],
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await Promise.all([peer.close(), receiver.close()]);
  });

  test('registration: signed IdentityCreated and EmailVerificationRequested; a verification email whose link works', async () => {
    const email = `ada-${randomUUID().slice(0, 8)}@example.com`;
    const reg = await post('/auth/register', { email, password: 'a long passphrase 1' });
    expect(reg.status).toBe(201);
    await server.auth!.settle();

    const mine = receiver.deliveries.filter((d) => d.body.email === email);
    expect(mine.map((d) => d.body.eventType).sort()).toEqual([
      'EmailVerificationRequested',
      'IdentityCreated',
    ]);
    for (const d of mine) {
      expect(d.signatureValid).toBe(true);
      expect(d.headers['x-svc-event']).toBe(d.body.eventType);
      expect(d.headers['x-svc-delivery']).toBe(d.body.eventId);
      expect(d.headers['content-type']).toMatch(/^application\/json/);
    }
    const token = mine.find((d) => d.body.eventType === 'EmailVerificationRequested')?.body
      .verificationToken as string;
    expect(token).toEqual(expect.any(String));

    const mail = peer.received.find((m) => m.to.includes(email));
    expect(mail?.from).toBe('noreply@example.com');
    const parsed = parseMail(mail!.raw);
    expect(parsed.headers.get('from')).toEqual(['Acme <noreply@example.com>']);
    expect(parsed.headers.get('to')).toContain(email);
    expect(parsed.subject).toContain('Acme Notes');
    const link = `http://127.0.0.1:8080/app/auth/verify?token=${encodeURIComponent(token)}`;
    expect(parsed.text).toContain(link);
    expect(parsed.html).toContain('#ff6600');
    expect(parsed.html).toContain(link.replace(/&/g, '&amp;'));

    // The emailed token verifies the address.
    const verified = await fetch(`${server.url}/auth/verify?token=${encodeURIComponent(token)}`);
    expect(verified.status).toBe(200);
    expect((await post('/auth/login', { email, password: 'a long passphrase 1' })).status).toBe(
      200,
    );
  });

  test('reset: the token travels only by webhook and email, never in the response', async () => {
    const email = `bob-${randomUUID().slice(0, 8)}@example.com`;
    await post('/auth/register', { email, password: 'a long passphrase 1' });
    const res = await post('/auth/reset', { email });
    const text = await res.text();
    await server.auth!.settle();
    const hook = receiver.deliveries.find(
      (d) => d.body.email === email && d.body.eventType === 'PasswordResetRequested',
    );
    expect(hook?.signatureValid).toBe(true);
    const resetToken = hook?.body.resetToken as string;
    expect(text).not.toContain(resetToken);
    const mail = peer.received
      .filter((m) => m.to.includes(email))
      .map((m) => parseMail(m.raw))
      .find((m) => m.text.includes('reset'));
    expect(mail?.text).toContain(
      `http://127.0.0.1:8080/app/auth/reset?token=${encodeURIComponent(resetToken)}`,
    );
    expect(
      (
        await post('/auth/reset/confirm', {
          reset_token: resetToken,
          new_password: 'a new passphrase 2',
        })
      ).status,
    ).toBe(200);
  });

  test('a subscription receives only the kinds it names', async () => {
    const email = `carl-${randomUUID().slice(0, 8)}@example.com`;
    await post('/auth/register', { email, password: 'a long passphrase 1' });
    await server.auth!.settle();
    // IdentityAuthenticated and EmailVerified are not subscribed.
    expect(
      receiver.deliveries.some(
        (d) => d.body.eventType === 'IdentityAuthenticated' || d.body.eventType === 'EmailVerified',
      ),
    ).toBe(false);
  });
});

// Refused with the configuration (issue 31): every problem at load, before anything opens.
describe('invalid branding fails at construction', () => {
  test.each([
    [{ appName: '' }],
    [{ appName: 'x'.repeat(81) }],
    [{ appName: 'Evil\r\nBcc: all@example.com' }],
    [{ logoUrl: 'javascript:alert(1)' }],
    [{ logoUrl: 'http://cdn.example.com/logo.png' }],
    [{ brandColor: 'red' }],
    [{ brandColor: '#ff660080' }],
  ])('%j', async (branding) => {
    await expect(
      start(db.get(), {
        enableAuth: true,
        jwtSecret: SECRET,
        authConfig: { branding, emailBaseUrl: 'https://app.example.com' },
      }),
    ).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      problems: [expect.stringMatching(`^auth config: branding\\.${Object.keys(branding)[0]} `)],
    });
  });
});
