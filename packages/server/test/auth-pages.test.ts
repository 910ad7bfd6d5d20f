/**
 * Issue 30: the hosted pages for the links of svc's emails and the development inbox, over real
 * HTTP on the engine SVC_TEST_DB names. GET never spends a link; forms from another origin are
 * refused; `redirectTo` outside the allow-list goes nowhere; every value is escaped; the inbox
 * holds what would have been sent and is served to loopback callers only.
 */
import { base32Decode, totp } from '@svc/auth';
import type { CreateServerOptions, SvcServer } from '../src';
import { request } from '../src/testing';
import { SECRET, sharedDatabase, start } from './helpers';

const db = sharedDatabase();
const PASSWORD = 'correct horse battery staple';
const APP = 'http://localhost:3999';

const servers: SvcServer[] = [];
async function started(
  authConfig: Record<string, unknown> = {},
  options: CreateServerOptions = {},
): Promise<SvcServer> {
  const server = await start(db.get(), {
    enableAuth: true,
    jwtSecret: SECRET,
    ...options,
    authConfig: { redirectAllowList: [`${APP}/callback`], ...authConfig },
  });
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await db.get().db.query('truncate svc_auth.rate_limits');
});

let n = 0;
const email = () => `pages-${Date.now()}-${++n}@example.com`;

async function json(server: SvcServer, path: string, body: unknown, token?: string) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: loose JSON for assertions
  return { status: res.status, body: (await res.json()) as any };
}

/** A form post as a browser sends it from the server's own page (Origin: its origin). */
function form(
  server: SvcServer,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = { origin: server.url, 'sec-fetch-site': 'same-origin' },
) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The newest email of the development inbox to `to`, with its first link's token. */
async function lastMail(server: SvcServer, to: string) {
  await server.auth!.settle();
  const res = await fetch(`${server.url}/_/mail.json`);
  expect(res.status).toBe(200);
  const { messages } = (await res.json()) as {
    messages: { to: string; subject: string; links: string[]; html: string; id: string }[];
  };
  const m = messages.find((x) => x.to === to);
  if (!m) throw new Error(`no mail to ${to}`);
  const link = m.links[0] as string;
  return { ...m, link, token: new URL(link, server.url).searchParams.get('token') as string };
}

async function magicToken(server: SvcServer, to: string) {
  await json(server, '/auth/register', { email: to, password: PASSWORD });
  expect((await json(server, '/auth/magic-link/request', { email: to })).status).toBe(200);
  return lastMail(server, to);
}

