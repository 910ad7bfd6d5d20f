import { useCoreHarness, codeOf } from './harness';

const h = useCoreHarness();

test('register, login, verifyToken, refresh, logout, roles', async () => {
  const { auth } = await h.make();
  const reg = await auth.register({ email: 'Ann@Example.com', password: 'password1', username: 'ann' });
  expect(reg.user.email).toBe('ann@example.com');
  const ctx = await auth.verifyToken(reg.token);
  expect(ctx.userId).toBe(reg.user.id);
  const login = await auth.login({ email: 'ANN@example.com', password: 'password1' });
  const r = await auth.refresh(login.refreshToken);
  expect(await codeOf(auth.refresh(login.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
  expect(await codeOf(auth.verifyToken(login.token))).toBe('SESSION_EXPIRED');
  await auth.roles.create('admin');
  await auth.roles.assign('ann@example.com', 'admin');
  expect(await auth.roles.getUserRoles(reg.user.id)).toEqual(['admin']);
  await auth.logout(r.token);
  expect(await codeOf(auth.verifyToken(r.token))).toBe('SESSION_EXPIRED');
});
