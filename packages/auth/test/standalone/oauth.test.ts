/**
 * The OAuth routes of @svc/auth without @svc/server: in a bare Express app (behind
 * express.urlencoded(), which consumes a form_post callback's body first) and through the Fetch
 * handler in a Hono app, against the scripted loopback provider.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Hono } from 'hono';
import { createTestDatabase, type TestDatabase } from '@svc/core/testing';
import { type Auth, createAuth, oidc } from '../../src';
import { authRouter } from '../../src/express';
import { SCRIPTED_CLIENT, scriptedProvider } from '../../src/oauth/__tests__/scripted-provider';

const SECRET = 'standalone-secret-0123456789-abcdefghijkl';
const APP = 'https://app.example.com/done';
const idp = scriptedProvider();
let t: TestDatabase;
let auth: Auth;

beforeAll(async () => {
  await idp.listen();
  t = await createTestDatabase();
  auth = await createAuth(
    {
      jwtSecret: SECRET,
      bcryptRounds: 4,
      oauth: {
        providers: { idp: oidc({ issuer: idp.issuer, ...SCRIPTED_CLIENT }) },
        redirectUris: [APP],
      },
    },
    { database: t.db },
  );
}, 60_000);
afterAll(async () => {
  await auth.close();
  await t.dispose();
  await new Promise<void>((resolve) => idp.server.close(() => resolve()));
});

/** authorize → (provider) → callback → token, over `base`; `post` sends the callback as a form. */
async function flow(base: string, post: boolean): Promise<Record<string, unknown>> {
  const start = await fetch(
    `${base}/auth/oauth/idp/authorize?redirectUri=${encodeURIComponent(APP)}`,
    { redirect: 'manual' },
  );
  expect(start.status).toBe(302);
  const to = start.headers.get('location') as string;
  expect(new URL(to).searchParams.get('redirect_uri')).toBe(`${base}/auth/oauth/idp/callback`);
  const grant = idp.grant(to, Date.now());
  const back = post
    ? await fetch(`${base}/auth/oauth/idp/callback`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(grant).toString(),
      })
    : await fetch(`${base}/auth/oauth/idp/callback?${new URLSearchParams(grant)}`, {
        redirect: 'manual',
      });
  expect(back.status).toBe(post ? 303 : 302);
  const code = new URL(back.headers.get('location') as string).searchParams.get('code');
  const res = await fetch(`${base}/auth/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

async function listening(
  listen: (port: number, cb: () => void) => { close(cb: () => void): void; address(): unknown },
  run: (base: string) => Promise<void>,
): Promise<void> {
  let server: ReturnType<typeof listen> | undefined;
  await new Promise<void>((resolve) => {
    server = listen(0, resolve);
  });
  try {
    await run(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`);
  } finally {
    await new Promise<void>((resolve) => server!.close(() => resolve()));
  }
}

test('a bare Express app behind express.urlencoded(): GET and form_post callbacks', async () => {
  const app = express();
  app.use(express.urlencoded({ extended: false }));
  app.use('/auth', authRouter(auth));
  await listening(
    (port, cb) => app.listen(port, '127.0.0.1', cb),
    async (base) => {
      const first = await flow(base, false);
      expect(first.user).toMatchObject({ email: 'flow@example.com' });
      const second = await flow(base, true);
      expect((second.user as { id: string }).id).toBe((first.user as { id: string }).id);
    },
  );
});

test('a Hono app over the Fetch handler', async () => {
  const app = new Hono();
  app.all('/auth/*', (c) => auth.handler(c.req.raw));
  const http = await import('node:http');
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const response = await app.fetch(
      new Request(`http://127.0.0.1:${(server.address() as AddressInfo).port}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await listening(
    (port, cb) => server.listen(port, '127.0.0.1', cb),
    async (base) => {
      const result = await flow(base, true);
      expect(result.user).toMatchObject({ email: 'flow@example.com' });
    },
  );
});
