/**
 * The OAuth operations against a scripted OpenID provider on 127.0.0.1 (node:http): what a real
 * provider would not do on request — forged or expired ID tokens, a wrong nonce or audience,
 * refused codes, broken discovery — and the account rules (registration off, inactive users,
 * required verification, no email). The happy path against a real provider is in
 * packages/server/test/auth-oauth.test.ts.
 */
import { codeOf, useCoreHarness } from '../__tests__/harness';
import type { AuthConfig } from '../types';
import { type Grant, SCRIPTED_CLIENT, scriptedProvider } from './__tests__/scripted-provider';
import { oidc } from './providers';

const APP = 'https://app.example.com/done';
const CLIENT = SCRIPTED_CLIENT;

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
    // 401: svc's own client credentials are refused, a configuration fault, not the user's.
    expect(errorOf((await signIn({ tokenStatus: 401 })).location)).toBe('SERVICE_UNAVAILABLE');
  });

  test('a key set that cannot be read: error=SERVICE_UNAVAILABLE', async () => {
    idp.reset({ jwks_uri: `${idp.issuer}/no-such-key-set` });
    const { signIn } = await setup();
    expect(errorOf((await signIn()).location)).toBe('SERVICE_UNAVAILABLE');
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
    const text = await auth.handler(
      new Request('http://127.0.0.1/auth/oauth/idp/callback', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'state=x',
      }),
    );
    expect(text.status).toBe(415);
    // A form an earlier body parser consumed arrives re-sent as JSON (the Node adapter).
    const { url } = await auth.oauth.authorize('idp', { redirectUri: APP });
    const again = await auth.handler(
      new Request('http://127.0.0.1/auth/oauth/idp/callback', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(idp.grant(url, clock())),
      }),
    );
    expect(again.status).toBe(303);
    expect(codeIn(again.headers.get('location') as string)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('rate limit: authorize and token share one counter per client address (oauth, 60 a minute)', async () => {
    const { auth, clock } = await setup({ rateLimits: { oauth: { perIp: 3 } } });
    const at = { ip: '198.51.100.4' };
    const go = () => auth.oauth.authorize('idp', { redirectUri: APP, callbackUrl: CALLBACK }, at);
    await go();
    await go();
    await expect(auth.oauth.token({ code: 'x'.repeat(43) }, at)).rejects.toMatchObject({
      code: 'INVALID_TOKEN',
    });
    await expect(go()).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(auth.oauth.token({ code: 'x'.repeat(43) }, at)).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
    // Another address is counted apart; a minute later the first may go again.
    await expect(
      auth.oauth.authorize(
        'idp',
        { redirectUri: APP, callbackUrl: CALLBACK },
        { ip: '198.51.100.5' },
      ),
    ).resolves.toHaveProperty('url');
    clock.advance(61);
    await expect(go()).resolves.toHaveProperty('url');
  });
});
