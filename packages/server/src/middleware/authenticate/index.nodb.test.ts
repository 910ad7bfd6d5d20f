import type { Request, Response } from 'express';
import { SvcError } from '@svc/core';
import type { AuthContext } from '@svc/auth';
import { appWith, request } from '../../testing';
import { cookieRequestGuard } from '../csrf';
import { authenticate, type AuthenticateOptions } from '.';

const SERVICE_KEY = `service-key-${'k'.repeat(32)}`;
const USER: AuthContext = {
  userId: 'u1',
  roles: ['reader'],
  permissions: [],
  isAnonymous: false,
  aal: 'aal1',
};

/** The gate in front of a handler that shows who it let through, as the server mounts it. */
function gate(options: Partial<AuthenticateOptions> = {}) {
  const verified: string[] = [];
  const verify = async (token: string): Promise<AuthContext> => {
    verified.push(token);
    if (token === 'good') return USER;
    throw new SvcError(
      'INVALID_TOKEN',
      401,
      'the access token is malformed or its signature is wrong',
    );
  };
  const app = appWith([
    authenticate({
      verify,
      serviceKey: SERVICE_KEY,
      required: false,
      checkOrigin: cookieRequestGuard([]),
      ...options,
    }),
    (_req: Request, res: Response) => void res.status(200).json(res.locals.caller),
  ]);
  return { app, verified };
}

test('no token: anonymous, or with required 401 UNAUTHORIZED and a Bearer challenge', async () => {
  expect(await (await request(gate().app, '/data')).json()).toEqual({ kind: 'anonymous' });
  const res = await request(gate({ required: true }).app, '/data');
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
  expect(await res.json()).toEqual({
    code: 'UNAUTHORIZED',
    error: 'UNAUTHORIZED: a bearer token is required',
  });
});

test('a valid token gives the user; a bad one is 401 whether or not required, with error="invalid_token"', async () => {
  const { app } = gate();
  expect(
    await (await request(app, '/data', { headers: { authorization: 'Bearer good' } })).json(),
  ).toEqual({ kind: 'user', context: USER });
  for (const required of [false, true]) {
    const res = await request(gate({ required }).app, '/data', {
      headers: { authorization: 'Bearer forged' },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="svc", error="invalid_token"');
    expect(await res.json()).toMatchObject({ code: 'INVALID_TOKEN' });
  }
});

test('the service key passes as the service, never reaching verify, even without auth installed', async () => {
  const { app, verified } = gate({ required: true });
  expect(
    await (
      await request(app, '/data', { headers: { authorization: `Bearer ${SERVICE_KEY}` } })
    ).json(),
  ).toEqual({ kind: 'service' });
  expect(verified).toEqual([]);
  const bare = gate({ required: true, verify: undefined }).app;
  expect(
    (await request(bare, '/data', { headers: { authorization: `Bearer ${SERVICE_KEY}` } })).status,
  ).toBe(200);
});

test('required without auth installed: 503 SERVICE_UNAVAILABLE', async () => {
  const res = await request(gate({ required: true, verify: undefined }).app, '/data');
  expect(res.status).toBe(503);
  expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
});

test('the header wins over the cookie, the cookie over ?token', async () => {
  const { app, verified } = gate();
  await request(app, '/data?token=q', {
    headers: { authorization: 'Bearer h', cookie: 'auth_token=c' },
  });
  await request(app, '/data?token=q', { headers: { cookie: 'auth_token=c' } });
  await request(app, '/data?token=q');
  expect(verified).toEqual(['h', 'c', 'q']);
});

// Attack: a page of another origin makes the browser send a write with the auth_token cookie.
test('a cookie-authenticated write from a foreign page is 403 before the token is verified', async () => {
  const { app, verified } = gate();
  const res = await request(app, '/data', {
    method: 'POST',
    headers: { cookie: 'auth_token=good', origin: 'https://evil.example' },
  });
  expect(res.status).toBe(403);
  expect(await res.json()).toMatchObject({ code: 'ACCESS_DENIED' });
  expect(verified).toEqual([]);
  // The same write from the server's own page, or with the token in the header, passes.
  const own = await request(app, '/data', {
    method: 'POST',
    headers: { cookie: 'auth_token=good', origin: 'http://localhost' },
  });
  expect(own.status).toBe(200);
  const header = await request(app, '/data', {
    method: 'POST',
    headers: { authorization: 'Bearer good', origin: 'https://evil.example' },
  });
  expect(header.status).toBe(200);
});
