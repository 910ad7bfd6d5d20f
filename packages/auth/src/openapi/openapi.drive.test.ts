/**
 * Every `/auth/*` route driven through `auth.handler` (Fetch Requests, as the server and the
 * Express adapter send them) for a success and at least one error, and every answer validated
 * against the fragment of the same configuration with Ajv 2020-12: the status is documented, the
 * body matches its schema (for errors: the envelope, with a code the route documents), required
 * headers are there; the request body of each success validates against the documented request
 * body. OAuth runs against the scripted OpenID provider on 127.0.0.1; passkeys with the software
 * authenticator. The last test fails when a documented operation was not driven both ways.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { useCoreHarness } from '../__tests__/harness';
import { base32Decode, totp } from '../mfa/totp';
import { SCRIPTED_CLIENT, scriptedProvider } from '../oauth/__tests__/scripted-provider';
import { oidc } from '../oauth/providers';
import { AUTH_ROUTES } from '../routes/table';
import type { Auth, AuthConfig, AuthEvent } from '../types';
import { SoftAuthenticator } from '../webauthn/soft-authenticator';
import { openApiValidator } from '@svc/test-support';
import {
  AUTH_OPERATION_DOCS,
  type AuthOpenApiOptions,
  authOpenApiDocument,
  authOpenApiOptions,
} from './index';

const h = useCoreHarness();
const idp = scriptedProvider();
beforeAll(() => idp.listen());
afterAll(() => new Promise<void>((resolve) => idp.server.close(() => resolve())));

/** The requests' own origin: loopback, so the OAuth callback address derived from it is acceptable. */
const BASE = 'http://127.0.0.1:5656';
const ORIGIN = 'https://app.example.test';
const WEBAUTHN = { origin: ORIGIN, rpId: 'example.test', rpName: 'openapi' };
const APP = 'https://app.example.com/done';
const PASSWORD = 'a long passphrase';

const fullConfig = (): Partial<AuthConfig> => ({
  webauthn: WEBAUTHN,
  oauth: {
    providers: { idp: oidc({ issuer: idp.issuer, ...SCRIPTED_CLIENT }) },
    redirectUris: [APP],
  },
  cookie: true,
  rateLimits: { login: { perEmail: 3 } },
});

/** `METHOD /path` of the table → the outcomes driven. */
const driven = new Map<string, Set<'success' | 'error'>>();
const validators = new Map<string, ReturnType<typeof openApiValidator>>();
function validatorFor(options: AuthOpenApiOptions) {
  const key = JSON.stringify(options);
  let v = validators.get(key);
  if (!v) {
    v = openApiValidator(authOpenApiDocument(options));
    validators.set(key, v);
  }
  return v;
}

interface CallOptions {
  /** The concrete path when the route has `:params`. */
  readonly path?: string;
  readonly body?: unknown;
  /** A body sent as is, with this Content-Type. */
  readonly raw?: { readonly type: string; readonly text: string };
  /** `application/x-www-form-urlencoded` fields. */
  readonly form?: Record<string, string>;
  readonly token?: string;
  readonly query?: Record<string, string>;
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely in assertions
type Body = any;
interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Body;
}

/** A caller of `auth.handler` that validates every answer against the fragment of `auth.config`. */
function caller(auth: Auth) {
  const v = validatorFor(authOpenApiOptions(auth.config));
  return async (method: string, route: string, o: CallOptions = {}): Promise<Reply> => {
    const url = new URL(`/auth${o.path ?? route}`, BASE);
    for (const [k, val] of Object.entries(o.query ?? {})) url.searchParams.set(k, val);
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.body);
    } else if (o.raw) {
      headers['content-type'] = o.raw.type;
      body = o.raw.text;
    } else if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(o.form).toString();
    }
    const res = await auth.handler(new Request(url, { method, headers, body }), {
      ip: '127.0.0.1',
      userAgent: 'openapi-test',
    });
    const text = await res.text();
    const docPath = `/auth${route.replace(/:(\w+)/g, '{$1}')}`;
    v.check({ method, path: docPath, status: res.status, headers: res.headers, body: text });
    if (res.status < 400) {
      v.checkParameters(method, docPath, { ...pathParams(route, url.pathname), ...o.query });
      if (o.form) v.checkRequest(method, docPath, o.form, 'application/x-www-form-urlencoded');
      else v.checkRequest(method, docPath, o.body);
    }
    const key = `${method} ${route}`;
    const seen = driven.get(key) ?? new Set();
    seen.add(res.status < 400 ? 'success' : 'error');
    driven.set(key, seen);
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };
}
type Call = ReturnType<typeof caller>;

