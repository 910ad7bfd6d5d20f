import {
  AUTH_CONFIG_KEYS,
  AUTH_SETTINGS_SHOWN,
  describeAuthSettings,
  resolveAuthConfig,
} from './config';
import { github } from './oauth/providers';
import { SECRET_SHOWN, showSetting } from './settings-shown';

// The attack: an administrator's page (or a screenshot of it) leaking the JWT secret, the SMTP
// password, a captcha, OAuth or webhook secret. Every secret below is a distinct marker; none
// may appear anywhere in what is shown.
const SECRETS = {
  jwt: 'JWT-SECRET-0123456789-0123456789-0123456789',
  smtp: 'SMTP-PASSWORD-marker',
  captcha: 'CAPTCHA-SECRET-marker',
  oauth: 'OAUTH-CLIENT-SECRET-marker',
  webhook: 'WEBHOOK-SECRET-marker',
  hookPath: 'HOOK-PATH-TOKEN-marker',
  tls: 'TLS-CA-marker',
  template: 'TEMPLATE-BODY-marker',
};

const config = resolveAuthConfig({
  jwtSecret: SECRETS.jwt,
  tokenExpiry: 900,
  smtp: {
    host: 'smtp.example.com',
    from: 'no-reply@example.com',
    port: 587,
    auth: { user: 'mailer', pass: SECRETS.smtp },
    tls: { ca: SECRETS.tls },
    // A key the description does not know (a typo of someone's): never shown.
    password: SECRETS.smtp,
  } as never,
  captcha: { gate: ['register'], provider: 'hcaptcha', secret: SECRETS.captcha } as never,
  oauth: {
    providers: { github: github({ clientId: 'gh-client', clientSecret: SECRETS.oauth }) },
    redirectUris: ['https://app.example.com/callback'],
  },
  webhooks: [
    {
      url: `https://hooks.example.com/services/${SECRETS.hookPath}`,
      events: ['IdentityCreated'],
      secret: SECRETS.webhook,
    },
  ],
  emailTemplates: { passwordReset: () => ({ subject: 's', html: SECRETS.template }) } as never,
});

describe('describeAuthSettings', () => {
  test('shows no secret of any kind, anywhere', () => {
    const shown = JSON.stringify(describeAuthSettings(config));
    for (const secret of Object.values(SECRETS)) expect(shown).not.toContain(secret);
  });

  test('shows what an administrator needs: providers, lifetimes, rate limits, the SMTP host', () => {
    const shown = describeAuthSettings(config) as Record<string, any>;
    expect(shown.jwtSecret).toBe(SECRET_SHOWN);
    expect(shown.tokenExpiry).toBe(900);
    expect(shown.refreshTokenExpiry).toBe(604800);
    expect(shown.smtp).toEqual({
      host: 'smtp.example.com',
      from: 'no-reply@example.com',
      port: 587,
      auth: { user: 'mailer', pass: SECRET_SHOWN },
      tls: ['ca'],
    });
    expect(shown.captcha).toMatchObject({ provider: 'hcaptcha', secret: SECRET_SHOWN });
    expect(shown.oauth.providers).toEqual({
      github: { type: 'github', clientId: 'gh-client', scopes: expect.any(Array) },
    });
    expect(shown.webhooks).toEqual([
      { url: 'https://hooks.example.com', events: ['IdentityCreated'], secret: SECRET_SHOWN },
    ]);
    expect(shown.emailTemplates).toEqual(['passwordReset']);
    expect(shown.rateLimits.login).toEqual({ windowSeconds: 60, perEmail: 10, perIp: 100 });
  });

  test('every known setting says how it shows (the key list is read off the table)', () => {
    expect(AUTH_CONFIG_KEYS).toEqual(Object.keys(AUTH_SETTINGS_SHOWN));
    expect(AUTH_CONFIG_KEYS).toEqual(expect.arrayContaining(['jwtSecret', 'smtp', 'oauth']));
  });
});

describe('showSetting', () => {
  test.each([
    ['secret', 'x', SECRET_SHOWN],
    ['secret', undefined, null],
    ['origin', 'https://a.example/p?token=1', 'https://a.example'],
    ['origin', 'not a url', SECRET_SHOWN],
    ['names', { a: 1, b: 2 }, ['a', 'b']],
    ['function', () => 1, '(function)'],
    ['value', { a: [1] }, { a: [1] }],
  ] as const)('%s of %p', (show, value, expected) => {
    expect(showSetting(value, show)).toEqual(expected);
  });

  test('fields: an unnamed key is left out; each: lists, records and Maps', () => {
    expect(showSetting({ a: 1, b: 2 }, { fields: { a: 'value' } })).toEqual({ a: 1 });
    expect(showSetting([{ s: 'x' }], { each: { fields: { s: 'secret' } } })).toEqual([
      { s: SECRET_SHOWN },
    ]);
    expect(showSetting(new Map([['k', 'v']]), { each: 'secret' })).toEqual({ k: SECRET_SHOWN });
    expect(showSetting('flat', { fields: { a: 'value' } })).toBe(SECRET_SHOWN);
  });
});

test('describeAuthSettings lists the settings in the order of AUTH_SETTINGS_SHOWN', () => {
  const shown = Object.keys(
    describeAuthSettings(resolveAuthConfig({ jwtSecret: SECRETS.jwt, cookie: true })),
  );
  expect(shown[0]).toBe('jwtSecret');
  expect(shown).toEqual(AUTH_CONFIG_KEYS.filter((k) => shown.includes(k)));
});