describe('hosted magic-link page', () => {
  test('GET shows a button and never spends the link; POST signs in once', async () => {
    const server = await started();
    const to = email();
    const { link, token } = await magicToken(server, to);
    expect(link).toBe(`/auth/magic?token=${encodeURIComponent(token)}`);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}${link}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      expect(html).toContain('<form method="post" action="/auth/magic">');
      expect(html).toContain('<button type="submit" autofocus>Sign in</button>');
    }
    expect((await fetch(`${server.url}${link}`, { method: 'HEAD' })).status).toBe(200);
    const ok = await form(server, '/auth/magic', { token });
    expect(ok.status).toBe(200);
    const page = await ok.text();
    expect(page).toContain('You are signed in');
    expect(page).toContain(to);
    const again = await form(server, '/auth/magic', { token });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('This link has expired');
  });

  test('a form from another origin is refused and the link stays good', async () => {
    const server = await started();
    const { token } = await magicToken(server, email());
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ]) {
      const res = await form(server, '/auth/magic', { token }, headers);
      expect([headers, res.status]).toEqual([headers, 403]);
      expect(await res.text()).toContain('Request refused');
    }
    // The opaque origin a no-referrer page sends, with the browser's own word that it is same-origin.
    const res = await form(
      server,
      '/auth/magic',
      { token },
      {
        origin: 'null',
        'sec-fetch-site': 'same-origin',
      },
    );
    expect(res.status).toBe(200);
  });

  test('redirectTo: the allow-listed address gets the session in the fragment; others go nowhere', async () => {
    const server = await started({ cookie: true });
    const to = email();
    const { token } = await magicToken(server, to);
    const evil = 'https://evil.example/steal';
    const shown = await (
      await fetch(`${server.url}/auth/magic?token=${token}&redirectTo=${encodeURIComponent(evil)}`)
    ).text();
    expect(shown).not.toContain('evil.example');
    expect(shown).toContain('not on this server’s allow-list');
    const refused = await form(server, '/auth/magic', { token, redirectTo: evil });
    expect(refused.status).toBe(200);
    expect(refused.headers.get('location')).toBeNull();
    expect(refused.headers.get('set-cookie')).toMatch(/^auth_token=.+HttpOnly; SameSite=Lax/);

    const second = await magicToken(server, email());
    for (const bad of [
      `${APP}/other`,
      `${APP}.evil.example/callback`,
      '//evil.example/x',
      '/\\evil.example',
    ]) {
      const r = await form(server, '/auth/magic', { token: second.token, redirectTo: bad });
      expect([bad, r.headers.get('location')]).toEqual([bad, null]);
      break; // the first attempt spends the token; the list is checked by the unit tests too
    }
    const third = await magicToken(server, email());
    const res = await form(server, '/auth/magic', {
      token: third.token,
      redirectTo: `${APP}/callback?next=%2Fhome`,
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location') as string);
    expect(`${location.origin}${location.pathname}${location.search}`).toBe(
      `${APP}/callback?next=%2Fhome`,
    );
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('type')).toBe('magiclink');
    const profile = await fetch(`${server.url}/auth/profile`, {
      headers: { authorization: `Bearer ${fragment.get('access_token')}` },
    });
    expect(profile.status).toBe(200);
    expect(fragment.get('refresh_token')).toBeTruthy();
    expect(res.headers.get('content-security-policy')).toContain(`form-action 'self' ${APP}`);
  });

  test('a client that does not ask for HTML gets the JSON envelope for an error', async () => {
    const server = await started();
    const res = await fetch(`${server.url}/auth/magic`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=nope',
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    const missing = await fetch(`${server.url}/auth/reset`);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    const foreign = await fetch(`${server.url}/auth/magic`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
      },
      body: 'token=nope',
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ code: 'ACCESS_DENIED' });
  });

  test('every interpolated value is escaped', async () => {
    const server = await started({ branding: { appName: `Acme <b>"&'` } });
    const evilToken = `"><script>alert(1)</script>`;
    const html = await (
      await fetch(`${server.url}/auth/magic?token=${encodeURIComponent(evilToken)}`)
    ).text();
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Acme &lt;b&gt;&quot;&amp;&#39;');
    const missing = await fetch(`${server.url}/auth/magic`);
    expect(missing.status).toBe(400);
  });

  test('an MFA challenge continues to the TOTP form, then signs in', async () => {
    const server = await started();
    const to = email();
    const reg = await json(server, '/auth/register', { email: to, password: PASSWORD });
    const enroll = await json(server, '/auth/mfa/totp/enroll', {}, reg.body.token);
    const key = base32Decode(enroll.body.secret) as Uint8Array;
    expect(
      (
        await json(
          server,
          '/auth/mfa/totp/confirm',
          { code: totp(key, Date.now()) },
          reg.body.token,
        )
      ).status,
    ).toBe(200);
    await json(server, '/auth/magic-link/request', { email: to });
    const { token } = await lastMail(server, to);
    const res = await form(server, '/auth/magic', { token });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Two-step verification');
    const challengeToken = /name="challengeToken" value="([^"]+)"/.exec(html)?.[1] as string;
    expect(challengeToken).toBeTruthy();
    const wrong = await form(server, '/auth/mfa', {
      challengeToken,
      method: 'totp',
      code: '000000' === totp(key, Date.now()) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('aria-invalid="true"');
    const right = await form(server, '/auth/mfa', {
      challengeToken,
      method: 'totp',
      code: totp(key, Date.now() + 30_000),
    });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('You are signed in');
  });

  test('hostedPages: false leaves the page routes out (404), the JSON routes stay', async () => {
    const server = await started({ hostedPages: false });
    expect((await fetch(`${server.url}/auth/magic?token=x`)).status).toBe(404);
    expect((await fetch(`${server.url}/auth/passkey`)).status).toBe(404);
    expect((await form(server, '/auth/reset/password', { token: 'x' })).status).toBe(404);
    expect((await json(server, '/auth/magic-link/consume', { token: 'x' })).status).toBe(401);
  });
});