/** The `:param` values of a concrete `/auth/...` path. */
function pathParams(route: string, pathname: string): Record<string, string> {
  const got = pathname.replace(/^\/auth/, '').split('/');
  return Object.fromEntries(
    route
      .split('/')
      .map((segment, i) => [segment, got[i]] as const)
      .filter(([segment]) => segment.startsWith(':'))
      .map(([segment, value]) => [segment.slice(1), decodeURIComponent(value ?? '')]),
  );
}

async function register(call: Call, email: string): Promise<Body> {
  const r = await call('POST', '/register', { body: { email, password: PASSWORD } });
  expect(r.status).toBe(201);
  return r.body;
}

async function newestEvent(auth: Auth, events: AuthEvent[], type: AuthEvent['eventType']) {
  await auth.settle();
  const e = events.filter((x) => x.eventType === type).at(-1);
  if (!e) throw new Error(`no ${type} event`);
  return e;
}

describe('every /auth route answers as its OpenAPI fragment says', () => {
  test('accounts: register, login, refresh, logout, profile, password, reset, verify', async () => {
    const { auth, events } = await h.make(fullConfig());
    const call = caller(auth);
    const email = 'ada@example.com';
    const reg = await register(call, email);
    expect((await call('POST', '/register', { body: { email, password: PASSWORD } })).status).toBe(
      409,
    );
    expect(
      (await call('POST', '/register', { raw: { type: 'application/json', text: '{' } })).status,
    ).toBe(400);

    const login = await call('POST', '/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.headers.get('set-cookie')).toMatch(/^auth_token=/);
    expect((await call('POST', '/login', { body: { email, password: 'wrong one!' } })).status).toBe(
      401,
    );
    expect(
      (await call('POST', '/login', { body: { username: 'nobody', password: 'x' } })).status,
    ).toBe(401);
    await call('POST', '/login', { body: { email, password: 'wrong one!' } });
    const limited = await call('POST', '/login', { body: { email, password: PASSWORD } });
    expect(limited.status).toBe(429);

    const refreshed = await call('POST', '/refresh', { body: { refreshToken: reg.refreshToken } });
    expect(refreshed.status).toBe(200);
    expect(
      (await call('POST', '/refresh', { body: { refreshToken: reg.refreshToken } })).status,
    ).toBe(401);

    expect((await call('GET', '/profile', { token: login.body.token })).body.email).toBe(email);
    expect((await call('GET', '/profile')).status).toBe(401);
    expect((await call('GET', '/profile', { token: 'not.a.jwt' })).status).toBe(401);
    expect((await call('POST', '/logout', { token: login.body.token })).status).toBe(200);
    expect((await call('POST', '/logout', { token: login.body.token })).status).toBe(401);

    const token = refreshed.body.token;
    const change = (old: string) =>
      call('PUT', '/password', {
        token,
        body: { old_password: old, new_password: 'another long one' },
      });
    expect((await change('wrong one!')).status).toBe(401);
    expect(
      (
        await call('PUT', '/password', {
          token,
          body: { old_password: PASSWORD, new_password: 'x' },
        })
      ).status,
    ).toBe(400);
    expect((await change(PASSWORD)).status).toBe(200);

    expect((await call('POST', '/reset', { body: { email } })).status).toBe(200);
    expect((await call('POST', '/reset', { body: {} })).status).toBe(400);
    const { resetToken } = await newestEvent(auth, events, 'PasswordResetRequested');
    const confirm = (reset_token: string) =>
      call('POST', '/reset/confirm', { body: { reset_token, new_password: 'a third long one' } });
    expect((await confirm('not-a-token')).status).toBe(401);
    expect((await confirm(resetToken as string)).status).toBe(200);

    expect((await call('POST', '/verify/resend', { body: { email } })).status).toBe(200);
    expect(
      (await call('POST', '/verify/resend', { raw: { type: 'text/plain', text: email } })).status,
    ).toBe(415);
    const { verificationToken } = await newestEvent(auth, events, 'EmailVerificationRequested');
    expect((await call('GET', '/verify')).status).toBe(400);
    expect((await call('GET', '/verify', { query: { token: 'not-a-token' } })).status).toBe(401);
    expect(
      (await call('GET', '/verify', { query: { token: verificationToken as string } })).status,
    ).toBe(200);
  });

  test('MFA: TOTP enrolment, the challenge, both challenge logins, recovery codes, disable', async () => {
    const { auth, clock } = await h.make(fullConfig());
    const call = caller(auth);
    const email = 'grace@example.com';
    const { token } = await register(call, email);
    // A second sign-in before TOTP is confirmed: a one-factor (aal1) session.
    const other = (await call('POST', '/login', { body: { email, password: PASSWORD } })).body
      .token as string;
    expect((await call('POST', '/mfa/totp/enroll')).status).toBe(401);
    const enrolled = await call('POST', '/mfa/totp/enroll', { token });
    expect(enrolled.status).toBe(200);
    const key = base32Decode(enrolled.body.secret) as Buffer;
    expect((await call('POST', '/mfa/totp/confirm', { token, body: { code: '12' } })).status).toBe(
      400,
    );
    expect(
      (await call('POST', '/mfa/totp/confirm', { token, body: { code: totp(key, clock()) } }))
        .status,
    ).toBe(200);
    // The other session is aal1: managing the confirmed factor takes a code (issue 26).
    expect(await call('POST', '/mfa/recovery-codes/generate', { token: other })).toMatchObject({
      status: 403,
      body: { code: 'MFA_REQUIRED' },
    });
    expect(
      (await call('POST', '/webauthn/register/begin', { token: other, body: { code: '000000' } }))
        .body.code,
    ).toBe('MFA_REQUIRED');
    expect(
      (await call('POST', '/mfa/totp/disable', { token: other, body: { code: '000000' } })).status,
    ).toBe(403);
    // Confirming made the registration's session aal2: it generates without a code.
    const codes = await call('POST', '/mfa/recovery-codes/generate', { token });
    expect(codes.body.codes).toHaveLength(8);

    const challenge = await call('POST', '/login', { body: { email, password: PASSWORD } });
    expect(challenge.body).toMatchObject({ mfaRequired: true, methods: ['totp', 'recovery_code'] });
    expect(challenge.headers.get('set-cookie')).toBeNull();
    const totpLogin = (challengeToken: string, code: string) =>
      call('POST', '/mfa/totp/login', { body: { challengeToken, code } });
    expect((await totpLogin('not-a-challenge', '123456')).status).toBe(401);
    clock.advance(30);
    expect((await totpLogin(challenge.body.challengeToken, totp(key, clock()))).status).toBe(200);

    const again = await call('POST', '/login', { body: { email, password: PASSWORD } });
    const recovery = (code: string) =>
      call('POST', '/mfa/recovery-codes/login', {
        body: { challengeToken: again.body.challengeToken, code },
      });
    expect((await recovery('AAAAA-AAAAA')).status).toBe(401);
    expect((await recovery(codes.body.codes[0])).status).toBe(200);

    expect(
      (await call('POST', '/mfa/totp/disable', { token, body: { code: '000000' } })).status,
    ).toBe(401);
    clock.advance(30);
    expect(
      (await call('POST', '/mfa/totp/disable', { token, body: { code: totp(key, clock()) } }))
        .status,
    ).toBe(200);

    const guest = await call('POST', '/anonymous');
    const refused = await call('POST', '/mfa/recovery-codes/generate', { token: guest.body.token });
    expect(refused.body.code).toBe('INVALID_OPERATION');
  });

  test('magic links and magic codes', async () => {
    const { auth, events } = await h.make(fullConfig());
    const call = caller(auth);
    const email = 'linus@example.com';
    await register(call, email);
    expect((await call('POST', '/magic-link/request', { body: {} })).status).toBe(400);
    expect((await call('POST', '/magic-link/request', { body: { email } })).status).toBe(200);
    const { magicLinkToken } = await newestEvent(auth, events, 'MagicLinkRequested');
    expect(
      (await call('POST', '/magic-link/consume', { body: { token: 'not-a-token' } })).status,
    ).toBe(401);
    expect(
      (await call('POST', '/magic-link/consume', { body: { token: magicLinkToken } })).status,
    ).toBe(200);

    expect((await call('POST', '/magic-code/request', { body: { email: 42 } })).status).toBe(400);
    expect((await call('POST', '/magic-code/request', { body: { email } })).status).toBe(200);
    const { magicCode } = await newestEvent(auth, events, 'MagicCodeRequested');
    expect(
      (await call('POST', '/magic-code/verify', { body: { email, code: 'abc' } })).status,
    ).toBe(400);
    expect(
      (await call('POST', '/magic-code/verify', { body: { email, code: magicCode } })).status,
    ).toBe(200);
  });

  test('passkeys: register, sign in, list, delete', async () => {
    const { auth } = await h.make(fullConfig());
    const call = caller(auth);
    const email = 'barbara@example.com';
    const { token } = await register(call, email);
    expect((await call('POST', '/webauthn/register/begin')).status).toBe(401);
    const begin = await call('POST', '/webauthn/register/begin', { token });
    expect(begin.status).toBe(200);
    const a = new SoftAuthenticator();
    const created = a.create(begin.body.options, { origin: ORIGIN, attestation: 'packed-self' });
    const finish = (body: unknown) => call('POST', '/webauthn/register/finish', { token, body });
    expect((await finish({ challengeId: begin.body.challengeId })).status).toBe(400);
    expect(
      (await finish({ challengeId: begin.body.challengeId, ...created, name: 'Key' })).status,
    ).toBe(200);

    expect((await call('POST', '/webauthn/login/begin', { body: { email: 42 } })).status).toBe(400);
    for (const body of [{ email }, undefined]) {
      const lb = await call('POST', '/webauthn/login/begin', { body });
      expect(lb.status).toBe(200);
      const assertion = a.get(lb.body.options, { origin: ORIGIN });
      const lf = await call('POST', '/webauthn/login/finish', {
        body: { challengeId: lb.body.challengeId, ...assertion },
      });
      expect(lf.status).toBe(200);
    }
    expect((await call('POST', '/webauthn/login/finish', { body: {} })).status).toBe(400);

    expect((await call('GET', '/webauthn/credentials')).status).toBe(401);
    const list = await call('GET', '/webauthn/credentials', { token });
    expect(list.body.credentials).toHaveLength(1);
    const del = (credentialId: string) =>
      call('POST', '/webauthn/credentials/delete', { token, body: { credentialId } });
    expect((await del('bm9uZQ')).status).toBe(404);
    expect((await del(created.credentialId)).status).toBe(200);
  });

  test('guests and sessions', async () => {
    const { auth } = await h.make(fullConfig());
    const call = caller(auth);
    expect(
      (await call('POST', '/anonymous', { raw: { type: 'text/plain', text: 'hi' } })).status,
    ).toBe(415);
    const guest = await call('POST', '/anonymous');
    expect(guest.status).toBe(201);
    const member = await register(call, 'edsger@example.com');
    const upgrade = (token: string, email: string) =>
      call('POST', '/upgrade', { token, body: { email, password: PASSWORD } });
    expect((await upgrade(member.token, 'other@example.com')).status).toBe(400);
    const upgraded = await upgrade(guest.body.token, 'guest@example.com');
    expect(upgraded.status).toBe(200);
    expect(upgraded.body.user.id).toBe(guest.body.user.id);

    const second = await call('POST', '/login', {
      body: { email: 'edsger@example.com', password: PASSWORD },
    });
    const token = second.body.token;
    expect((await call('GET', '/sessions')).status).toBe(401);
    const list = await call('GET', '/sessions', { token });
    expect(list.body.sessions).toHaveLength(2);
    const revoke = (id: string) =>
      call('DELETE', '/sessions/:id', { path: `/sessions/${id}`, token });
    expect((await revoke('not-a-uuid')).status).toBe(400);
    expect((await revoke('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await revoke(member.session.id)).status).toBe(200);
    await call('POST', '/login', { body: { email: 'edsger@example.com', password: PASSWORD } });
    expect((await call('POST', '/sessions/revoke-others')).status).toBe(401);
    const others = await call('POST', '/sessions/revoke-others', { token });
    expect(others.body).toEqual({ revoked: 1 });
  });

  test('OAuth: authorize, both callbacks and the token exchange (scripted provider)', async () => {
    const { auth, clock } = await h.make(fullConfig());
    const call = caller(auth);
    const authorize = async () => {
      const r = await call('GET', '/oauth/:provider/authorize', {
        path: '/oauth/idp/authorize',
        query: { redirectUri: APP },
      });
      expect(r.status).toBe(302);
      return idp.grant(r.headers.get('location') as string, clock());
    };
    expect(
      (await call('GET', '/oauth/:provider/authorize', { path: '/oauth/idp/authorize' })).status,
    ).toBe(400);
    const unknown = await call('GET', '/oauth/:provider/authorize', {
      path: '/oauth/nope/authorize',
      query: { redirectUri: APP },
    });
    expect(unknown.status).toBe(404);

    const first = await authorize();
    const back = await call('GET', '/oauth/:provider/callback', {
      path: '/oauth/idp/callback',
      query: first,
    });
    expect(back.status).toBe(302);
    const code = new URL(back.headers.get('location') as string).searchParams.get('code') as string;
    expect(code).toBeTruthy();
    expect(
      (await call('GET', '/oauth/:provider/callback', { path: '/oauth/idp/callback' })).status,
    ).toBe(401);

    expect((await call('POST', '/oauth/token', { body: { code: 'not-a-code' } })).status).toBe(401);
    const signedIn = await call('POST', '/oauth/token', { body: { code } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.email).toBe('flow@example.com');

    const second = await authorize();
    const posted = await call('POST', '/oauth/:provider/callback', {
      path: '/oauth/idp/callback',
      form: second,
    });
    expect(posted.status).toBe(303);
    const wrongType = await call('POST', '/oauth/:provider/callback', {
      path: '/oauth/idp/callback',
      raw: { type: 'text/plain', text: 'state=x' },
    });
    expect(wrongType.status).toBe(415);
  });

  test('captcha-gated routes: CAPTCHA_FAILED without the token, success with it', async () => {
    const verifier = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: new URLSearchParams(raw).get('response') === 'good' }));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = verifier.address() as AddressInfo;
      const { auth } = await h.make({
        captcha: {
          provider: 'turnstile',
          secret: 'captcha-secret',
          gate: ['anonymous', 'login'],
          verifyUrl: `http://127.0.0.1:${port}/siteverify`,
        },
      });
      const call = caller(auth);
      const missing = await call('POST', '/anonymous');
      expect(missing.body.code).toBe('CAPTCHA_FAILED');
      expect((await call('POST', '/anonymous', { body: { captchaToken: 'bad' } })).status).toBe(
        400,
      );
      expect((await call('POST', '/anonymous', { body: { captchaToken: 'good' } })).status).toBe(
        201,
      );
      const login = await call('POST', '/login', {
        body: { email: 'x@example.com', password: PASSWORD, captchaToken: 'bad' },
      });
      expect(login.body.code).toBe('CAPTCHA_FAILED');
    } finally {
      await new Promise<void>((resolve) => verifier.close(() => resolve()));
    }
  });

  test('without WebAuthn configured the passkey routes answer the documented INVALID_OPERATION', async () => {
    const { auth } = await h.make({});
    const call = caller(auth);
    const r = await call('POST', '/webauthn/login/begin', { body: {} });
    expect(r.body.code).toBe('INVALID_OPERATION');
  });

  test('refusals of the account rules answer documented statuses and codes', async () => {
    const closed = await h.make({ ...fullConfig(), allowRegistration: false });
    const closedCall = caller(closed.auth);
    const refusedSignup = await closedCall('POST', '/register', {
      body: { email: 'no@example.com', password: PASSWORD },
    });
    expect(refusedSignup.body.code).toBe('REGISTRATION_DISABLED');
    expect((await closedCall('POST', '/anonymous')).body.code).toBe('REGISTRATION_DISABLED');

    const { auth } = await h.make({ ...fullConfig(), requireEmailVerification: true });
    const call = caller(auth);
    const email = 'ken@example.com';
    const reg = await register(call, email);
    const login = () => call('POST', '/login', { body: { email, password: PASSWORD } });
    expect((await login()).body.code).toBe('EMAIL_NOT_VERIFIED');
    await auth.setActive(email, false);
    expect((await call('GET', '/profile', { token: reg.token })).body.code).toBe('USER_INACTIVE');
    const refresh = await call('POST', '/refresh', { body: { refreshToken: reg.refreshToken } });
    expect(refresh.body.code).toBe('USER_INACTIVE');
    expect((await register(call, 'ken2@example.com')).user.emailVerified).toBe(false);
    const guest = await call('POST', '/anonymous');
    const taken = await call('POST', '/upgrade', {
      token: guest.body.token,
      body: { email: 'ken2@example.com', password: PASSWORD },
    });
    expect(taken.body.code).toBe('USER_ALREADY_EXISTS');
  });

  test('every route answers its documented token and body errors', async () => {
    const { auth } = await h.make(fullConfig());
    const call = caller(auth);
    const { token } = await register(call, 'alan@example.com');
    const concrete = (path: string) =>
      path.replace(':id', '00000000-0000-4000-8000-000000000000').replace(':provider', 'idp');
    const tooLarge = `{"a":"${'x'.repeat(1024 * 1024)}"}`;
    for (const route of AUTH_ROUTES) {
      const at = { path: concrete(route.path) };
      if (route.access === 'auth') {
        const r = await call(route.method, route.path, at);
        expect([route.path, r.status, r.headers.get('www-authenticate')]).toEqual([
          route.path,
          401,
          'Bearer realm="svc"',
        ]);
      }
      const doc = AUTH_OPERATION_DOCS[`${route.method} ${route.path}`];
      if (!doc?.body && !doc?.form) continue;
      const withToken = route.access === 'auth' ? { ...at, token } : at;
      const send = (type: string, text: string) =>
        call(route.method, route.path, { ...withToken, raw: { type, text } });
      expect([route.path, (await send('application/json', '{')).status]).toEqual([route.path, 400]);
      expect([route.path, (await send('text/plain', 'x')).status]).toEqual([route.path, 415]);
      expect([route.path, (await send('application/json', tooLarge)).status]).toEqual([
        route.path,
        413,
      ]);
    }
  });

  test('every route of the table was driven to a success and to an error', () => {
    // The hosted pages answer HTML and are no operations of the document (server/test/auth-pages).
    const operations = AUTH_ROUTES.filter((r) => r.feature !== 'pages');
    const missing = operations
      .map((r) => `${r.method} ${r.path}`)
      .flatMap((key) =>
        (['success', 'error'] as const)
          .filter((outcome) => !driven.get(key)?.has(outcome))
          .map((outcome) => `${key} (${outcome})`),
      );
    expect(missing).toEqual([]);
  });
});
