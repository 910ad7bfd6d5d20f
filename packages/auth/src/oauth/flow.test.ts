/**
 * The OAuth operations against a scripted OpenID provider on 127.0.0.1 (node:http): what a real
 * provider would not do on request — forged or expired ID tokens, a wrong nonce or audience,
 * refused codes, broken discovery — and the account rules (registration off, inactive users,
 * required verification, no email). The happy path against a real provider is in
 * packages/server/test/auth-oauth.test.ts.
 */
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { codeOf, useCoreHarness } from '../__tests__/harness';
import type { AuthConfig } from '../types';
import { oidc } from './providers';

const APP = 'https://app.example.com/done';
const CLIENT = { clientId: 'flow-client', clientSecret: 'flow-secret' };

interface Grant {
  /** Claims of the ID token (merged over the defaults), or null for none. */
  idToken?: Record<string, unknown> | null;
  /** Sign with another key than the published one. */
  forge?: boolean;
  userinfo?: Record<string, unknown>;
  /** The token endpoint answers this status instead. */
  tokenStatus?: number;
}

/** The scripted provider: discovery, JWKS, token, userinfo; codes registered by the test. */
function scriptedProvider() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rogue = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const grants = new Map<
    string,
    Grant & { challenge: string; nonce?: string; redirectUri: string; now: number }
  >();
  const seen: { tokenRequests: URLSearchParams[]; authorization: (string | undefined)[] } = {
    tokenRequests: [],
    authorization: [],
  };
  let discovery: Record<string, unknown> | 'down' = {};
  let issuer = '';
  const jwt = (claims: Record<string, unknown>, key: KeyObject) => {
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const input = `${enc({ alg: 'RS256', kid: 'k1', typ: 'JWT' })}.${enc(claims)}`;
    return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
  };
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      if (discovery === 'down') return send(500, {});
      return send(200, discovery);
    }
    if (url.pathname === '/jwks')
      return send(200, {
        keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' }],
      });
    if (url.pathname === '/userinfo') {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const grant = grants.get(token);
      return grant ? send(200, grant.userinfo ?? {}) : send(401, { error: 'invalid_token' });
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        seen.tokenRequests.push(form);
        seen.authorization.push(req.headers.authorization);
        const code = form.get('code') ?? '';
        const grant = grants.get(code);
        if (!grant) return send(400, { error: 'invalid_grant' });
        if (grant.tokenStatus) return send(grant.tokenStatus, { error: 'invalid_grant' });
        const verifier = form.get('code_verifier') ?? '';
        if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
          return send(400, { error: 'invalid_grant', error_description: 'PKCE' });
        if (form.get('redirect_uri') !== grant.redirectUri)
          return send(400, { error: 'invalid_grant' });
        const iat = Math.floor(grant.now / 1000);
        const body: Record<string, unknown> = { access_token: code, token_type: 'Bearer' };
        if (grant.idToken !== null)
          body.id_token = jwt(
            {
              iss: issuer,
              aud: CLIENT.clientId,
              sub: 'subject-1',
              iat,
              exp: iat + 300,
              nonce: grant.nonce,
              ...grant.idToken,
            },
            grant.forge ? rogue : privateKey,
          );
        return send(200, body);
      });
      return;
    }
    send(404, {});
  });
  return {
    server,
    seen,
    get issuer() {
      return issuer;
    },
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      this.reset();
    },
    reset(over: Record<string, unknown> = {}) {
      discovery = {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        ...over,
      };
    },
    down() {
      discovery = 'down';
    },
    /** The provider's answer to an authorization URL: a code, as a browser would bring back. */
    grant(authorizeUrl: string, now: number, g: Grant = {}): { state: string; code: string } {
      const q = new URL(authorizeUrl).searchParams;
      const code = `code-${Math.random().toString(36).slice(2)}`;
      grants.set(code, {
        userinfo: { sub: 'subject-1', email: 'flow@example.com', email_verified: true },
        ...g,
        challenge: q.get('code_challenge') as string,
        ...(q.get('nonce') ? { nonce: q.get('nonce') as string } : {}),
        redirectUri: q.get('redirect_uri') as string,
        now,
      });
      return { state: q.get('state') as string, code };
    },
  };
}

const idp = scriptedProvider();
beforeAll(() => idp.listen());
afterAll(() => new Promise<void>((resolve) => idp.server.close(() => resolve())));
afterEach(() => idp.reset());

const h = useCoreHarness();
const CALLBACK = 'https://api.example.com/auth/oauth/idp/callback';

async function setup(config: Partial<AuthConfig> = {}) {
  const made = await h.make({
    oauth: { providers: { idp: oidc({ issuer: idp.issuer, ...CLIENT }) }, redirectUris: [APP] },
    ...config,
  });
  const { auth, clock } = made;
  /** authorize → provider → callback: the app-facing redirect. */
  const signIn = async (g: Grant = {}, opts: { codeChallenge?: string } = {}) => {
    const { url } = await auth.oauth.authorize('idp', {
      redirectUri: APP,
      callbackUrl: CALLBACK,
      ...opts,
    });
    const { state, code } = idp.grant(url, clock(), g);
    return auth.oauth.callback('idp', { state, code });
  };
  return { ...made, signIn };
}

