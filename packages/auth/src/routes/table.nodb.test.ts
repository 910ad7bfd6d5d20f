import { AUTH_ROUTES, matchAuthRoute } from './table';

describe('matchAuthRoute', () => {
  test('every public bootstrap route of Authentication item 6 is public', () => {
    const bootstrap = [
      'POST /register',
      'POST /login',
      'POST /anonymous',
      'POST /refresh',
      'POST /reset',
      'POST /reset/confirm',
      'GET /verify',
      'POST /magic-link/request',
      'POST /magic-link/consume',
      'POST /magic-code/request',
      'POST /magic-code/verify',
      'POST /mfa/totp/login',
      'POST /mfa/recovery-codes/login',
      'POST /webauthn/login/begin',
      'POST /webauthn/login/finish',
    ];
    for (const entry of bootstrap) {
      const [method, path] = entry.split(' ') as [string, string];
      const m = matchAuthRoute(method, path);
      expect(m.kind === 'route' && m.route.access).toBe('public');
    }
  });

  test('the hosted pages are public, and none of them spends a secret on GET or HEAD', () => {
    const pages = AUTH_ROUTES.filter((r) => r.feature === 'pages');
    expect(pages.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /magic',
      'POST /magic',
      'POST /mfa',
      'GET /reset',
      'POST /reset/password',
      'GET /passkey',
      'POST /passkey',
      'GET /pages/passkey.js',
    ]);
    for (const r of pages) {
      expect(r.access).toBe('public');
      expect(r.spends).toBeUndefined();
    }
    expect(matchAuthRoute('HEAD', '/magic')).toMatchObject({ kind: 'route' });
    expect(matchAuthRoute('GET', '/reset')).toMatchObject({
      kind: 'route',
      route: { feature: 'pages' },
    });
    expect(matchAuthRoute('POST', '/reset')).toMatchObject({
      kind: 'route',
      route: { feature: 'account' },
    });
  });

  test('every other non-OAuth route needs a token', () => {
    const protectedRoutes = AUTH_ROUTES.filter((r) => r.access === 'auth').map(
      (r) => `${r.method} ${r.path}`,
    );
    expect(protectedRoutes).toEqual([
      'POST /logout',
      'GET /profile',
      'PUT /password',
      'POST /mfa/totp/enroll',
      'POST /mfa/totp/confirm',
      'POST /mfa/totp/disable',
      'POST /mfa/recovery-codes/generate',
      'POST /webauthn/register/begin',
      'POST /webauthn/register/finish',
      'GET /webauthn/credentials',
      'POST /webauthn/credentials/delete',
      'POST /upgrade',
      'GET /sessions',
      'DELETE /sessions/:id',
      'POST /sessions/revoke-others',
    ]);
  });

  test('unknown paths are not-found; known paths with another method list what is allowed', () => {
    expect(matchAuthRoute('POST', '/nope')).toEqual({ kind: 'not-found' });
    expect(matchAuthRoute('POST', '/login/')).toEqual({ kind: 'not-found' });
    expect(matchAuthRoute('GET', '/login')).toEqual({
      kind: 'method-not-allowed',
      allow: ['POST'],
    });
  });

  test('binds path parameters and answers HEAD as GET', () => {
    const m = matchAuthRoute('HEAD', '/oauth/github/authorize');
    expect(m).toMatchObject({ kind: 'route', params: { provider: 'github' } });
    expect(matchAuthRoute('GET', '/oauth//authorize')).toEqual({ kind: 'not-found' });
  });

  test('HEAD does not run a GET that spends a one-time secret (405, Allow: GET)', () => {
    for (const path of ['/verify', '/oauth/github/callback']) {
      expect(matchAuthRoute('HEAD', path)).toMatchObject({ kind: 'method-not-allowed' });
      expect(matchAuthRoute('GET', path)).toMatchObject({ kind: 'route' });
    }
    expect(matchAuthRoute('HEAD', '/oauth/github/callback')).toEqual({
      kind: 'method-not-allowed',
      allow: ['GET', 'POST'],
    });
  });
});
