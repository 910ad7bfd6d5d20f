import { codeOf, useCoreHarness, session } from '../__tests__/harness';

const h = useCoreHarness();

describe('roles', () => {
  test('create, list, assign, getUserRoles, userHasRole, revoke, delete', async () => {
    const { auth } = await h.make();
    const u = await auth.register({ email: 'r@example.com', password: 'password1' });
    expect(await auth.roles.create('editor', 'Edits things')).toEqual({
      name: 'editor',
      description: 'Edits things',
    });
    expect(await auth.roles.create('app:admin')).toEqual({ name: 'app:admin', description: null });
    expect(await auth.roles.list()).toEqual([
      { name: 'app:admin', description: null },
      { name: 'editor', description: 'Edits things' },
    ]);
    await auth.roles.assign('R@example.com', 'editor');
    await auth.roles.assign(u.user.id, 'app:admin');
    await auth.roles.assign(u.user.id, 'editor'); // idempotent
    expect(await auth.roles.getUserRoles(u.user.id)).toEqual(['app:admin', 'editor']);
    expect(await auth.roles.userHasRole('r@example.com', 'editor')).toBe(true);
    await auth.roles.revoke(u.user.id, 'editor');
    expect(await auth.roles.userHasRole(u.user.id, 'editor')).toBe(false);
    await auth.roles.delete('app:admin');
    expect(await auth.roles.getUserRoles(u.user.id)).toEqual([]);
    expect(await auth.roles.list()).toEqual([{ name: 'editor', description: 'Edits things' }]);
  });

  test.each([
    ['an empty name', () => ['']],
    ['a 65-character name', () => ['r'.repeat(65)]],
    ['a space', () => ['two words']],
    ['a dot', () => ['a.b']],
    // Issue 8: text a store cannot keep (a NUL; a lone surrogate, which became U+FFFD).
    ['a lone surrogate in the description', () => ['ok', 'caf\udce9']],
    ['a NUL in the description', () => ['ok', 'a\u0000b']],
  ])('create refuses %s with VALIDATION_ERROR', async (_n, args) => {
    const { auth } = await h.make();
    expect(await codeOf(auth.roles.create(...(args() as [string, string?])))).toBe(
      'VALIDATION_ERROR',
    );
    expect(await auth.roles.list()).toEqual([]);
  });

  test('creating a role that exists is INVALID_OPERATION', async () => {
    const { auth } = await h.make();
    await auth.roles.create('dup');
    expect(await codeOf(auth.roles.create('dup'))).toBe('INVALID_OPERATION');
  });

  test('assigning a role that does not exist fails clearly and creates nothing', async () => {
    const { auth } = await h.make();
    const u = await auth.register({ email: 'm@example.com', password: 'password1' });
    const err = await auth.roles.assign(u.user.id, 'ghost').catch((e) => e);
    expect(err).toMatchObject({ code: 'VALIDATION_ERROR', message: "role 'ghost' does not exist" });
    expect(await auth.roles.list()).toEqual([]);
  });

  // Issue 26 (5): the CLI has no create-role, so `assign-role` on a fresh database must
  // be able to create the role it names; the typo guard above stays the default.
  test('assign with createIfMissing creates an unknown role, says so, and assigns it', async () => {
    const { auth } = await h.make();
    const u = await auth.register({ email: 'c@example.com', password: 'password1' });
    expect(await auth.roles.assign(u.user.id, 'editor', { createIfMissing: true })).toEqual({
      roleCreated: true,
    });
    expect(await auth.roles.list()).toEqual([{ name: 'editor', description: null }]);
    expect(await auth.roles.getUserRoles(u.user.id)).toEqual(['editor']);
    // The role exists now: nothing is created, the assignment stays idempotent.
    expect(await auth.roles.assign(u.user.id, 'editor', { createIfMissing: true })).toEqual({
      roleCreated: false,
    });
    await auth.roles.create('viewer', 'Reads');
    expect(await auth.roles.assign('C@example.com', 'viewer')).toEqual({ roleCreated: false });
    expect(await auth.roles.list()).toEqual([
      { name: 'editor', description: null },
      { name: 'viewer', description: 'Reads' },
    ]);
  });

  test('assign with createIfMissing creates nothing for an unknown user or a malformed name', async () => {
    const { auth } = await h.make();
    expect(
      await codeOf(auth.roles.assign('ghost@example.com', 'editor', { createIfMissing: true })),
    ).toBe('USER_NOT_FOUND');
    const u = await auth.register({ email: 'd@example.com', password: 'password1' });
    expect(await codeOf(auth.roles.assign(u.user.id, 'two words', { createIfMissing: true }))).toBe(
      'VALIDATION_ERROR',
    );
    expect(await auth.roles.list()).toEqual([]);
  });

  test('roles are a snapshot in the token: a role assigned later shows after a new login or refresh', async () => {
    const { auth } = await h.make();
    const r = await auth.register({ email: 's@example.com', password: 'password1' });
    await auth.roles.create('admin');
    await auth.roles.assign(r.user.id, 'admin');
    expect((await auth.verifyToken(r.token)).roles).toEqual([]);
    const again = await session(auth.login({ email: 's@example.com', password: 'password1' }));
    expect((await auth.verifyToken(again.token)).roles).toEqual(['admin']);
    const refreshed = await auth.refresh(r.refreshToken);
    expect((await auth.verifyToken(refreshed.token)).roles).toEqual(['admin']);
    await auth.roles.revoke(r.user.id, 'admin');
    expect((await auth.verifyToken(again.token)).roles).toEqual(['admin']); // still the snapshot
  });
});
