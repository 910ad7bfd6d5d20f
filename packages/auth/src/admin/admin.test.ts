import { bcryptPool } from '../password/pool';
import { createAuthAdmin } from '../create-auth';
import { base32Decode, totp } from '../mfa/totp';
import { createPostgresStore } from '../store/postgres';
import { SECRET, codeOf, useCoreHarness, session } from '../__tests__/harness';

const h = useCoreHarness();
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('administrative operations', () => {
  test.each([
    ['setPassword', (a: any, who: string) => a.setPassword(who, 'password2')],
    ['revokeAllSessions', (a: any, who: string) => a.revokeAllSessions(who)],
    ['listUserSessions', (a: any, who: string) => a.listUserSessions(who)],
    ['revokeUserSession', (a: any, who: string) => a.revokeUserSession(who, MISSING_ID)],
    ['setActive', (a: any, who: string) => a.setActive(who, false)],
    ['roles.assign', (a: any, who: string) => a.roles.assign(who, 'known')],
    ['roles.revoke', (a: any, who: string) => a.roles.revoke(who, 'known')],
    ['roles.getUserRoles', (a: any, who: string) => a.roles.getUserRoles(who)],
    ['roles.userHasRole', (a: any, who: string) => a.roles.userHasRole(who, 'known')],
    ['userFactors', (a: any, who: string) => a.userFactors(who)],
    ['resetMfa', (a: any, who: string) => a.resetMfa(who)],
    ['deleteUserPasskey', (a: any, who: string) => a.deleteUserPasskey(who, 'cred')],
  ])('%s of a missing user → 404 USER_NOT_FOUND (by email and by id)', async (_n, op) => {
    const { auth } = await h.make();
    await auth.roles.create('known');
    for (const who of ['nobody@example.com', MISSING_ID]) {
      const err = await op(auth, who).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'USER_NOT_FOUND', status: 404 });
    }
  });

  test('setPassword replaces the password and revokes every session', async () => {
    const { auth } = await h.make();
    const a = await auth.register({ email: 'sp@example.com', password: 'password1' });
    await auth.setPassword('SP@example.com', 'password2');
    expect(await codeOf(auth.verifyToken(a.token))).toBe('SESSION_EXPIRED');
    await expect(
      auth.login({ email: 'sp@example.com', password: 'password2' }),
    ).resolves.toBeDefined();
    await auth.setPassword(a.user.id, 'password3');
    await expect(
      auth.login({ email: 'sp@example.com', password: 'password3' }),
    ).resolves.toBeDefined();
  });

  test('setPassword refuses an empty password before hashing, and applies the policy', async () => {
    const { auth } = await h.make();
    await auth.register({ email: 'sp@example.com', password: 'password1' });
    const hash = jest.spyOn(bcryptPool(), 'hash');
    try {
      expect(await codeOf(auth.setPassword('sp@example.com', ''))).toBe('VALIDATION_ERROR');
      expect(hash).not.toHaveBeenCalled();
    } finally {
      hash.mockRestore();
    }
    expect(await codeOf(auth.setPassword('sp@example.com', 'short'))).toBe('PASSWORD_TOO_WEAK');
  });

  test("listUserSessions lists a user's live sessions; revokeUserSession ends one of them only", async () => {
    const { auth } = await h.make();
    const a = await auth.register({ email: 'lus@example.com', password: 'password1' });
    const b = await session(auth.login({ email: 'lus@example.com', password: 'password1' }));
    const other = await auth.register({ email: 'lus-other@example.com', password: 'password1' });
    const listed = await auth.listUserSessions('lus@example.com');
    expect(listed.map((s) => s.id).sort()).toEqual([a.session.id, b.session.id].sort());
    expect(listed.every((s) => s.current === false)).toBe(true);
    await auth.revokeUserSession(a.user.id, b.session.id.toUpperCase());
    expect(await codeOf(auth.verifyToken(b.token))).toBe('SESSION_EXPIRED');
    await expect(auth.verifyToken(a.token)).resolves.toBeDefined();
    expect((await auth.listUserSessions(a.user.id)).map((s) => s.id)).toEqual([a.session.id]);
    // Another user's session, a revoked one, or no UUID: refused.
    expect(await codeOf(auth.revokeUserSession(a.user.id, other.session.id))).toBe('NOT_FOUND');
    expect(await codeOf(auth.revokeUserSession(a.user.id, b.session.id))).toBe('NOT_FOUND');
    expect(await codeOf(auth.revokeUserSession(a.user.id, 'nope'))).toBe('VALIDATION_ERROR');
    await expect(auth.verifyToken(other.token)).resolves.toBeDefined();
  });

  test('revokeAllSessions ends every session of that user only', async () => {
    const { auth } = await h.make();
    const a = await auth.register({ email: 'ra@example.com', password: 'password1' });
    const b = await session(auth.login({ email: 'ra@example.com', password: 'password1' }));
    const other = await auth.register({ email: 'rb@example.com', password: 'password1' });
    expect(await auth.revokeAllSessions('ra@example.com')).toBe(2);
    expect(await auth.revokeAllSessions('ra@example.com')).toBe(0);
    for (const t of [a.token, b.token])
      expect(await codeOf(auth.verifyToken(t))).toBe('SESSION_EXPIRED');
    await expect(auth.verifyToken(other.token)).resolves.toBeDefined();
  });

  test('createSuperuser: verified, active, holding the superuser role', async () => {
    const { auth, events } = await h.make();
    const u = await auth.createSuperuser('Root@Example.com', 'password1');
    expect(u).toMatchObject({ email: 'root@example.com', emailVerified: true, active: true });
    expect(await auth.roles.getUserRoles(u.id)).toEqual(['superuser']);
    const login = await session(auth.login({ email: 'root@example.com', password: 'password1' }));
    expect((await auth.verifyToken(login.token)).roles).toEqual(['superuser']);
    await auth.settle();
    expect(events[0]).toMatchObject({ eventType: 'IdentityCreated', userId: u.id });
    // a second superuser reuses the role
    await expect(auth.createSuperuser('root2@example.com', 'password1')).resolves.toBeDefined();
  });

  test('createSuperuser refuses an empty password before touching anything; an existing user is USER_ALREADY_EXISTS', async () => {
    const { auth } = await h.make();
    expect(await codeOf(auth.createSuperuser('root@example.com', ''))).toBe('VALIDATION_ERROR');
    expect(await auth.findUser('root@example.com')).toBeNull();
    expect(await auth.roles.list()).toEqual([]);
    await auth.register({ email: 'root@example.com', password: 'password1' });
    expect(await codeOf(auth.createSuperuser('root@example.com', 'password1'))).toBe(
      'USER_ALREADY_EXISTS',
    );
    expect(await auth.roles.getUserRoles('root@example.com')).toEqual([]);
  });

  test('createUser: active, unverified unless asked, no session; the policy applies; a taken email refused', async () => {
    const { auth, events } = await h.make({ allowRegistration: false });
    const u = await auth.createUser({ email: 'New@Example.com', password: 'password1' });
    expect(u).toMatchObject({ email: 'new@example.com', emailVerified: false, active: true });
    const v = await auth.createUser({
      email: 'v@example.com',
      password: 'password1',
      emailVerified: true,
    });
    expect(v.emailVerified).toBe(true);
    await expect(
      auth.login({ email: 'new@example.com', password: 'password1' }),
    ).resolves.toBeDefined();
    await auth.settle();
    expect(events.filter((e) => e.eventType === 'IdentityCreated').map((e) => e.userId)).toEqual([
      u.id,
      v.id,
    ]);
    expect(await codeOf(auth.createUser({ email: 'new@example.com', password: 'password1' }))).toBe(
      'USER_ALREADY_EXISTS',
    );
    expect(await codeOf(auth.createUser({ email: 'w@example.com', password: 'short' }))).toBe(
      'PASSWORD_TOO_WEAK',
    );
    expect(await codeOf(auth.createUser({ email: 'not an email', password: 'password1' }))).toBe(
      'VALIDATION_ERROR',
    );
    expect(
      await codeOf(
        auth.createUser({
          email: 'x@example.com',
          password: 'password1',
          emailVerified: 'yes' as never,
        }),
      ),
    ).toBe('VALIDATION_ERROR');
  });

  test('userFactors shows TOTP, recovery codes and passkeys; resetMfa and deleteUserPasskey remove them', async () => {
    const { auth, clock } = await h.make();
    const a = await auth.register({ email: 'f@example.com', password: 'password1' });
    expect(await auth.userFactors('f@example.com')).toEqual({
      totp: 'none',
      recoveryCodesLeft: 0,
      passkeys: [],
    });
    const { secret } = await auth.mfa.enrollTotp(a.token);
    expect((await auth.userFactors(a.user.id)).totp).toBe('pending');
    const { codes } = await auth.mfa.generateRecoveryCodes(a.token);
    const key = base32Decode(secret) as Buffer;
    await auth.mfa.confirmTotp(a.token, totp(key, clock()));
    const store = createPostgresStore(h.db().db);
    await store.createWebAuthnCredential({
      credentialId: 'cred-1',
      userId: a.user.id,
      publicKey: new Uint8Array([1, 2, 3]),
      signCount: 0,
      name: 'Laptop',
      aaguid: '0'.repeat(32),
      backupEligible: false,
    });
    const factors = await auth.userFactors(a.user.id);
    expect(factors.totp).toBe('confirmed');
    expect(factors.recoveryCodesLeft).toBe(codes.length);
    expect(factors.passkeys).toEqual([
      { id: 'cred-1', name: 'Laptop', createdAt: expect.any(String), lastUsedAt: null },
    ]);
    // Nothing secret in the answer: no TOTP secret, no key.
    expect(JSON.stringify(factors)).not.toContain(secret);
    // A login now owes the second factor; after resetMfa it does not.
    expect(await auth.login({ email: 'f@example.com', password: 'password1' })).toHaveProperty(
      'mfaRequired',
    );
    expect(await auth.resetMfa('f@example.com')).toEqual({
      totp: true,
      recoveryCodes: factors.recoveryCodesLeft,
    });
    expect(await auth.resetMfa('f@example.com')).toEqual({ totp: false, recoveryCodes: 0 });
    await expect(
      session(auth.login({ email: 'f@example.com', password: 'password1' })),
    ).resolves.toBeDefined();
    // Another user's passkey is NOT_FOUND and stays.
    await auth.register({ email: 'g@example.com', password: 'password1' });
    expect(await codeOf(auth.deleteUserPasskey('g@example.com', 'cred-1'))).toBe('NOT_FOUND');
    expect(await codeOf(auth.deleteUserPasskey('g@example.com', ''))).toBe('VALIDATION_ERROR');
    await auth.deleteUserPasskey(a.user.id, 'cred-1');
    expect((await auth.userFactors(a.user.id)).passkeys).toEqual([]);
    expect(await codeOf(auth.deleteUserPasskey(a.user.id, 'cred-1'))).toBe('NOT_FOUND');
  });

  test('roles.memberCounts counts the holders of every role', async () => {
    const { auth } = await h.make();
    await auth.roles.create('editor');
    await auth.roles.create('empty');
    await auth.register({ email: 'e@example.com', password: 'password1' });
    await auth.roles.assign('e@example.com', 'editor');
    await auth.createSuperuser('root@example.com', 'password1');
    expect(await auth.roles.memberCounts()).toEqual({ editor: 1, empty: 0, superuser: 1 });
  });

  test('migrate() is idempotent on a live instance', async () => {
    const { auth } = await h.make();
    await auth.register({ email: 'keep@example.com', password: 'password1' });
    await auth.migrate();
    expect(await auth.findUser('keep@example.com')).not.toBeNull();
  });
});