const errorOf = (location: string) => new URL(location).searchParams.get('error');
const codeIn = (location: string) => new URL(location).searchParams.get('code') as string;

describe('OAuth flow against a scripted provider', () => {
  test('happy path: PKCE verifier and redirect_uri reach the token endpoint; client_secret_basic by default', async () => {
    const { auth, signIn, events } = await setup();
    const back = await signIn();
    expect(back.error).toBeUndefined();
    expect(back.location.startsWith(`${APP}?code=`)).toBe(true);
    const result = await auth.oauth.token({ code: codeIn(back.location) });
    expect('token' in result && result.user).toMatchObject({
      email: 'flow@example.com',
      emailVerified: true,
      metadata: {},
    });
    const form = idp.seen.tokenRequests.at(-1)!;
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('redirect_uri')).toBe(CALLBACK);
    expect(form.get('client_secret')).toBeNull();
    expect(idp.seen.authorization.at(-1)).toBe(
      `Basic ${Buffer.from('flow-client:flow-secret').toString('base64')}`,
    );
    await auth.settle();
    expect(events.map((e) => e.eventType)).toEqual(['IdentityCreated', 'IdentityAuthenticated']);
  });

  test('client_secret_post when discovery offers only that', async () => {
    idp.reset({ token_endpoint_auth_methods_supported: ['client_secret_post'] });
    const { signIn } = await setup();
    await signIn();
    expect(idp.seen.tokenRequests.at(-1)!.get('client_secret')).toBe('flow-secret');
    expect(idp.seen.authorization.at(-1)).toBeUndefined();
  });

  test.each([
    ['a forged signature', { forge: true }],
    ['a wrong nonce', { idToken: { nonce: 'not-the-one' } }],
    ['no nonce', { idToken: { nonce: undefined } }],
    ['another audience', { idToken: { aud: 'someone-else' } }],
    ['another issuer', { idToken: { iss: 'https://evil.example.com' } }],
    ['an expired token', { idToken: { exp: 1 } }],
    ['no ID token at all', { idToken: null }],
    ['a userinfo subject that differs', { userinfo: { sub: 'subject-2', email: 'x@example.com' } }],
  ] as Array<[string, Grant]>)('%s: error=INVALID_TOKEN, no user', async (_name, g) => {
    const { auth, signIn } = await setup();
    const back = await signIn(g);
    expect(errorOf(back.location)).toBe('INVALID_TOKEN');
    expect(new URL(back.location).searchParams.get('code')).toBeNull();
    expect(await auth.findUser('flow@example.com')).toBeNull();
  });

  test('a code the provider refuses: error=INVALID_CREDENTIALS', async () => {
    const { signIn } = await setup();
    expect(errorOf((await signIn({ tokenStatus: 400 })).location)).toBe('INVALID_CREDENTIALS');
    expect(errorOf((await signIn({ tokenStatus: 502 })).location)).toBe('SERVICE_UNAVAILABLE');
  });

  test('discovery without userinfo_endpoint, or down: 503 at authorize', async () => {
    idp.reset({ userinfo_endpoint: undefined });
    const { auth } = await setup();
    const authorize = () =>
      auth.oauth.authorize('idp', { redirectUri: APP, callbackUrl: CALLBACK });
    expect(await codeOf(authorize())).toBe('SERVICE_UNAVAILABLE');
    idp.down();
    expect(await codeOf(authorize())).toBe('SERVICE_UNAVAILABLE');
    idp.reset();
    await expect(authorize()).resolves.toEqual({ url: expect.stringContaining(idp.issuer) });
  });

  test('the state lives 10 minutes, the code 2', async () => {
    const { auth, clock } = await setup();
    const { url } = await auth.oauth.authorize('idp', { redirectUri: APP, callbackUrl: CALLBACK });
    const { state, code } = idp.grant(url, clock());
    clock.advance(601);
    expect(await codeOf(auth.oauth.callback('idp', { state, code }))).toBe('INVALID_TOKEN');

    const { url: url2 } = await auth.oauth.authorize('idp', {
      redirectUri: APP,
      callbackUrl: CALLBACK,
    });
    clock.advance(599);
    const g = idp.grant(url2, clock());
    const back = await auth.oauth.callback('idp', g);
    expect(back.error).toBeUndefined();
    const appCode = codeIn(back.location);
    clock.advance(121);
    expect(await codeOf(auth.oauth.token({ code: appCode }))).toBe('INVALID_TOKEN');
  });

  test('a state of one provider is not accepted at another', async () => {
    const { auth, clock } = await setup({
      oauth: {
        providers: {
          idp: oidc({ issuer: idp.issuer, ...CLIENT }),
          other: oidc({ issuer: idp.issuer, ...CLIENT }),
        },
        redirectUris: [APP],
      },
    });
    const { url } = await auth.oauth.authorize('idp', { redirectUri: APP, callbackUrl: CALLBACK });
    const g = idp.grant(url, clock());
    expect(await codeOf(auth.oauth.callback('other', g))).toBe('INVALID_TOKEN');
    expect(await codeOf(auth.oauth.callback('nope', g))).toBe('NOT_FOUND');
  });

  test('account rules: registration off, no email, inactive, verification required', async () => {
    const closed = await setup({ allowRegistration: false });
    expect(errorOf((await closed.signIn()).location)).toBe('REGISTRATION_DISABLED');

    const open = await setup();
    expect(errorOf((await open.signIn({ userinfo: { sub: 'subject-1' } })).location)).toBe(
      'INVALID_OPERATION',
    );
    const first = await open.auth.oauth.token({ code: codeIn((await open.signIn()).location) });
    expect('token' in first).toBe(true);
    await open.auth.setActive('flow@example.com', false);
    expect(errorOf((await open.signIn()).location)).toBe('USER_INACTIVE');
    // Deactivated between callback and token exchange: refused there too.
    await open.auth.setActive('flow@example.com', true);
    const pending = codeIn((await open.signIn()).location);
    await open.auth.setActive('flow@example.com', false);
    expect(await codeOf(open.auth.oauth.token({ code: pending }))).toBe('USER_INACTIVE');

    const strict = await setup({ requireEmailVerification: true });
    expect(
      errorOf(
        (
          await strict.signIn({
            userinfo: { sub: 'subject-1', email: 'flow@example.com', email_verified: 'false' },
          })
        ).location,
      ),
    ).toBe('EMAIL_NOT_VERIFIED');
  });

  test('the provider name becomes the user metadata name; two providers link to one user', async () => {
    const { auth, signIn } = await setup();
    const r = await auth.oauth.token({
      code: codeIn(
        (
          await signIn({
            userinfo: {
              sub: 'subject-1',
              email: 'flow@example.com',
              email_verified: true,
              name: 'Flo',
            },
          })
        ).location,
      ),
    });
    expect('token' in r && r.user.metadata).toEqual({ name: 'Flo' });
    const other = await signIn({
      idToken: { sub: 'subject-9' },
      userinfo: { sub: 'subject-9', email: 'FLOW@example.com', email_verified: true },
    });
    const r2 = await auth.oauth.token({ code: codeIn(other.location) });
    expect('token' in r2 && r2.user.id).toBe('token' in r && r.user.id);
    expect((await auth.oauth.identities('flow@example.com')).map((i) => i.subject)).toEqual([
      'subject-1',
      'subject-9',
    ]);
  });

  test('programmatic input checks; without config every operation is INVALID_OPERATION', async () => {
    const { auth } = await setup();
    expect(await codeOf(auth.oauth.authorize('idp', { redirectUri: APP }))).toBe(
      'VALIDATION_ERROR',
    );
    expect(
      await codeOf(auth.oauth.authorize('idp', { redirectUri: 'https://evil.example.com/' })),
    ).toBe('VALIDATION_ERROR');
    expect(await codeOf(auth.oauth.callback('idp', {}))).toBe('INVALID_TOKEN');
    expect(await codeOf(auth.oauth.token({ code: '' }))).toBe('VALIDATION_ERROR');
    expect(await codeOf(auth.oauth.token({ code: 'a'.repeat(43) }))).toBe('INVALID_TOKEN');

    const bare = await h.make();
    expect(await codeOf(bare.auth.oauth.authorize('idp', { redirectUri: APP }))).toBe(
      'INVALID_OPERATION',
    );
    expect(await codeOf(bare.auth.oauth.token({ code: 'a'.repeat(43) }))).toBe('INVALID_OPERATION');
    const res = await bare.auth.handler(
      new Request(`http://127.0.0.1/auth/oauth/idp/authorize?redirectUri=${APP}`),
    );
    expect(res.status).toBe(404);
  });

  test('over HTTP: baseUrl names the callback; a form_post callback answers 303', async () => {
    const { auth, clock } = await setup({
      oauth: {
        providers: { idp: oidc({ issuer: idp.issuer, ...CLIENT }) },
        redirectUris: [APP],
        baseUrl: 'https://api.example.com/auth',
      },
    });
    const res = await auth.handler(
      new Request(
        `http://127.0.0.1/auth/oauth/idp/authorize?redirectUri=${encodeURIComponent(APP)}`,
      ),
    );
    expect(res.status).toBe(302);
    const to = res.headers.get('location') as string;
    expect(new URL(to).searchParams.get('redirect_uri')).toBe(CALLBACK);
    const g = idp.grant(to, clock());
    const back = await auth.handler(
      new Request('http://127.0.0.1/auth/oauth/idp/callback', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(g).toString(),
      }),
    );
    expect(back.status).toBe(303);
    const code = codeIn(back.headers.get('location') as string);
    const tokenRes = await auth.handler(
      new Request('http://127.0.0.1/auth/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      }),
    );
    expect(tokenRes.status).toBe(200);
    expect(await tokenRes.json()).toMatchObject({ user: { email: 'flow@example.com' } });
    const json = await auth.handler(
      new Request('http://127.0.0.1/auth/oauth/idp/callback', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    expect(json.status).toBe(415);
  });
});
