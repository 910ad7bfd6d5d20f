/**
 * Passwordless sign-in with @svc/auth alone: magic links and codes through `authRouter` in a bare
 * Express app (over loopback HTTP), and through `auth.handler` mounted in a Hono app.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Hono } from 'hono';
import { createTestDatabase, type TestDatabase } from '@svc/core/testing';
import { createAuth, type Auth, type AuthEvent } from '../../src';
import { authRouter } from '../../src/express';

const SECRET = 'standalone-secret-0123456789-abcdefghijkl';
const QUIET = { info: () => {}, warn: () => {}, error: () => {} };
let t: TestDatabase;
let auth: Auth;
const events: AuthEvent[] = [];
beforeAll(async () => {
  t = await createTestDatabase();
  auth = await createAuth(
    { jwtSecret: SECRET, bcryptRounds: 4, allowImplicitSignup: true },
    { database: t.db, logger: QUIET },
  );
  auth.on((e) => void events.push(e));
});
afterAll(async () => {
  await auth.close();
  await t.dispose();
});

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
async function latest(type: AuthEvent['eventType'], email: string): Promise<AuthEvent> {
  await auth.settle();
  const found = events
    .filter((e) => e.eventType === type && (e.email ?? e.pendingEmail) === email)
    .at(-1);
  if (!found) throw new Error(`no ${type} for ${email}`);
  return found;
}

test('Express: a signup link, then a magic link, then a code, each signing in', async () => {
  const app = express();
  app.use('/auth', authRouter(auth));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, json(body));
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  try {
    const email = 'express-user@example.com';
    const asked = await post('/auth/magic-link/request', { email });
    expect(asked.status).toBe(200);
    expect(asked.body.success).toBe(true);
    const signup = await latest('MagicLinkSignupRequested', email);
    const created = await post('/auth/magic-link/consume', { token: signup.magicLinkToken });
    expect(created.status).toBe(200);
    expect(created.body.user).toMatchObject({ email, emailVerified: true });

    await post('/auth/magic-link/request', { email });
    const link = await latest('MagicLinkRequested', email);
    const again = await post('/auth/magic-link/consume', { token: link.magicLinkToken });
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(created.body.user.id);

    await post('/auth/magic-code/request', { email });
    const code = (await latest('MagicCodeRequested', email)).magicCode;
    const byCode = await post('/auth/magic-code/verify', { email, code });
    expect(byCode.status).toBe(200);
    expect(byCode.body.user.id).toBe(created.body.user.id);
    expect((await post('/auth/magic-code/verify', { email, code })).body.code).toBe(
      'INVALID_TOKEN',
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('Hono: auth.handler answers the passwordless routes', async () => {
  const app = new Hono();
  app.all('/auth/*', (c) => auth.handler(c.req.raw, { ip: '192.0.2.7' }));
  const email = 'hono-user@example.com';
  await auth.register({ email, password: 'correct horse battery staple' });

  const asked = await app.request('/auth/magic-link/request', json({ email }));
  expect(asked.status).toBe(200);
  expect(await asked.json()).toEqual({ success: true, message: expect.any(String) });
  const token = (await latest('MagicLinkRequested', email)).magicLinkToken;
  const used = await app.request('/auth/magic-link/consume', json({ token }));
  expect(used.status).toBe(200);
  expect(((await used.json()) as { user: { email: string } }).user.email).toBe(email);
  const reused = await app.request('/auth/magic-link/consume', json({ token }));
  expect(reused.status).toBe(401);

  const bad = await app.request('/auth/magic-code/verify', json({ email, code: 'nope' }));
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { code: string }).code).toBe('VALIDATION_ERROR');
  await app.request('/auth/magic-code/request', json({ email }));
  const code = (await latest('MagicCodeRequested', email)).magicCode;
  const ok = await app.request('/auth/magic-code/verify', json({ email, code }));
  expect(ok.status).toBe(200);
});
