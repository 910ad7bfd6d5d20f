/**
 * Bad input never gets a 500: random JSON bodies (odd types, huge and control-character strings,
 * NUL bytes that PostgreSQL refuses in text) sent to every public auth route over the real
 * Postgres store answer 2xx or 4xx in the envelope.
 */
import fc from 'fast-check';
import { createTestDatabase, type TestDatabase } from '@svc/core/testing';
import { createAuth, type Auth } from '../src';

let t: TestDatabase;
let auth: Auth;
beforeAll(async () => {
  t = await createTestDatabase();
  auth = await createAuth(
    { jwtSecret: 'robustness-secret-0123456789-abcdefghij', bcryptRounds: 4 },
    { database: t.db },
  );
  await auth.register({
    email: 'known@example.com',
    password: 'a long passphrase',
    username: 'known',
  });
});
afterAll(async () => {
  await auth.close();
  await t.dispose();
});

const nasty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000@example.com',
    'known@example.com',
    'KNOWN@EXAMPLE.COM',
    'x'.repeat(5000),
    '@',
    'a@b',
    '"; drop table x; --',
    '\ud800',
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);
const FIELDS = [
  'email',
  'password',
  'username',
  'metadata',
  'refreshToken',
  'reset_token',
  'new_password',
  'old_password',
  'token',
];
const body = fc.dictionary(fc.constantFrom(...FIELDS), nasty, { maxKeys: 5 });
const ROUTES = [
  '/auth/register',
  '/auth/login',
  '/auth/refresh',
  '/auth/reset',
  '/auth/reset/confirm',
  '/auth/verify/resend',
];

test('public POST routes answer 2xx or 4xx to any JSON body', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...ROUTES), body, async (route, payload) => {
      const res = await auth.handler(
        new Request(`http://app.local${route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload),
        }),
      );
      const envelope = (await res.json()) as { code?: string; error?: string };
      if (res.status >= 500)
        throw new Error(
          `${route} ${JSON.stringify(payload).slice(0, 200)} → ${res.status} ${JSON.stringify(envelope)}`,
        );
      if (res.status >= 400) expect(envelope.error).toMatch(new RegExp(`^${envelope.code}: `));
    }),
    { numRuns: 300 },
  );
});

test('GET /auth/verify answers 4xx to any token text', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 100 }), async (token) => {
      const res = await auth.handler(
        new Request(`http://app.local/auth/verify?token=${encodeURIComponent(token)}`),
      );
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }),
    { numRuns: 100 },
  );
});

// Regression (found by the property test above on PostgreSQL): a NUL in a login email reached
// the database, which refuses NUL in text, and came back as a 500.
test('NUL characters are a 400 at the HTTP boundary and a VALIDATION_ERROR from the functions', async () => {
  const res = await auth.handler(
    new Request('http://app.local/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a\u0000@example.com', password: ' ' }),
    }),
  );
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({
    code: 'VALIDATION_ERROR',
    error: 'VALIDATION_ERROR: request body must not contain NUL characters',
  });
  await expect(
    auth.login({ email: 'a\u0000@example.com', password: 'a long passphrase' }),
  ).rejects.toMatchObject({
    code: expect.stringMatching(/^(VALIDATION_ERROR|INVALID_CREDENTIALS)$/),
  });
  await expect(
    auth.register({
      email: 'nul@example.com',
      password: 'a long passphrase',
      metadata: { note: 'a\u0000b' },
    }),
  ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
});

// Issue 8: a JSON escape can spell a lone UTF-16 surrogate; PostgreSQL's jsonb refuses it (a
// 500 before) and a text column would store U+FFFD in its place.
test('lone surrogates are a 400 at the HTTP boundary and a VALIDATION_ERROR from the functions', async () => {
  for (const body of [
    '{"email":"s@example.com","password":"a long passphrase","metadata":{"a":"\\ud800"}}',
    '{"email":"\\udc00@example.com","password":"x"}',
  ]) {
    const res = await auth.handler(
      new Request('http://app.local/auth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'VALIDATION_ERROR',
      error: 'VALIDATION_ERROR: request body must not contain lone UTF-16 surrogates',
    });
  }
  for (const input of [
    { email: 's1@example.com', password: 'a long passphrase', metadata: { a: { b: ['\ud800'] } } },
    { email: 's2\udfff@example.com', password: 'a long passphrase' },
    { email: 's3@example.com', password: 'a long passphrase', username: 'ab\ud800c' },
    { email: 's4@example.com', password: 'a long passphrase\ud800' },
  ]) {
    await expect(auth.register(input)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/lone UTF-16 surrogates|username must be/),
    });
  }
});