describe('listUsers', () => {
  test('pages users oldest first with their roles and the total', async () => {
    const { auth, clock } = await h.make();
    for (const n of [1, 2, 3]) {
      await auth.register({ email: `l${n}@example.com`, password: 'password1' });
      clock.advance(1);
    }
    await auth.createSuperuser('root@example.com', 'password1');
    const all = await auth.listUsers();
    expect(all).toMatchObject({ total: 4, limit: 100, offset: 0 });
    expect(all.users.map((u) => [u.email, u.roles])).toEqual([
      ['l1@example.com', []],
      ['l2@example.com', []],
      ['l3@example.com', []],
      ['root@example.com', ['superuser']],
    ]);
    // the public user shape: no password hash
    expect(Object.keys(all.users[0]!).sort()).toEqual([
      'active',
      'createdAt',
      'email',
      'emailVerified',
      'id',
      'metadata',
      'roles',
      'updatedAt',
    ]);
    expect(JSON.stringify(all)).not.toMatch(/\$2[aby]\$/); // no bcrypt hash anywhere
    const page = await auth.listUsers({ limit: 2, offset: 1 });
    expect(page.users.map((u) => u.email)).toEqual(['l2@example.com', 'l3@example.com']);
    expect(page).toMatchObject({ total: 4, limit: 2, offset: 1 });
  });

  test.each([
    [{ limit: 0 }],
    [{ limit: 1001 }],
    [{ limit: 1.5 }],
    [{ offset: -1 }],
    [{ limit: '10' as unknown as number }],
  ])('refuses %j with VALIDATION_ERROR', async (page) => {
    const { auth } = await h.make();
    expect(await codeOf(auth.listUsers(page))).toBe('VALIDATION_ERROR');
  });
});

