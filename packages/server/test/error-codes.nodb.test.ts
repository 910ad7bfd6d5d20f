/**
 * One registry of error codes (issue 9): with every package's tables loaded (core's common,
 * query and db codes, auth's, the server's), each code has exactly one status and one table, and
 * the statuses are the ones DECISIONS.md and the spec give.
 */
import fs from 'node:fs';
import path from 'node:path';
import { commonError, registeredErrorCodes } from '@svc/core';
import { authError } from '@svc/auth';
import '@svc/rest';
import { ConfigError } from '../src';
import { transactionError } from '../src/transactions';

/** DECISIONS.md, "One error envelope everywhere", quoted: the codes with their statuses. */
const DECISIONS_ENVELOPE = `
- Query errors: \`code\` \`QUERY_ERROR\` (400) with \`type\` the error class (\`InvalidValueError\`,
  \`InvalidReferenceError\`, \`ResultCardinalityMismatchError\`, \`EdgeQLSyntaxError\`, ...) and
  \`extensions.sqlState\` where one applies; \`VALIDATION_ERROR\` (400) for variables;
  \`ConstraintViolationError\` uses code \`CONSTRAINT_VIOLATION\` (409); access policy denial
  \`ACCESS_DENIED\` (403); read-only \`READ_ONLY\` (503); timeout \`REQUEST_TIMEOUT\` (408);
  unknown REST type or row \`NOT_FOUND\` (404); \`METHOD_NOT_ALLOWED\` (405); \`RATE_LIMITED\` (429, with
  \`Retry-After\`); captcha missing or refused \`CAPTCHA_FAILED\` (400); \`INVALID_OPERATION\` (400);
  unexpected \`INTERNAL_ERROR\` (500, no internals in the message).
`;

/** The spec, "Auth error envelope", quoted: the rows with a status. */
const SPEC_AUTH_ENVELOPE = `
| \`EMAIL_NOT_VERIFIED\` | 403 | verification required but not completed |
| \`INVALID_CREDENTIALS\` | 401 | wrong email, username or password |
| \`INVALID_REFRESH_TOKEN\` | 401 | refresh token invalid or already used |
| \`INVALID_TOKEN\` | 401 | JWT malformed or bad signature; also stale verification link and WebAuthn counter regression |
| \`PASSWORD_TOO_WEAK\` | 400 | password breaks the policy |
| \`REGISTRATION_DISABLED\` | 403 | open registration off |
| \`SESSION_EXPIRED\` | 401 | session revoked or timed out |
| \`TOKEN_EXPIRED\` | 401 | JWT expired |
| \`USER_ALREADY_EXISTS\` | 409 | email or username taken |
| \`USER_INACTIVE\` | 403 | account deactivated |
| \`USER_NOT_FOUND\` | 404 | no user with that email or username |
`;

const pairs = (text: string, pattern: RegExp) =>
  [...text.matchAll(pattern)].map((m) => [m[1] as string, Number(m[2])] as const);
const decisions = pairs(DECISIONS_ENVELOPE, /`([A-Z_]+)` \((\d{3})/g);
const specAuth = pairs(SPEC_AUTH_ENVELOPE, /^\| `([A-Z_]+)` \| (\d{3}) \|/gm);

/** The shared design documents sit beside the repository (`../shared`), or beside its worktrees. */
function sharedDocument(...parts: string[]): string | undefined {
  const root = path.join(__dirname, '..', '..', '..');
  return [path.join(root, '..', 'shared'), path.join(root, '..', '..', 'shared')]
    .map((dir) => path.join(dir, ...parts))
    .find((file) => fs.existsSync(file));
}
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('the error-code registry, every package loaded', () => {
  const entries = registeredErrorCodes();
  const byCode = new Map(entries.map((e) => [e.code, e]));

  test('every code has exactly one status and one table', () => {
    for (const code of new Set(entries.map((e) => e.code))) {
      const rows = entries.filter((e) => e.code === code);
      expect({
        code,
        statuses: rows.map((r) => r.status),
        tables: rows.map((r) => r.owner),
      }).toEqual({
        code,
        statuses: [rows[0]?.status],
        tables: [rows[0]?.owner],
      });
    }
  });

  test('holds the tables and nothing else: common, query, db (core), auth, config and transaction (server)', () => {
    expect(new Set(entries.map((e) => e.owner))).toEqual(
      new Set(['common', 'query', 'db', 'auth', 'config', 'transaction']),
    );
    for (const [table, statuses] of [
      ['common', commonError.statuses],
      ['auth', authError.statuses],
    ] as const) {
      for (const [code, status] of Object.entries(statuses))
        expect(byCode.get(code)).toEqual({ code, status, owner: table });
    }
    for (const [code, status] of Object.entries(transactionError.statuses))
      expect(byCode.get(code)).toEqual({ code, status, owner: 'transaction' });
    expect(byCode.get('INVALID_CONFIG')).toEqual({
      code: 'INVALID_CONFIG',
      status: new ConfigError(['x']).status,
      owner: 'config',
    });
  });

  test('the auth table declares only auth codes: the shared ones are core’s', () => {
    for (const code of Object.keys(authError.statuses))
      expect(Object.keys(commonError.statuses)).not.toContain(code);
    expect(byCode.get('INVALID_OPERATION')?.owner).toBe('common');
    expect(byCode.get('UNAUTHORIZED')?.owner).toBe('common');
  });

  test.each(decisions)('DECISIONS.md: %s is %d', (code, status) => {
    expect(byCode.get(code)?.status).toBe(status);
  });

  test.each(specAuth)('spec, auth error envelope: %s is %d', (code, status) => {
    expect(byCode.get(code)?.status).toBe(status);
  });

  test('the quotes above are whole: twelve codes from DECISIONS.md, eleven from the spec', () => {
    expect(decisions).toHaveLength(12);
    expect(specAuth).toHaveLength(11);
  });

  const decisionsFile = sharedDocument('DECISIONS.md');
  const specFile = sharedDocument('spec', 'service-spec.md');
  (decisionsFile && specFile ? test : test.skip)(
    'the quotes are the current text of DECISIONS.md and the spec',
    () => {
      expect(flat(fs.readFileSync(decisionsFile as string, 'utf8'))).toContain(
        flat(DECISIONS_ENVELOPE),
      );
      expect(flat(fs.readFileSync(specFile as string, 'utf8'))).toContain(flat(SPEC_AUTH_ENVELOPE));
    },
  );
});
