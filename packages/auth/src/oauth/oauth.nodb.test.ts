import { generateKeyPairSync, sign } from 'node:crypto';
import { parseEmailVerified } from './claims';
import { resolveOAuthConfig } from './config';
import { OAuthProviderError } from './http';
import { checkIdTokenClaims, decodeJwt, IdTokenError, selectKey, signatureValid } from './id-token';
import { createCodeVerifier, isCodeVerifier, isS256Challenge, s256Challenge } from './pkce';
import {
  apple,
  discord,
  github,
  gitlab,
  google,
  mapDiscordUser,
  mapGithubUser,
  mapOidcClaims,
  microsoft,
  oidc,
  providerImpl,
  validateDiscovery,
} from './providers';
import { parseRedirectPattern, redirectUriAllowed } from './redirect-uris';
import { openVerifier, sealVerifier } from './seal';

const creds = { clientId: 'client-1', clientSecret: 'secret-1' };

describe('PKCE S256 (RFC 7636)', () => {
  // Appendix B: the 32 octets, the verifier they encode to, and its challenge.
  const octets = Buffer.from([
    116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77,
    105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
  ]);
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  test('Appendix B: octets → verifier → challenge', () => {
    expect(createCodeVerifier(() => octets)).toBe(verifier);
    expect(s256Challenge(verifier)).toBe(challenge);
  });
  test('no = padding, 43 characters, base64url alphabet', () => {
    for (let i = 0; i < 50; i++) {
      const c = s256Challenge(createCodeVerifier());
      expect(c).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(c).not.toContain('=');
    }
  });
  test('verifier and challenge shapes', () => {
    expect(isCodeVerifier(verifier)).toBe(true);
    expect(isCodeVerifier('a'.repeat(42))).toBe(false);
    expect(isCodeVerifier('a'.repeat(128))).toBe(true);
    expect(isCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isCodeVerifier(`${'a'.repeat(43)}!`)).toBe(false);
    expect(isCodeVerifier('~._-'.repeat(11))).toBe(true);
    expect(isS256Challenge(challenge)).toBe(true);
    expect(isS256Challenge(`${challenge}=`)).toBe(false);
    expect(isS256Challenge(challenge.slice(1))).toBe(false);
  });
});

