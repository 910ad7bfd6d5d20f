/**
 * MFA through @svc/auth alone: the whole flow (enroll, confirm, the challenge a login returns,
 * TOTP and recovery-code answers, disable) in a bare Express app over loopback, and through the
 * Fetch handler, one instance's challenge answered through the other.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createTestDatabase, type TestDatabase } from '@svc/core/testing';
import { base32Decode, createAuth, hotp, type Auth } from '../../src';
import { authRouter } from '../../src/express';

const SECRET = 'standalone-mfa-secret-0123456789-abcdefgh';
const PASSWORD = 'long enough pw';
let t: TestDatabase;
let auth: Auth;
beforeAll(async () => {
  t = await createTestDatabase();
  auth = await createAuth({ jwtSecret: SECRET, bcryptRounds: 4 }, { database: t.db });
});
afterAll(async () => {
  await auth.close();
  await t.dispose();
});

/** An answer's JSON, read loosely by the assertions. */
// biome-ignore lint/suspicious/noExplicitAny: assertions read the body loosely
type Body = Record<string, any>;

type Send = (
  path: string,
  body?: unknown,
  token?: string,
) => Promise<{ status: number; body: Body }>;

/** The MFA flow over `send`; each step's status and answer checked. */
async function flow(send: Send, address: string): Promise<void> {
  const reg = await send('/auth/register', { email: address, password: PASSWORD });
  expect(reg.status).toBe(201);
  const token = reg.body.token as string;
  const enrolled = await send('/auth/mfa/totp/enroll', undefined, token);
  expect(enrolled.status).toBe(200);
  const key = base32Decode(enrolled.body.secret) as Buffer;
  const step = Math.floor(Date.now() / 30_000);
  expect(await send('/auth/mfa/totp/confirm', { code: hotp(key, step) }, token)).toEqual({
    status: 200,
    body: { success: true },
  });
  const gen = await send('/auth/mfa/recovery-codes/generate', undefined, token);
  expect(gen.body.codes).toHaveLength(8);

  const challenge = await send('/auth/login', { email: address, password: PASSWORD });
  expect(challenge.body).toMatchObject({ mfaRequired: true, methods: ['totp', 'recovery_code'] });
  const signedIn = await send('/auth/mfa/totp/login', {
    challengeToken: challenge.body.challengeToken,
    code: hotp(key, step + 1),
  });
  expect(signedIn.status).toBe(200);
  expect(signedIn.body.user.email).toBe(address);

  const second = await send('/auth/login', { email: address, password: PASSWORD });
  const byCode = await send('/auth/mfa/recovery-codes/login', {
    challengeToken: second.body.challengeToken,
    code: gen.body.codes[0],
  });
  expect(byCode.status).toBe(200);

  expect(await send('/auth/mfa/totp/disable', { code: gen.body.codes[1] }, token)).toEqual({
    status: 200,
    body: { success: true },
  });
  const plain = await send('/auth/login', { email: address, password: PASSWORD });
  expect(plain.body.token).toEqual(expect.any(String));
}

test('in a bare Express app: app.use("/auth", authRouter(auth))', async () => {
  const app = express();
  app.use('/auth', authRouter(auth));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await flow(async (path, body, token) => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Body };
    }, 'mfa-express@example.com');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test("through the Fetch handler: Request in, Response out; a second instance answers the first one's challenge", async () => {
  const other = await createAuth({ jwtSecret: SECRET, bcryptRounds: 4 }, { database: t.db });
  let n = 0;
  try {
    await flow(async (path, body, token) => {
      // Alternate instances: each step may land on either (they share only the database).
      const handler = n++ % 2 ? other.handler : auth.handler;
      const res = await handler(
        new Request(`http://app.local${path}`, {
          method: 'POST',
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
      return { status: res.status, body: (await res.json()) as Body };
    }, 'mfa-fetch@example.com');
  } finally {
    await other.close();
  }
});
