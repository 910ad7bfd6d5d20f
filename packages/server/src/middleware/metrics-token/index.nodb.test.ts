/*
 * Issue 26, 9: with `metricsToken` set, `/metrics` and `/stats` take that bearer and nothing
 * else; the attack it prevents is reading the server's figures (routes, statuses, latencies,
 * pool) anonymously, or with a credential meant for something else.
 */
import type { Request, Response } from 'express';
import { appWith, request } from '../../testing';
import { requireMetricsToken } from '.';

const TOKEN = `metrics-${'t'.repeat(32)}`;
const app = appWith([
  requireMetricsToken(TOKEN),
  (_req: Request, res: Response) => void res.status(200).json({ through: true }),
]);

test('the token as a bearer passes, the scheme in any case (RFC 7235 §2.1)', async () => {
  for (const authorization of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`, `BEARER  ${TOKEN} `]) {
    const res = await request(app, '/metrics', { headers: { authorization } });
    expect({ authorization, status: res.status }).toEqual({ authorization, status: 200 });
  }
});

test('no bearer (none, another scheme, the cookie, ?token=) is 401 with the Bearer challenge', async () => {
  for (const [path, headers] of [
    ['/metrics', {}],
    ['/metrics', { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }],
    ['/metrics', { cookie: `auth_token=${TOKEN}` }],
    [`/metrics?token=${TOKEN}`, {}],
  ] as const) {
    const res = await request(app, path, { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
    expect(await res.json()).toEqual({
      code: 'UNAUTHORIZED',
      error:
        'UNAUTHORIZED: /metrics needs the metrics token as its bearer (Authorization: Bearer <metricsToken>)',
    });
  }
});

test('another bearer is 401 with error="invalid_token", and the message holds no token', async () => {
  for (const wrong of [`${TOKEN}x`, TOKEN.slice(0, -1), TOKEN.toUpperCase(), 'x']) {
    const res = await request(app, '/stats', { headers: { authorization: `Bearer ${wrong}` } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="svc", error="invalid_token"');
    const body = await res.json();
    expect(body).toEqual({
      code: 'UNAUTHORIZED',
      error: 'UNAUTHORIZED: the bearer token is not the metrics token',
    });
  }
});