describe('redirectUri allow-list', () => {
  const patterns = [
    'https://app.example.com/callback',
    'https://*.preview.example.com/auth/done',
    'http://127.0.0.1:3000/cb?x=1',
    'myapp://oauth',
  ].map((e, i) => parseRedirectPattern(e, `redirectUris[${i}]`));
  const ok = (u: string) => redirectUriAllowed(u, patterns);

  test('exact entries match exactly (after URL normalisation)', () => {
    expect(ok('https://app.example.com/callback')).toBe(true);
    expect(ok('HTTPS://APP.EXAMPLE.COM:443/callback')).toBe(true);
    expect(ok('https://app.example.com/callback/')).toBe(false);
    expect(ok('https://app.example.com/callback?next=/')).toBe(false);
    expect(ok('https://app.example.com/Callback')).toBe(false);
    expect(ok('http://app.example.com/callback')).toBe(false);
    expect(ok('https://app.example.com:8443/callback')).toBe(false);
    expect(ok('https://evil.com/callback')).toBe(false);
    expect(ok('https://app.example.com.evil.com/callback')).toBe(false);
    expect(ok('http://127.0.0.1:3000/cb?x=1')).toBe(true);
    expect(ok('http://127.0.0.1:3000/cb')).toBe(false);
    expect(ok('myapp://oauth')).toBe(true);
  });
  test('a wildcard matches exactly one label', () => {
    expect(ok('https://pr-42.preview.example.com/auth/done')).toBe(true);
    expect(ok('https://PR-42.preview.example.com/auth/done')).toBe(true);
    expect(ok('https://preview.example.com/auth/done')).toBe(false);
    expect(ok('https://a.b.preview.example.com/auth/done')).toBe(false);
    expect(ok('https://pr-42.preview.example.com/auth/other')).toBe(false);
    expect(ok('http://pr-42.preview.example.com/auth/done')).toBe(false);
    expect(ok('https://pr-42.preview.example.com:444/auth/done')).toBe(false);
    expect(ok('https://-x.preview.example.com/auth/done')).toBe(false);
    expect(ok('https://pr-42.preview.example.com.evil.com/auth/done')).toBe(false);
    expect(ok('https://x.evilpreview.example.com/auth/done')).toBe(false);
  });
  test('fragments, user info, bad schemes and non-strings are refused', () => {
    expect(ok('https://app.example.com/callback#x')).toBe(false);
    expect(ok('https://user:pw@app.example.com/callback')).toBe(false);
    expect(ok('javascript:alert(1)')).toBe(false);
    expect(ok('/callback')).toBe(false);
    expect(redirectUriAllowed(42, patterns)).toBe(false);
    expect(redirectUriAllowed(undefined, patterns)).toBe(false);
  });
  test('bad entries are TypeErrors at construction', () => {
    const bad = (e: unknown) => () => parseRedirectPattern(e, 'redirectUris[0]');
    expect(bad('https://app.*.example.com/cb')).toThrow(TypeError);
    expect(bad('https://*.com/cb')).toThrow(/two labels/);
    expect(bad('https://*/cb')).toThrow(TypeError);
    expect(bad('https://app.example.com/cb/*')).toThrow(/only as the whole first label/);
    expect(bad('https://app.example.com/cb#frag')).toThrow(/fragment/);
    expect(bad('javascript:alert(1)')).toThrow(/scheme/);
    expect(bad('not a url')).toThrow(/absolute URL/);
    expect(bad('myapp://*.x.y/cb')).toThrow(/http\(s\)/);
    expect(bad(7)).toThrow(TypeError);
  });
});

describe('email_verified', () => {
  test('boolean or the strings "true"/"false"; anything else undefined', () => {
    expect(parseEmailVerified(true)).toBe(true);
    expect(parseEmailVerified(false)).toBe(false);
    expect(parseEmailVerified('true')).toBe(true);
    expect(parseEmailVerified('false')).toBe(false);
    for (const v of ['TRUE', 'True', 'yes', '1', 1, 0, null, undefined, {}, [], ' true'])
      expect(parseEmailVerified(v)).toBeUndefined();
  });
  test('mapped from OIDC claims, GitHub emails and Discord users', () => {
    expect(mapOidcClaims({ sub: 's1', email: 'a@x.io', email_verified: 'true' })).toEqual({
      subject: 's1',
      email: 'a@x.io',
      emailVerified: true,
    });
    expect(mapOidcClaims({ sub: 's1', email: 'a@x.io', email_verified: 'yes' })).toEqual({
      subject: 's1',
      email: 'a@x.io',
    });
    expect(() => mapOidcClaims({ email: 'a@x.io' })).toThrow(OAuthProviderError);
    expect(
      mapGithubUser({ id: 583231, login: 'octocat', name: null, email: 'pub@x.io' }, [
        { email: 'other@x.io', primary: false, verified: true, visibility: null },
        { email: 'octo@x.io', primary: true, verified: false, visibility: 'private' },
      ]),
    ).toEqual({ subject: '583231', email: 'octo@x.io', emailVerified: false, name: 'octocat' });
    // Without the user:email scope: the public address, with no word on its verification.
    expect(mapGithubUser({ id: 7, login: 'x', email: 'pub@x.io' }, undefined)).toEqual({
      subject: '7',
      email: 'pub@x.io',
      name: 'x',
    });
    expect(
      mapDiscordUser({
        id: '80351110224678912',
        username: 'nelly',
        global_name: 'Nelly',
        email: 'nelly@x.io',
        verified: true,
      }),
    ).toEqual({
      subject: '80351110224678912',
      email: 'nelly@x.io',
      emailVerified: true,
      name: 'Nelly',
    });
    expect(mapDiscordUser({ id: '1', username: 'n', verified: true })).toEqual({
      subject: '1',
      name: 'n',
    });
  });
});

