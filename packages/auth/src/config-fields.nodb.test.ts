import { AUTH_CONFIG_DEFAULTS } from './config';
import { authConfigProblems } from './config-check';
import { AUTH_FIELDS, SMTP_FIELDS } from './config-fields';

describe('AUTH_FIELDS: the one table of the auth settings', () => {
  test('every default has a field of its type, and every key is there once', () => {
    const byKey = new Map(AUTH_FIELDS.map((f) => [f.key, f]));
    expect(byKey.size).toBe(AUTH_FIELDS.length);
    for (const [key, value] of Object.entries(AUTH_CONFIG_DEFAULTS)) {
      const field = byKey.get(key);
      expect({ key, type: field?.type }).toEqual({
        key,
        type:
          typeof value === 'boolean' ? 'boolean' : typeof value === 'number' ? 'integer' : 'string',
      });
      if (typeof value === 'number') {
        expect(value).toBeGreaterThanOrEqual(field?.min as number);
        expect(value).toBeLessThanOrEqual(field?.max as number);
      }
    }
  });

  test("[auth.smtp]'s keys are @svc/smtp's: each one it knows is accepted, an unknown one refused", () => {
    const full = {
      host: 'smtp.example.com',
      from: 'Example <no-reply@example.com>',
      port: 2525,
      secure: false,
      auth: { user: 'u', pass: 'p' },
      hostname: 'mail.example.com',
      replyTo: 'support@example.com',
      timeoutMs: 1000,
      tlsRejectUnauthorized: true,
      tls: { ca: 'PEM' },
      logger: { info() {}, warn() {} },
      transcript: () => {},
    };
    expect(SMTP_FIELDS.map((f) => f.key).sort()).toEqual(Object.keys(full).sort());
    expect(authConfigProblems({ smtp: full })).toEqual([]);
  });
});

describe('authConfigProblems: what createAuth would refuse, every part at once', () => {
  test('none for an empty configuration', () => {
    expect(authConfigProblems({})).toEqual([]);
  });

  test('settings, branding and SMTP each named', () => {
    const problems = authConfigProblems({
      bcryptRounds: 99,
      branding: { brandColor: 'red' },
      smtp: { host: 'smtp.example.com', from: 'not an address' },
    });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^bcryptRounds must be an integer from 4 to 31/);
    expect(problems[1]).toMatch(/^branding\.brandColor /);
    expect(problems[2]).toMatch(/^invalid SMTP config: from/);
  });
});
