/**
 * Passkeys through @svc/auth alone (no svc server): the Express adapter over real HTTP on
 * 127.0.0.1, and the Fetch handler inside a Hono app. The whole ceremony with the software
 * authenticator: register, sign in with an email and without, list, delete.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Hono } from 'hono';
import { useCoreHarness } from '../__tests__/harness';
import { authRouter } from '../express';
import type { Auth } from '../types';
import { SoftAuthenticator } from './soft-authenticator';

const h = useCoreHarness();
const ORIGIN = 'https://app.example.test';
const WEBAUTHN = { origin: ORIGIN, rpId: 'example.test', rpName: 'standalone' };

type Send = (
  method: string,
  path: string,
  body?: unknown,
  token?: string,
) => Promise<{
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: loose JSON for assertions
  body: any;
}>;

function sender(fetcher: (request: Request) => Promise<Response>, base: string): Send {
  return async (method, path, body, token) => {
    const res = await fetcher(
      new Request(`${base}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    return { status: res.status, body: await res.json().catch(() => null) };
  };
}

async function ceremony(send: Send) {
  const email = `standalone-${Math.random().toString(36).slice(2)}@example.test`;
  const reg = await send('POST', '/auth/register', { email, password: 'a long passphrase' });
  expect(reg.status).toBe(201);
  const token = reg.body.token as string;
  const begin = await send('POST', '/auth/webauthn/register/begin', undefined, token);
  expect(begin.status).toBe(200);
  const a = new SoftAuthenticator();
  const created = a.create(begin.body.options, { origin: ORIGIN, attestation: 'packed-self' });
  const finish = await send(
    'POST',
    '/auth/webauthn/register/finish',
    { challengeId: begin.body.challengeId, ...created, name: 'Key' },
    token,
  );
  expect(finish.status).toBe(200);
  for (const body of [{ email }, {}]) {
    const lb = await send('POST', '/auth/webauthn/login/begin', body);
    expect(lb.status).toBe(200);
    const assertion = a.get(lb.body.options, { origin: ORIGIN });
    const lf = await send('POST', '/auth/webauthn/login/finish', {
      challengeId: lb.body.challengeId,
      ...assertion,
    });
    expect(lf.status).toBe(200);
    expect(lf.body.user.email).toBe(email);
  }
  const list = await send('GET', '/auth/webauthn/credentials', undefined, token);
  expect(list.body.credentials.map((c: { id: string }) => c.id)).toEqual([created.credentialId]);
  const del = await send(
    'POST',
    '/auth/webauthn/credentials/delete',
    { credentialId: created.credentialId },
    token,
  );
  expect(del).toEqual({ status: 200, body: { success: true } });
}

describe('passkeys with @svc/auth standalone', () => {
  let auth: Auth;
  beforeEach(async () => {
    ({ auth } = await h.make({ webauthn: WEBAUTHN }));
  });

  test('Express (authRouter) over HTTP on 127.0.0.1', async () => {
    const app = express();
    app.use('/auth', authRouter(auth));
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    try {
      const { port } = server.address() as AddressInfo;
      await ceremony(sender((r) => fetch(r), `http://127.0.0.1:${port}`));
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('the Fetch handler in a Hono app', async () => {
    const app = new Hono();
    app.all('/auth/*', (c) => auth.handler(c.req.raw, { ip: '127.0.0.1' }));
    await ceremony(sender(async (r) => app.fetch(r), 'http://app.local'));
  });
});
