/**
 * Bad input never gets a 500 from the server: random methods, paths, headers and bodies on every
 * route family answer in the envelope with a status other than 500 (501 is the honest answer of
 * routes whose feature is not in this release).
 */
import fc from 'fast-check';
import type { SvcServer } from '../src';
import { SECRET, sharedDatabase, start } from './helpers';

const db = sharedDatabase();
let server: SvcServer;
beforeAll(async () => {
  server = await start(db.get(), {
    enableAuth: true,
    jwtSecret: SECRET,
    serviceKey: `k-${'x'.repeat(40)}`,
  });
});
afterAll(() => server.close());

const PATHS = [
  '/',
  '/health',
  '/health/ready',
  '/query',
  '/schema',
  '/schema/types',
  '/migrations',
  '/stats',
  '/metrics',
  '/ext/x',
  '/api/User',
  '/api/User/0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b',
  '/api/User/0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b/friends',
  '/api/openapi.json',
  '/auth/register',
  '/auth/login',
  '/auth/refresh',
  '/auth/logout',
  '/auth/profile',
  '/auth/password',
  '/auth/reset',
  '/auth/reset/confirm',
  '/auth/verify',
  '/auth/verify/resend',
  '/auth/mfa/totp/enroll',
  '/auth/anonymous',
  '/auth/upgrade',
  '/auth/sessions',
  '/auth/sessions/0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b',
  '/auth/sessions/revoke-others',
  '/auth/nope',
  '/%',
  '/api/%E0%A4%A',
  '/query?token=%00',
  '/auth/verify?token=%00',
];
const json = fc.jsonValue({ maxDepth: 3 });
const text = fc.oneof(
  json.map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.constantFrom(
    '{"query":"select 1"}',
    '{"schema":"type A;\\n# \\u0000"}',
    '{"schema":"type A { p: nope; }"}',
    '{"email":"a\\u0000@example.com","password":"x"}',
  ),
);

test('no route answers 500 to any request', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
      fc.constantFrom(...PATHS),
      fc.option(text, { nil: undefined }),
      fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
      fc.constantFrom(undefined, 'Bearer junk', `Bearer k-${'x'.repeat(40)}`, 'Basic Zm9vOmJhcg=='),
      async (method, path, body, type, authorization) => {
        const res = await fetch(`${server.url}${path}`, {
          method,
          headers: { 'content-type': type, ...(authorization ? { authorization } : {}) },
          ...(body !== undefined && method !== 'GET' ? { body } : {}),
        });
        const raw = await res.text();
        if (res.status === 500)
          throw new Error(`${method} ${path} ${String(body).slice(0, 120)} → 500 ${raw}`);
        if (res.status >= 400)
          expect(JSON.parse(raw)).toEqual(
            expect.objectContaining({ code: expect.any(String), error: expect.any(String) }),
          );
      },
    ),
    { numRuns: 400 },
  );
});