describe('hosted password reset and verification', () => {
  test('the form shows errors on the field and sets the password', async () => {
    const server = await started({ passwordMinLength: 12 });
    const to = email();
    await json(server, '/auth/register', { email: to, password: PASSWORD });
    await json(server, '/auth/reset', { email: to });
    const { link, token } = await lastMail(server, to);
    expect(link).toBe(`/auth/reset?token=${encodeURIComponent(token)}`);
    const page = await fetch(`${server.url}${link}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('autocomplete="new-password"');
    const weak = await form(server, '/auth/reset/password', {
      token,
      password: 'short',
      confirm: 'short',
    });
    expect(weak.status).toBe(400);
    const weakHtml = await weak.text();
    expect(weakHtml).toContain('id="f-password" name="password"');
    expect(weakHtml).toMatch(/aria-invalid="true" aria-describedby="f-password-error"/);
    expect(weakHtml).toContain('12');
    const mismatch = await form(server, '/auth/reset/password', {
      token,
      password: 'a brand new passphrase',
      confirm: 'another',
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain('not the same');
    const foreign = await form(
      server,
      '/auth/reset/password',
      { token, password: 'a brand new passphrase', confirm: 'a brand new passphrase' },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    const ok = await form(server, '/auth/reset/password', {
      token,
      password: 'a brand new passphrase',
      confirm: 'a brand new passphrase',
    });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('Password changed');
    expect(
      (await json(server, '/auth/login', { email: to, password: 'a brand new passphrase' })).status,
    ).toBe(200);
    const used = await form(server, '/auth/reset/password', {
      token,
      password: 'yet another passphrase',
      confirm: 'yet another passphrase',
    });
    expect(used.status).toBe(400);
  });

  test('GET /auth/verify answers a page to a browser and JSON to others', async () => {
    const server = await started({ requireEmailVerification: true });
    const to = email();
    await json(server, '/auth/register', { email: to, password: PASSWORD });
    const { link } = await lastMail(server, to);
    const html = await fetch(`${server.url}${link}`, {
      headers: { accept: 'text/html,*/*;q=0.8' },
    });
    expect(html.status).toBe(200);
    expect(await html.text()).toContain('Email verified');
    const again = await fetch(`${server.url}${link}`, { headers: { accept: 'text/html' } });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('This link has expired');
    const api = await fetch(`${server.url}${link}`);
    expect(api.status).toBe(401);
    expect(((await api.json()) as { code: string }).code).toBe('INVALID_TOKEN');
  });

  test('the passkey page loads its same-origin script; off without webauthn', async () => {
    const off = await started();
    expect((await fetch(`${off.url}/auth/passkey`)).status).toBe(404);
    const on = await started({
      webauthn: { origin: 'http://localhost:1', rpId: 'localhost', rpName: 'x' },
    });
    const page = await (await fetch(`${on.url}/auth/passkey`)).text();
    expect(page).toContain('<script src="/auth/pages/passkey.js" defer></script>');
    const script = await fetch(`${on.url}/auth/pages/passkey.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('navigator.credentials.get');
  });
});

describe('development inbox', () => {
  test('lists what would have been sent, newest first, as HTML, text and JSON', async () => {
    const server = await started();
    const a = email();
    const b = email();
    await json(server, '/auth/register', { email: a, password: PASSWORD });
    await json(server, '/auth/register', { email: b, password: PASSWORD });
    await json(server, '/auth/magic-link/request', { email: a });
    await server.auth!.settle();
    await json(server, '/auth/reset', { email: b });
    const first = await lastMail(server, b);
    const list = await fetch(`${server.url}/_/mail`);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-security-policy')).toContain("default-src 'none'");
    const listHtml = await list.text();
    expect(listHtml.indexOf(b)).toBeLessThan(listHtml.indexOf(a));
    const shown = await (await fetch(`${server.url}/_/mail/${first.id}`)).text();
    expect(shown).toContain(`<a href="${first.link.replace(/&/g, '&amp;')}" rel="noreferrer">`);
    expect(shown).toContain('sandbox="allow-popups');
    const raw = await fetch(`${server.url}/_/mail/${first.id}/html`);
    expect(raw.headers.get('content-security-policy')).toMatch(/^sandbox /);
    expect(await raw.text()).toContain('<base target="_top">');
    expect((await fetch(`${server.url}/_/mail/nope`)).status).toBe(404);
  });

  test('served to loopback callers only, unless devMail is true; absent with SMTP', async () => {
    const server = await started();
    const far = { remoteAddress: '203.0.113.9' };
    expect((await request(server.app, '/_/mail', far)).status).toBe(404);
    expect((await request(server.app, '/_/mail.json', far)).status).toBe(404);
    expect((await request(server.app, '/_/mail.json')).status).toBe(200);
    const open = await started({}, { devMail: true });
    expect((await request(open.app, '/_/mail.json', far)).status).toBe(200);
    const off = await started({}, { devMail: false });
    expect(off.auth!.devMailbox).toBeUndefined();
    expect((await fetch(`${off.url}/_/mail`)).status).toBe(404);
    const smtp = await started({
      emailBaseUrl: 'http://localhost:1',
      smtp: { host: '127.0.0.1', port: 9, from: 'x@example.com' },
    });
    expect(smtp.auth!.devMailbox).toBeUndefined();
    expect((await fetch(`${smtp.url}/_/mail`)).status).toBe(404);
  });
});
