import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { testDatabaseKind } from '@svc/core/testing';
import { cleanEnv, runSvc } from './svc';

// Issue 8 ("First-run care"): a bad --database-url or a refused connection printed pg-pool's
// stack. Every command that opens the database now prints one line saying what failed and how to
// fix it, names where the URL came from, never shows the password, and exits 1.

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'svc-dbfail-'));

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/** The three commands that open a database, with what each needs besides the URL. */
function commands(dir: string): [string, string[]][] {
  fs.writeFileSync(path.join(dir, 'schema.esdl'), 'type User;\n');
  return [
    ['serve', ['serve', '--port', '0']],
    ['migrate', ['migrate', '--schema', 'schema.esdl']],
    ['admin', ['admin', 'list-roles']],
  ];
}

function expectOneLine(r: { code: number | null; stdout: string; stderr: string }, line: string) {
  expect(r.stderr).toBe(`svc: ${line}\n`);
  expect(r.stdout).toBe('');
  expect(r.code).toBe(1);
  expect(r.stderr).not.toContain('s3cret');
}

describe('a database that cannot be opened is one line and exit 1', () => {
  const dir = tmp();
  test.each(commands(dir))(
    '%s: connection refused, URL from --database-url',
    async (_name, args) => {
      const port = await closedPort();
      const r = await runSvc(
        [...args, '--database-url', `postgres://app:s3cret@127.0.0.1:${port}/app`],
        { cwd: dir },
      );
      expectOneLine(
        r,
        `cannot connect to PostgreSQL at 127.0.0.1:${port} (connection refused): check --database-url and that the server is running`,
      );
    },
  );

  test.each(commands(dir))('%s: a malformed URL from DATABASE_URL', async (_name, args) => {
    const r = await runSvc(args, {
      cwd: dir,
      env: cleanEnv({ DATABASE_URL: 'postgres://app:s3cret@127.0.0.1:99999/app' }),
    });
    expectOneLine(
      r,
      'the database URL is not a valid URL: fix DATABASE_URL (postgres://user:password@host:port/database)',
    );
  });

  test('a URL from the config file is named as its key', async () => {
    const port = await closedPort();
    const cfg = tmp();
    fs.writeFileSync(
      path.join(cfg, 'svc.toml'),
      `[database]\nurl = "postgres://app:s3cret@127.0.0.1:${port}/app"\n`,
    );
    for (const args of [
      ['serve', '--port', '0'],
      ['admin', 'list-roles'],
    ]) {
      const r = await runSvc(args, { cwd: cfg });
      expectOneLine(
        r,
        `cannot connect to PostgreSQL at 127.0.0.1:${port} (connection refused): check [database] url in svc.toml and that the server is running`,
      );
    }
  });
});

// The server's own refusals need a server: they run in the PostgreSQL pass (.ci/run runs both).
if (testDatabaseKind() === 'postgres') {
  describe('refusals from a real PostgreSQL server', () => {
    const base = new URL(process.env.SVC_TEST_DATABASE_URL as string);
    const at = `${base.hostname}:${base.port || 5432}`;
    const dir = tmp();

    test.each(commands(dir))('%s: an unknown database', async (_name, args) => {
      const url = new URL(base);
      url.pathname = '/svc_no_such_database';
      const r = await runSvc([...args, '--database-url', url.toString()], { cwd: dir });
      expectOneLine(
        r,
        `PostgreSQL at ${at} has no database "svc_no_such_database": create it (createdb) or fix the database name in --database-url`,
      );
    });

    test('an unknown user', async () => {
      const url = new URL(base);
      url.username = 'svc_no_such_role';
      url.password = 's3cret';
      const r = await runSvc(['serve', '--port', '0', '--database-url', url.toString()], {
        cwd: dir,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^svc: PostgreSQL at ${at.replace(/\./g, '\\.')} refused the login \\(.*svc_no_such_role.*\\): check the user and password in --database-url\\n$`,
        ),
      );
      expect(r.stderr).not.toContain('s3cret');
    });
  });
}