describe('discovery validation', () => {
  const doc = {
    issuer: 'https://idp.example.com',
    authorization_endpoint: 'https://idp.example.com/auth',
    token_endpoint: 'https://idp.example.com/token',
    userinfo_endpoint: 'https://idp.example.com/me',
    jwks_uri: 'https://idp.example.com/jwks',
  };
  test('a complete document', () => {
    const m = validateDiscovery(doc, 'https://idp.example.com');
    expect(m.tokenAuth).toBe('client_secret_basic');
    expect(m.userinfoEndpoint).toBe('https://idp.example.com/me');
    expect(m.issuerMatches?.('https://idp.example.com', {})).toBe(true);
    expect(m.issuerMatches?.('https://other.example.com', {})).toBe(false);
    expect(
      validateDiscovery({ ...doc, token_endpoint_auth_methods_supported: ['client_secret_post'] })
        .tokenAuth,
    ).toBe('client_secret_post');
  });
  test.each([
    'authorization_endpoint',
    'token_endpoint',
    'userinfo_endpoint',
    'jwks_uri',
    'issuer',
  ])('without %s it is refused', (key) => {
    const { [key as keyof typeof doc]: _gone, ...rest } = doc;
    expect(() => validateDiscovery(rest)).toThrow(new RegExp(key === 'issuer' ? 'issuer' : key));
  });
  test('another issuer, plain http off loopback, junk, no usable client auth', () => {
    expect(() => validateDiscovery(doc, 'https://idp.example.com/other')).toThrow(/issuer/);
    expect(() =>
      validateDiscovery({ ...doc, token_endpoint: 'http://idp.example.com/token' }),
    ).toThrow(/token_endpoint/);
    expect(
      validateDiscovery({ ...doc, token_endpoint: 'http://127.0.0.1:9/token' }).tokenEndpoint,
    ).toBe('http://127.0.0.1:9/token');
    expect(() => validateDiscovery('nope')).toThrow(OAuthProviderError);
    expect(() => validateDiscovery([doc])).toThrow(OAuthProviderError);
    expect(() =>
      validateDiscovery({ ...doc, token_endpoint_auth_methods_supported: ['private_key_jwt'] }),
    ).toThrow(/client_secret/);
  });
});

