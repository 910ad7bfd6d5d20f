/**
 * The admin UI over HTTP (issue 30; docs/http.md, "The admin UI"): `/_/` on by default and off
 * with `adminUi: false`; the page, its CSP and framing headers; the SPA fallback; hashed assets
 * cached for good and gzipped; `/_/mail` left alone; the first load under 300 KB gzip; and the
 * admin JSON routes: the session, superusers only, the cookie rule on writes, "run as" (under
 * the user's policies, read-only), users (deactivate, roles, revoke sessions).
 */
import { gzipSync } from 'node:zlib';
import { adminUiAssetsDir, adminUiManifest } from '@svc/admin-ui';
import type { SvcServer } from '../src';
import { ADMIN_UI_CSP } from '../src/handlers/admin-ui';
import { SECRET, authClient, build, call, readJson, sharedDatabase, signUp } from './helpers';

const db = sharedDatabase();

const SDL = `module default {
  type Note {
    required title: str;
    owner: uuid;
    access policy own allow all using (.owner ?= global current_user_id);
  }
  type Book { required title: str; pages: int32; }
}`;

const PASSWORD = 'correct horse battery staple';

describe('serving /_/', () => {
  let server: SvcServer;
  beforeAll(async () => {
    server = await build(db.get(), { schema: SDL });
  });
  afterAll(() => server?.close());

  test('GET /_/ is the page: HTML, no-cache, the strict CSP, never framed, no inline script', async () => {
    const res = await call(server, '/_/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toBe(ADMIN_UI_CSP);
    expect(ADMIN_UI_CSP).toMatch(/default-src 'self'/);
    expect(ADMIN_UI_CSP).toMatch(/frame-ancestors 'none'/);
    expect(ADMIN_UI_CSP).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(1);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src="\/_\/assets\/app-[0-9a-f]{12}\.js"/);
      expect(body).toBe('');
    }
    expect(html).not.toMatch(/style=|<style|\son[a-z]+=/i);
    expect(html).not.toMatch(/https?:\/\//);
  });

  test('GET /_ redirects to /_/', async () => {
    const res = await call(server, '/_');
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('/_/');
  });

  test('every other GET under /_/ answers the page (SPA fallback), HEAD too', async () => {
    const page = await (await call(server, '/_/')).text();
    for (const path of ['/_/data', '/_/data/Book?order_by=-title', '/_/query', '/_/x/y/z']) {
      const res = await call(server, path);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(page);
    }
    const head = await call(server, '/_/schema', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  test('other methods are 405; /_/mail and unknown /_/api/* are not the page (404)', async () => {
    const post = await call(server, '/_/data', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    for (const path of ['/_/mail', '/_/mail/inbox', '/_/api/nope']) {
      const res = await call(server, path);
      expect(res.status).toBe(404);
      expect((await readJson(res)).code).toBe('NOT_FOUND');
    }
  });

  test('assets: the manifest list only, cached a year (immutable), gzipped when asked', async () => {
    const manifest = adminUiManifest();
    expect(manifest.assets.length).toBeGreaterThanOrEqual(2);
    for (const name of manifest.assets) {
      const res = await call(server, `/_/assets/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-security-policy')).toBe(ADMIN_UI_CSP);
      const gz = await call(server, `/_/assets/${name}`, {
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(gz.headers.get('vary')).toMatch(/Accept-Encoding/);
    }
    for (const name of ['manifest.json', 'index.html', '..%2Fpackage.json', 'nope.js']) {
      const res = await call(server, `/_/assets/${name}`);
      expect(res.status).toBe(404);
    }
  });

  test('the first load (page, script, style, icon) is under 300 KB gzip', async () => {
    const manifest = adminUiManifest();
    let total = 0;
    for (const name of [manifest.index, ...manifest.assets]) {
      const res = await call(server, name === manifest.index ? '/_/' : `/_/assets/${name}`, {
        headers: { 'accept-encoding': 'gzip' },
      });
      total += Number(res.headers.get('content-length'));
    }
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(300 * 1024);
    // The served bytes are the package's files, gzipped.
    expect(adminUiAssetsDir).toMatch(/admin-ui[\\/]dist[\\/]assets$/);
    expect(gzipSync('x').length).toBeGreaterThan(0);
  });

  test('GET /_/api/session without auth: no auth, nobody signed in', async () => {
    const res = await call(server, '/_/api/session');
    expect(res.status).toBe(200);
    expect(await readJson(res)).toEqual({
      auth: false,
      rest: true,
      runAs: false,
      passkey: false,
      caller: null,
    });
  });
});

describe('adminUi: false', () => {
  test('/_/, its assets and its JSON routes are 404', async () => {
    const server = await build(db.get(), { adminUi: false });
    try {
      for (const path of [
        '/_/',
        '/_/data',
        `/_/assets/${adminUiManifest().assets[0]}`,
        '/_/api/session',
      ]) {
        const res = await call(server, path);
        expect(res.status).toBe(404);
      }
    } finally {
      await server.close();
    }
  });
});

describe('the admin JSON routes', () => {
  let server: SvcServer;
  let admin: { email: string; cookie: string; id: string };
  let plain: string;
  /** The admin UI's own cookie (`svc_admin`) from its sign-in route. */
  const cookieOf = (res: { headers: Headers }) =>
    res.headers
      .getSetCookie()
      .map((line) => line.split(';')[0] ?? '')
      .find((pair) => pair.startsWith('svc_admin=')) ?? '';

  beforeAll(async () => {
    // [auth] cookie stays off: the admin UI has its own session (handlers/admin-session).
    server = await build(db.get(), { schema: SDL, enableAuth: true, jwtSecret: SECRET });
    const email = `admin-${Date.now()}@example.com`;
    await server.auth!.createSuperuser(email, PASSWORD);
    const login = await call(server, '/_/api/session/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = cookieOf(login);
    expect(cookie).toMatch(/^svc_admin=/);
    admin = { email, cookie, id: (await readJson(login)).user.id };
    plain = await signUp(server);
  });
  afterAll(() => server?.close());

  const asAdmin = (path: string, init: { method?: string; body?: unknown; origin?: string } = {}) =>
    call(server, path, {
      method: init.method ?? 'GET',
      headers: {
        cookie: admin.cookie,
        ...(init.origin ? { origin: init.origin } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  test('GET /_/api/session: the cookie says who is signed in', async () => {
    const anonymous = await readJson(await call(server, '/_/api/session'));
    expect(anonymous).toMatchObject({
      auth: true,
      runAs: true,
      passkey: false,
      caller: null,
    });
    const signedIn = await readJson(await asAdmin('/_/api/session'));
    expect(signedIn.caller).toEqual({
      id: admin.id,
      email: admin.email,
      roles: ['superuser'],
      superuser: true,
    });
  });

  test('anyone but a superuser is refused: anonymous 401, a user 403', async () => {
    expect((await call(server, '/_/api/users')).status).toBe(401);
    const res = await call(server, '/_/api/users', {
      headers: { authorization: `Bearer ${plain}` },
    });
    expect(res.status).toBe(403);
    expect((await readJson(res)).code).toBe('ACCESS_DENIED');
  });

  test('a cookie write from a foreign page is 403 before anything runs', async () => {
    const users = await readJson(await asAdmin('/_/api/users'));
    const victim = users.users.find((u: { email: string }) => u.email !== admin.email);
    const res = await asAdmin(`/_/api/users/${victim.id}/revoke-sessions`, {
      method: 'POST',
      origin: 'http://evil.example',
    });
    expect(res.status).toBe(403);
    const same = await asAdmin(`/_/api/users/${victim.id}/revoke-sessions`, {
      method: 'POST',
      origin: 'http://localhost',
    });
    expect(same.status).toBe(200);
  });

  test("users: list, search, view; revoke sessions ends the user's tokens; deactivate and reactivate; roles", async () => {
    const email = `someone-${Date.now()}@example.com`;
    const reg = await authClient(server).register({ email, password: PASSWORD });
    expect(reg.status).toBe(201);
    const token = reg.body.token as string;
    const id = reg.body.user.id as string;

    const found = await readJson(
      await asAdmin(`/_/api/users?search=${encodeURIComponent(email.slice(0, 12))}`),
    );
    expect(found.users.map((u: { email: string }) => u.email)).toContain(email);
    const one = await readJson(await asAdmin(`/_/api/users/${id}`));
    expect(one).toMatchObject({ id, email, active: true, roles: [] });

    // One session: listed, then ended by id.
    const second = await authClient(server).login({ email, password: PASSWORD });
    const listed = await readJson(await asAdmin(`/_/api/users/${id}/sessions`));
    expect(listed.sessions.map((x: { id: string }) => x.id).sort()).toEqual(
      [reg.body.session.id, second.body.session.id].sort(),
    );
    const ended = await asAdmin(`/_/api/users/${id}/sessions/${second.body.session.id}`, {
      method: 'DELETE',
      origin: 'http://localhost',
    });
    expect(await readJson(ended)).toEqual({ success: true });
    expect((await authClient(server).profile(second.body.token)).status).toBe(401);
    const again = await asAdmin(`/_/api/users/${id}/sessions/${second.body.session.id}`, {
      method: 'DELETE',
      origin: 'http://localhost',
    });
    expect(again.status).toBe(404);

    expect((await authClient(server).profile(token)).status).toBe(200);
    const revoked = await readJson(
      await asAdmin(`/_/api/users/${id}/revoke-sessions`, {
        method: 'POST',
        origin: 'http://localhost',
      }),
    );
    expect(revoked).toEqual({ revoked: 1 });
    expect((await authClient(server).profile(token)).status).toBe(401);

    const off = await asAdmin(`/_/api/users/${id}/active`, {
      method: 'POST',
      body: { active: false },
      origin: 'http://localhost',
    });
    expect(await readJson(off)).toEqual({ active: false, revoked: 0 });
    expect((await authClient(server).login({ email, password: PASSWORD })).status).toBe(403);
    await asAdmin(`/_/api/users/${id}/active`, {
      method: 'POST',
      body: { active: true },
      origin: 'http://localhost',
    });
    expect((await authClient(server).login({ email, password: PASSWORD })).status).toBe(200);

    await server.auth!.roles.create('editor').catch(() => undefined);
    const assigned = await readJson(
      await asAdmin(`/_/api/users/${id}/roles`, {
        method: 'POST',
        body: { role: 'editor' },
        origin: 'http://localhost',
      }),
    );
    expect(assigned).toEqual({ roles: ['editor'], roleCreated: false });
    const dropped = await readJson(
      await asAdmin(`/_/api/users/${id}/roles/editor`, {
        method: 'DELETE',
        origin: 'http://localhost',
      }),
    );
    expect(dropped).toEqual({ roles: [] });

    const self = await asAdmin(`/_/api/users/${admin.id}/active`, {
      method: 'POST',
      body: { active: false },
      origin: 'http://localhost',
    });
    expect(self.status).toBe(400);
    expect((await asAdmin('/_/api/users/00000000-0000-0000-0000-000000000000')).status).toBe(404);
  });

  test('"run as": the user\'s policies apply, and nothing is written', async () => {
    const alice = `alice-${Date.now()}@example.com`;
    const reg = await authClient(server).register({ email: alice, password: PASSWORD });
    const aliceId = reg.body.user.id as string;
    const write = await call(server, '/_/api/db/query', {
      method: 'POST',
      headers: {
        cookie: admin.cookie,
        'content-type': 'application/json',
        origin: 'http://localhost',
      },
      body: JSON.stringify({
        query: `for x in {('mine', <uuid>$a), ('theirs', <uuid>'00000000-0000-0000-0000-000000000001')} union (insert Note { title := x.0, owner := x.1 })`,
        variables: { a: aliceId },
      }),
    });
    expect(write.status).toBe(200);
    const all = await readJson(
      await asAdmin('/_/api/query', {
        method: 'POST',
        origin: 'http://localhost',
        body: { query: 'select Note.title', runAs: admin.email },
      }),
    );
    expect(all.data.sort()).toEqual(['mine', 'theirs']);
    const seen = await readJson(
      await asAdmin('/_/api/query', {
        method: 'POST',
        origin: 'http://localhost',
        body: { query: 'select Note.title', runAs: alice },
      }),
    );
    expect(seen).toEqual({ data: ['mine'], runAs: { id: aliceId, email: alice, roles: [] } });
    const globals = await readJson(
      await asAdmin('/_/api/query', {
        method: 'POST',
        origin: 'http://localhost',
        body: { query: 'select global current_user_id', runAs: aliceId },
      }),
    );
    expect(globals.data).toEqual([aliceId]);
    const described = await readJson(
      await asAdmin('/_/api/query', {
        method: 'POST',
        origin: 'http://localhost',
        body: { query: 'select Note.title', runAs: alice, describe: true },
      }),
    );
    expect(described.describe).toMatchObject({ cardinality: 'many' });
    expect(described.runAs.email).toBe(alice);
    const writes = await asAdmin('/_/api/query', {
      method: 'POST',
      origin: 'http://localhost',
      body: {
        query: "insert Note { title := 'x', owner := global current_user_id }",
        runAs: alice,
      },
    });
    expect(writes.status).toBe(503);
    expect((await readJson(writes)).code).toBe('READ_ONLY');
    const nobody = await asAdmin('/_/api/query', {
      method: 'POST',
      origin: 'http://localhost',
      body: { query: 'select 1', runAs: 'nobody@example.com' },
    });
    expect(nobody.status).toBe(404);
    const someone = await signUp(server);
    const plainTries = await call(server, '/_/api/query', {
      method: 'POST',
      headers: { authorization: `Bearer ${someone}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'select 1', runAs: alice }),
    });
    expect(plainTries.status).toBe(403);
  });
});

describe('the admin routes over users, roles, settings and the figures (handlers/admin-auth.ts)', () => {
  const METRICS_TOKEN = 'metrics-token-for-the-admin-tests-0123456789';
  let server: SvcServer;
  let cookie: string;

  beforeAll(async () => {
    server = await build(db.get(), {
      schema: SDL,
      enableAuth: true,
      jwtSecret: SECRET,
      metricsToken: METRICS_TOKEN,
      authConfig: { emailBaseUrl: 'http://localhost:5656' },
    });
    const email = `root-${Date.now()}@example.com`;
    await server.auth!.createSuperuser(email, PASSWORD);
    // The admin UI's own session (handlers/admin-session): the svc_admin cookie.
    const login = await call(server, '/_/api/session/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    cookie =
      login.headers
        .getSetCookie()
        .map((line) => line.split(';')[0] ?? '')
        .find((pair) => pair.startsWith('svc_admin=')) ?? '';
  });
  afterAll(() => server?.close());

  const asAdmin = (path: string, init: { method?: string; body?: unknown } = {}) =>
    call(server, path, {
      method: init.method ?? 'GET',
      headers: {
        cookie,
        origin: 'http://localhost',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  test('each is refused to anyone but a superuser (anonymous 401, a user 403)', async () => {
    const plain = await signUp(server);
    for (const [method, path] of [
      ['GET', '/_/api/roles'],
      ['GET', '/_/api/settings'],
      ['GET', '/_/api/db/stats'],
      ['POST', '/_/api/users'],
      ['GET', '/_/api/users/x/factors'],
      ['POST', '/_/api/users/x/password-reset'],
      ['POST', '/_/api/users/x/password'],
    ] as const) {
      expect((await call(server, path, { method })).status).toBe(401);
      const res = await call(server, path, {
        method,
        headers: { authorization: `Bearer ${plain}` },
      });
      expect([path, res.status]).toEqual([path, 403]);
    }
  });

  test('create a user; send them the reset email (the recover route’s email and rate limit); factors; reset MFA', async () => {
    const email = `made-${Date.now()}@example.com`;
    const created = await asAdmin('/_/api/users', {
      method: 'POST',
      body: { email, password: PASSWORD },
    });
    expect(created.status).toBe(201);
    const user = await readJson(created);
    expect(user).toMatchObject({ email, emailVerified: false, active: true });
    expect(
      (await asAdmin('/_/api/users', { method: 'POST', body: { email, password: PASSWORD } }))
        .status,
    ).toBe(409);
    const bad = await asAdmin('/_/api/users', { method: 'POST', body: { email } });
    expect(bad.status).toBe(400);
    expect((await readJson(bad)).code).toBe('VALIDATION_ERROR');

    expect(await readJson(await asAdmin(`/_/api/users/${user.id}/factors`))).toEqual({
      totp: 'none',
      recoveryCodesLeft: 0,
      passkeys: [],
    });

    const box = server.auth!.devMailbox!;
    box.clear();
    const sent = await asAdmin(`/_/api/users/${user.id}/password-reset`, { method: 'POST' });
    expect(sent.status).toBe(200);
    await server.auth!.settle();
    const mail = box.list().filter((m) => m.to === email);
    expect(mail.map((m) => m.eventType)).toEqual(['PasswordResetRequested']);
    // The rate limit of POST /auth/password/reset-request: 5 per address in 15 minutes.
    let status = 200;
    for (let i = 0; i < 6 && status === 200; i++)
      status = (await asAdmin(`/_/api/users/${user.id}/password-reset`, { method: 'POST' })).status;
    expect(status).toBe(429);

    expect(
      await readJson(await asAdmin(`/_/api/users/${user.id}/reset-mfa`, { method: 'POST' })),
    ).toEqual({
      totp: false,
      recoveryCodes: 0,
    });
    const gone = await asAdmin(`/_/api/users/${user.id}/passkeys/nope`, { method: 'DELETE' });
    expect(gone.status).toBe(404);
  });

  test('roles: listed with their members; created; deleted (never superuser)', async () => {
    const name = `editors${Date.now()}`;
    const created = await asAdmin('/_/api/roles', {
      method: 'POST',
      body: { name, description: 'Edit' },
    });
    expect(created.status).toBe(201);
    const plainId = (await readJson(await asAdmin('/_/api/users'))).users[0].id as string;
    await asAdmin(`/_/api/users/${plainId}/roles`, { method: 'POST', body: { role: name } });
    const { roles } = await readJson(await asAdmin('/_/api/roles'));
    expect(roles).toEqual(
      expect.arrayContaining([
        { name, description: 'Edit', members: 1 },
        expect.objectContaining({ name: 'superuser', members: expect.any(Number) }),
      ]),
    );
    expect((await asAdmin('/_/api/roles', { method: 'POST', body: { name } })).status).toBe(400);
    expect((await asAdmin('/_/api/roles/superuser', { method: 'DELETE' })).status).toBe(400);
    expect((await asAdmin(`/_/api/roles/${name}`, { method: 'DELETE' })).status).toBe(200);
    expect((await asAdmin(`/_/api/roles/${name}`, { method: 'DELETE' })).status).toBe(404);
  });

  test('for svc admin: create a superuser, set a password, assign a role creating it, a page size; users named by email', async () => {
    const email = `chief-${Date.now()}@example.com`;
    const created = await asAdmin('/_/api/users', {
      method: 'POST',
      body: { email, password: PASSWORD, superuser: true },
    });
    expect(created.status).toBe(201);
    expect(await readJson(created)).toMatchObject({
      email,
      emailVerified: true,
      roles: ['superuser'],
    });
    expect(await server.auth!.roles.userHasRole(email, 'superuser')).toBe(true);
    for (const body of [
      { email: `x${email}`, password: PASSWORD, superuser: 'yes' },
      { email: `x${email}`, password: PASSWORD, superuser: true, emailVerified: false },
    ]) {
      const bad = await asAdmin('/_/api/users', { method: 'POST', body });
      expect([body, bad.status, (await readJson(bad)).code]).toEqual([
        body,
        400,
        'VALIDATION_ERROR',
      ]);
    }

    // A new password: the old one no longer signs in, every session ended.
    const who = encodeURIComponent(email);
    const session = await authClient(server).login({ email, password: PASSWORD });
    expect(session.status).toBe(200);
    const weak = await asAdmin(`/_/api/users/${who}/password`, {
      method: 'POST',
      body: { password: 'short' },
    });
    expect(weak.status).toBe(400);
    const set = await asAdmin(`/_/api/users/${who}/password`, {
      method: 'POST',
      body: { password: 'another horse battery staple' },
    });
    expect(set.status).toBe(200);
    const old = await authClient(server).login({ email, password: PASSWORD });
    expect(old.status).toBe(401);
    const refreshed = await authClient(server).refresh(session.body.refreshToken);
    expect(refreshed.status).toBe(401);
    const nobody = await asAdmin('/_/api/users/nobody%40example.com/password', {
      method: 'POST',
      body: { password: 'another horse battery staple' },
    });
    expect(nobody.status).toBe(404);

    // An unknown role: refused, or created with createIfMissing (and said so).
    const role = `made${Date.now()}`;
    const refused = await asAdmin(`/_/api/users/${who}/roles`, { method: 'POST', body: { role } });
    expect(refused.status).toBe(400);
    const made = await asAdmin(`/_/api/users/${who}/roles`, {
      method: 'POST',
      body: { role, createIfMissing: true },
    });
    expect(await readJson(made)).toEqual({ roles: [role, 'superuser'].sort(), roleCreated: true });
    const again = await asAdmin(`/_/api/users/${who}/roles`, {
      method: 'POST',
      body: { role, createIfMissing: true },
    });
    expect((await readJson(again)).roleCreated).toBe(false);

    const page = await readJson(await asAdmin('/_/api/users?limit=1&offset=1'));
    expect(page).toMatchObject({ limit: 1, offset: 1 });
    expect(page.users).toHaveLength(1);
    expect(page.total).toBeGreaterThan(1);
    for (const limit of ['0', '1001', 'ten', '-1']) {
      const res = await asAdmin(`/_/api/users?limit=${limit}`);
      expect([limit, res.status]).toEqual([limit, 400]);
    }
  });

  test('settings: what is in force, no secret value', async () => {
    const res = await asAdmin('/_/api/settings');
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const secret of [SECRET, METRICS_TOKEN]) expect(text).not.toContain(secret);
    const settings = JSON.parse(text);
    expect(settings.server).toMatchObject({
      enableAuth: true,
      metricsToken: '(set)',
      jwtSecret: '(set)',
    });
    expect(settings.auth).toMatchObject({ jwtSecret: '(set)', tokenExpiry: 3600, cookie: false });
  });

  test('stats: /stats takes only the metrics token; /_/api/db/stats gives a superuser the same snapshot', async () => {
    expect((await call(server, '/stats', { headers: { cookie } })).status).toBe(401);
    const mine = await readJson(await asAdmin('/_/api/db/stats'));
    const scraper = await readJson(
      await call(server, '/stats', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }),
    );
    expect(Object.keys(mine).sort()).toEqual(Object.keys(scraper).sort());
    expect(mine.requests.total).toBeGreaterThan(0);
  });
});