// Issue 8: `svc admin list-roles` needed the JWT secret though no admin operation signs a token.
describe('createAuthAdmin: the administrative operations without a jwtSecret', () => {
  test('manages users, roles and sessions over the same storage as a full instance', async () => {
    const { auth } = await h.make();
    const login = await auth.register({ email: 'adm@example.com', password: 'password1' });
    const admin = await createAuthAdmin({ bcryptRounds: 4 }, { database: h.db().db });
    try {
      expect(await admin.roles.create('editor', 'Edits')).toEqual({
        name: 'editor',
        description: 'Edits',
      });
      await admin.roles.assign('adm@example.com', 'editor');
      expect(await admin.roles.list()).toEqual([{ name: 'editor', description: 'Edits' }]);
      expect((await admin.listUsers()).users.map((u) => [u.email, u.roles])).toEqual([
        ['adm@example.com', ['editor']],
      ]);
      expect(await admin.revokeAllSessions('adm@example.com')).toBe(1);
      expect(await codeOf(auth.verifyToken(login.token))).toBe('SESSION_EXPIRED');
      await admin.setPassword('adm@example.com', 'password2');
      const root = await admin.createSuperuser('root@example.com', 'password1');
      expect(root.email).toBe('root@example.com');
      await expect(
        auth.login({ email: 'adm@example.com', password: 'password2' }),
      ).resolves.toBeDefined();
    } finally {
      await admin.close();
    }
  });

  test('holds no token operation and no handler', async () => {
    const admin = await createAuthAdmin({ bcryptRounds: 4 }, { database: h.db().db });
    try {
      for (const key of ['login', 'register', 'refresh', 'verifyToken', 'handler', 'requestReset'])
        expect(admin).not.toHaveProperty(key);
    } finally {
      await admin.close();
    }
  });

  test('a jwtSecret given is still checked; the rest of the config too', async () => {
    await expect(createAuthAdmin({ jwtSecret: 'short' }, { database: h.db().db })).rejects.toThrow(
      /jwtSecret must be a string of at least 32/,
    );
    await expect(createAuthAdmin({ bcryptRounds: 99 }, { database: h.db().db })).rejects.toThrow(
      /bcryptRounds/,
    );
    const admin = await createAuthAdmin({ jwtSecret: SECRET }, { database: h.db().db });
    await admin.close();
  });
});
