import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core';
import { cleanEnv, runSvc, startSvc } from './svc';

const SECRET = 'cli-admin-secret-0123456789-abcdefghijk';

describe(`svc admin on ${testDatabaseKind()}`, () => {
  let t: TestDatabase | undefined;
  let dir: string;
  beforeAll(async () => {
    if (testDatabaseKind() === 'postgres') t = await createTestDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-admin-'));
  });
  afterAll(async () => t?.dispose());
  const dbArgs = () => (t && 'url' in t.config ? ['--database-url', t.config.url] : ['--data-dir', path.join(dir, 'data')]);
  const admin = (args: string[], env: Record<string, string> = { SVC_JWT_SECRET: SECRET }) =>
    runSvc(['admin', ...args, ...dbArgs()], { cwd: dir, env: cleanEnv(env), ms: 60000 });

  test('create-superuser, then the superuser logs in with a token holding the role', async () => {
    const created = await admin(['create-superuser', 'root@example.com', '--password', 'root password 1']);
    expect(created.stderr).toBe('');
    expect(created.stdout).toMatch(/^Created superuser root@example\.com \([0-9a-f-]{36}\)\.\n$/);
    expect((await admin(['list-roles'])).stdout).toContain('superuser');

    const svc = await startSvc(['--port', '0', '--enable-auth', ...dbArgs()], { cwd: dir, env: cleanEnv({ SVC_JWT_SECRET: SECRET }) });
    try {
      const login = await fetch(`${svc.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'root@example.com', password: 'root password 1' }) });
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };
      const claims = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString());
      expect(claims.roles).toEqual(['superuser']);
    } finally {
      svc.child.kill('SIGTERM');
    }
    expect(await svc.exited).toBe(0);
  });

  test('set-password replaces the password; assign-role needs an existing user', async () => {
    const set = await admin(['set-password', 'root@example.com', '--password', 'another password 2']);
    expect(set).toMatchObject({ code: 0, stdout: 'Password set for root@example.com; every session of that user was revoked.\n' });
    const missing = await admin(['assign-role', 'ghost@example.com', 'superuser']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/USER_NOT_FOUND/);
  });

  test('an empty password is refused before anything is opened', async () => {
    const r = await admin(['set-password', 'root@example.com', '--password', '']);
    expect(r).toMatchObject({ code: 2, stderr: 'svc: admin set-password needs a non-empty --password\n' });
  });

  test('the JWT secret is required', async () => {
    const r = await admin(['list-roles'], {});
    expect(r).toMatchObject({ code: 2, stderr: 'svc: svc admin needs the JWT secret: --jwt-secret or SVC_JWT_SECRET\n' });
  });

  test('unknown commands and wrong arity exit 2', async () => {
    expect((await admin(['frob'])).code).toBe(2);
    expect((await admin(['assign-role', 'only-one'])).code).toBe(2);
  });
});