describe('provider factories and config', () => {
  test('defaults and endpoints', async () => {
    expect(google(creds).scopes).toEqual(['openid', 'email', 'profile']);
    expect(oidc({ ...creds, issuer: 'https://idp.example.com' }).scopes).toEqual([
      'openid',
      'email',
      'profile',
    ]);
    expect(github(creds).scopes).toEqual(['read:user', 'user:email']);
    expect(discord(creds).scopes).toEqual(['identify', 'email']);
    expect(gitlab(creds).scopes).toEqual(['openid', 'email', 'profile']);
    expect(microsoft(creds).scopes).toEqual(['openid', 'email', 'profile']);
    expect(github({ ...creds, scopes: ['read:user'] }).scopes).toEqual(['read:user']);
    const gl = await providerImpl(
      gitlab({ ...creds, baseUrl: 'https://git.corp.example/' }),
    ).metadata(fetch);
    expect(gl.userinfoEndpoint).toBe('https://git.corp.example/oauth/userinfo');
    expect(providerImpl(github(creds)).openid).toBe(false);
    expect(providerImpl(google(creds)).openid).toBe(true);
  });
  test('microsoft: the issuer names the tenant of the token', async () => {
    const tid = '9188040d-6c67-4c5b-b112-36a304b66dad';
    const common = await providerImpl(microsoft(creds)).metadata(fetch);
    expect(common.issuerMatches?.(`https://login.microsoftonline.com/${tid}/v2.0`, { tid })).toBe(
      true,
    );
    expect(common.issuerMatches?.('https://login.microsoftonline.com/x/v2.0', { tid })).toBe(false);
    const one = await providerImpl(
      microsoft({ ...creds, tenant: '11111111-1111-1111-1111-111111111111' }),
    ).metadata(fetch);
    expect(one.issuerMatches?.(`https://login.microsoftonline.com/${tid}/v2.0`, { tid })).toBe(
      false,
    );
  });
  test('apple: an ES256 client secret; form_post when asking for scopes', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const p = apple({
      clientId: 'com.example.web',
      teamId: 'TEAM123456',
      keyId: 'KEY1',
      privateKey: pem,
    });
    const impl = providerImpl(p);
    expect(impl.authorizeParams).toEqual({ response_mode: 'form_post' });
    const secret = impl.clientSecret(Date.UTC(2030, 0, 1));
    const jwt = decodeJwt(secret);
    expect(jwt.header).toEqual({ alg: 'ES256', kid: 'KEY1' });
    expect(jwt.claims).toMatchObject({ iss: 'TEAM123456', sub: 'com.example.web' });
    expect(signatureValid(jwt, publicKey)).toBe(true);
    expect(() => apple({ clientId: 'a', teamId: 'b', keyId: 'c', privateKey: 'nope' })).toThrow(
      /privateKey/,
    );
  });
  test('bad arguments are TypeErrors naming the factory', () => {
    expect(() => google({ clientId: '', clientSecret: 'x' })).toThrow(/google\(\): clientId/);
    expect(() => github({ clientId: 'x' } as never)).toThrow(/github\(\): clientSecret/);
    expect(() => oidc(creds)).toThrow(/issuer or discoveryUrl/);
    expect(() => oidc({ ...creds, issuer: 'http://idp.example.com' })).toThrow(/https/);
    expect(() => discord({ ...creds, scopes: ['a b'] })).toThrow(/scopes/);
    expect(() => microsoft({ ...creds, tenant: 'a/b' })).toThrow(/tenant/);
    expect(() => gitlab({ ...creds, baseUrl: 'ftp://x' })).toThrow(/baseUrl/);
  });
  test('oauth config', () => {
    const providers = { google: google(creds) };
    const ok = resolveOAuthConfig({ providers, redirectUris: ['https://app.example.com/cb'] });
    expect([...ok.providers.keys()]).toEqual(['google']);
    expect(ok.baseUrl).toBeUndefined();
    expect(
      resolveOAuthConfig({
        providers,
        redirectUris: ['https://app.example.com/cb'],
        baseUrl: 'https://api.example.com/auth/',
      }).baseUrl,
    ).toBe('https://api.example.com/auth');
    expect(() => resolveOAuthConfig(null)).toThrow(TypeError);
    expect(() => resolveOAuthConfig({ providers: {}, redirectUris: ['https://a.io/'] })).toThrow(
      /at least one provider/,
    );
    expect(() =>
      resolveOAuthConfig({
        providers: { google: { clientId: 'x' } },
        redirectUris: ['https://a.io/'],
      }),
    ).toThrow(/provider factory/);
    expect(() =>
      resolveOAuthConfig({
        providers: { 'Bad Name': google(creds) },
        redirectUris: ['https://a.io/'],
      }),
    ).toThrow(/provider name/);
    expect(() => resolveOAuthConfig({ providers, redirectUris: [] })).toThrow(/redirectUris/);
    expect(() => resolveOAuthConfig({ providers, redirectUris: ['https://*/x'] })).toThrow(
      /redirectUris\[0\]/,
    );
    expect(() =>
      resolveOAuthConfig({ providers, redirectUris: ['https://a.io/'], baseUrl: 'http://a.io' }),
    ).toThrow(/baseUrl/);
    expect(() =>
      resolveOAuthConfig({ providers, redirectUris: ['https://a.io/'], other: 1 }),
    ).toThrow(/oauth.other/);
  });
});

describe('ID token checks', () => {
  const now = 1_900_000_000;
  const issuer = (iss: string) => iss === 'https://idp.example.com';
  const claims = {
    iss: 'https://idp.example.com',
    aud: 'client-1',
    sub: 'user-1',
    exp: now + 300,
    iat: now,
    nonce: 'n-1',
  };
  const want = { issuer, clientId: 'client-1', now, nonce: 'n-1' };
  const jwtOf = (header: object, body: object, key: Parameters<typeof sign>[2], alg = 'sha256') => {
    const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
    return `${input}.${sign(alg, Buffer.from(input), key).toString('base64url')}`;
  };

  test('claims: iss, aud, azp, exp, iat, sub, nonce', () => {
    expect(() => checkIdTokenClaims(claims, want)).not.toThrow();
    const bad = (over: object) => () => checkIdTokenClaims({ ...claims, ...over }, want);
    expect(bad({ iss: 'https://evil.example.com' })).toThrow(/issuer/);
    expect(bad({ aud: 'other' })).toThrow(/another client/);
    expect(bad({ aud: ['client-1', 'other'] })).toThrow(/azp/);
    expect(() =>
      checkIdTokenClaims({ ...claims, aud: ['client-1', 'other'], azp: 'client-1' }, want),
    ).not.toThrow();
    expect(bad({ exp: now - 61 })).toThrow(/expired/);
    expect(() => checkIdTokenClaims({ ...claims, exp: now - 30 }, want)).not.toThrow();
    expect(bad({ iat: undefined })).toThrow(/iat/);
    expect(bad({ sub: '' })).toThrow(/subject/);
    expect(bad({ nonce: 'n-2' })).toThrow(/nonce/);
    expect(bad({ nonce: undefined })).toThrow(IdTokenError);
  });
  test('signatures: RS256 and ES256 by kid; none, HS256 and a wrong key refused', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwks = {
      keys: [
        { ...rsa.publicKey.export({ format: 'jwk' }), kid: 'r1', use: 'sig', alg: 'RS256' },
        { ...ec.publicKey.export({ format: 'jwk' }), kid: 'e1' },
      ],
    };
    const rs = decodeJwt(jwtOf({ alg: 'RS256', kid: 'r1' }, claims, rsa.privateKey));
    expect(signatureValid(rs, selectKey(jwks, rs.header)!)).toBe(true);
    const es = decodeJwt(
      jwtOf({ alg: 'ES256', kid: 'e1' }, claims, { key: ec.privateKey, dsaEncoding: 'ieee-p1363' }),
    );
    expect(signatureValid(es, selectKey(jwks, es.header)!)).toBe(true);
    const forged = decodeJwt(jwtOf({ alg: 'RS256', kid: 'r1' }, claims, other.privateKey));
    expect(signatureValid(forged, selectKey(jwks, forged.header)!)).toBe(false);
    expect(selectKey(jwks, { alg: 'none', kid: 'r1' })).toBeUndefined();
    expect(selectKey(jwks, { alg: 'HS256', kid: 'r1' })).toBeUndefined();
    expect(selectKey(jwks, { alg: 'RS256', kid: 'unknown' })).toBeUndefined();
    expect(selectKey(jwks, { alg: 'ES256', kid: 'r1' })).toBeUndefined();
    expect(() => decodeJwt('a.b')).toThrow(IdTokenError);
    expect(() => decodeJwt(`${'e30'}.${'e30'}.!`)).toThrow(IdTokenError);
  });
});

describe('the sealed PKCE verifier', () => {
  test('opens with its state only', () => {
    const sealed = sealVerifier('v'.repeat(43), 'state-1');
    expect(sealed).not.toContain('vvvv');
    expect(openVerifier(sealed, 'state-1')).toBe('v'.repeat(43));
    expect(openVerifier(sealed, 'state-2')).toBeUndefined();
    expect(openVerifier('junk', 'state-1')).toBeUndefined();
  });
});
