import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { FIRST_START_LINES, cleanEnv, runSvc, spawnSvc, startSvc } from './svc';

// Issue 31, tried as a new user: configuration mistakes are named with their line and a "did you
// mean", before anything is opened; a port in use is said before the database is created; a first
// start says what it is doing (a long migration: migrate.test.ts). Through the real binary. None of
// these reads SVC_TEST_DB or reaches PostgreSQL (a server here starts on its default embedded
// folder): in both passes they ran the same processes on the same folders, so they run in the
// PGlite pass only (jest.preset.js).

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-issue31-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('"did you mean" for commands and options', () => {
  test('svc serv: exit 2, suggests svc serve', async () => {
    const r = await runSvc(['serv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^svc: unknown command "serv"; did you mean "svc serve"\?\n\nUsage:/);
  });

  test('svc admin creat-superuser and svc generate interface: the subcommand meant', async () => {
    const admin = await runSvc(['admin', 'creat-superuser', 'a@example.com'], { cwd: project({}) });
    expect(admin.code).toBe(2);
    expect(admin.stderr).toMatch(
      /^svc: unknown admin command "creat-superuser"; did you mean "svc admin create-superuser"\?\n/,
    );
    const generate = await runSvc(['generate', 'interface'], { cwd: project({}) });
    expect(generate.code).toBe(2);
    expect(generate.stderr).toMatch(
      /^svc: cannot generate "interface"; did you mean "svc generate interfaces"\?\n/,
    );
  });

  test('an unknown command with nothing close: no suggestion', async () => {
    const r = await runSvc(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^svc: unknown command "frobnicate"\n/);
  });

  test('svc serve --prot 1 and svc migrate --dryrun: the option meant', async () => {
    const serve = await runSvc(['serve', '--prot', '1'], { cwd: project({}) });
    expect(serve.code).toBe(2);
    expect(serve.stderr).toMatch(
      /^svc: unknown option --prot; did you mean --port\?\n\nUsage: svc serve/,
    );
    const migrate = await runSvc(['migrate', '--dryrun'], { cwd: project({}) });
    expect(migrate.code).toBe(2);
    expect(migrate.stderr).toMatch(/^svc: unknown option --dryrun; did you mean --dry-run\?\n/);
  });
});

describe('the configuration is checked whole, before anything opens', () => {
  test('every problem of svc.toml at once, each with its line; nothing created', async () => {
    const dir = project({
      'schema.esdl': 'type User;\n',
      'svc.toml': [
        '[server]',
        'prot = 8080',
        'request_timeout = "30s"',
        '',
        '[auth]',
        'cookie = "yes"',
        '',
        '[auth.smtp]',
        'host = "smtp.example.com"',
        'from = "no-reply@example.com"',
        'port = "2525"',
        '',
        '[databse]',
        'url = "postgres://x"',
        '',
      ].join('\n'),
    });
    for (const command of [['serve'], ['migrate', '--schema', 'schema.esdl']]) {
      const r = await runSvc(command, { cwd: dir });
      expect(r.stderr).toBe(
        [
          'svc: invalid configuration:',
          "  - svc.toml:2: unknown key [server] prot; did you mean 'port'?",
          '  - svc.toml:3: [server] request_timeout must be a positive integer, got the string "30s"',
          '  - svc.toml:6: [auth] cookie must be true or false, got the string "yes"',
          '  - svc.toml:11: [auth.smtp] port must be an integer from 1 to 65535, got the string "2525"',
          "  - svc.toml:13: unknown table [databse]; did you mean 'database'?",
          '',
        ].join('\n'),
      );
      expect(r.code).toBe(2);
    }
    expect(fs.existsSync(path.join(dir, '.svc'))).toBe(false);
  });

  test('a setting given as a flag is named by its flag; one from the environment by its variable', async () => {
    const r = await runSvc(['serve', '--log-level', 'loud'], {
      cwd: project({}),
      env: cleanEnv({ SVC_PORT: 'eighty' }),
    });
    expect(r.stderr).toBe(
      [
        'svc: invalid configuration:',
        '  - --log-level must be one of fatal, error, warn, info, debug, trace, silent, got the string "loud"',
        '  - SVC_PORT must be an integer from 0 to 65535, got "eighty"',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(2);
  });

  test('a TOML syntax error: file, line, column, the line and a caret', async () => {
    const dir = project({ 'svc.toml': '[server]\nport = 5656\nhost = "127.0.0.1\n' });
    const r = await runSvc(['serve'], { cwd: dir });
    expect(r.stderr).toBe(
      [
        'svc: invalid configuration:',
        '  - svc.toml:3:18: control characters are not allowed in strings',
        '      host = "127.0.0.1',
        '                       ^',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(2);
    expect(fs.existsSync(path.join(dir, '.svc'))).toBe(false);
  });

  test('a bad SMTP From passes the types and is still refused at load, without a stack', async () => {
    const dir = project({
      'svc.toml': '[auth.smtp]\nhost = "smtp.example.com"\nfrom = "not an address"\n',
    });
    const r = await runSvc(['serve', '--enable-auth'], {
      cwd: dir,
      env: cleanEnv({ SVC_JWT_SECRET: 'issue-31-secret-0123456789-abcdefghij' }),
    });
    expect(r.stderr).toMatch(
      /^svc: invalid configuration:\n {2}- auth config: invalid SMTP config: from/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(2);
    expect(fs.existsSync(path.join(dir, '.svc'))).toBe(false);
  });
});

describe('svc serve on a port in use', () => {
  test('says so with the fix, before the embedded database is created', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const dir = project({ 'dbschema/default.esdl': 'type User;\n' });
      const r = await runSvc(['serve', '--port', String(port)], { cwd: dir });
      expect(r.stderr).toBe(
        `svc: cannot listen on 127.0.0.1:${port} (EADDRINUSE): port ${port} is in use by another program: stop it, or choose another port with --port <n> (or --port 0 for any free port)\n`,
      );
      expect(r.code).toBe(1);
      expect(fs.existsSync(path.join(dir, '.svc'))).toBe(false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe('svc serve holds its port from before the database opens', () => {
  test('while the embedded database is created the port is taken, then the server answers on it', async () => {
    const free = net.createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const { port } = free.address() as net.AddressInfo;
    await new Promise((resolve) => free.close(resolve));
    const dir = project({ 'dbschema/default.esdl': 'type User;\n' });
    const child = spawnSvc(['serve', '--port', String(port), '--log-format', 'json'], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 1200 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(done()).toBe(true);
    };
    try {
      await until(() => stderr.includes('creating the embedded database'));
      const other = net.createServer();
      const refused = await new Promise<string | undefined>((resolve) => {
        other.once('error', (err: NodeJS.ErrnoException) => resolve(err.code));
        other.listen(port, '127.0.0.1', () => other.close(() => resolve(undefined)));
      });
      expect(refused).toBe('EADDRINUSE');
      await until(() => stdout.includes('svc listening on'));
      expect(stdout).toContain(`svc listening on http://127.0.0.1:${port} `);
      expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});

describe('a first start on the embedded database says what it is doing', () => {
  test('svc serve: a line before creating ./.svc/data and one with the time it took; the next start says nothing', async () => {
    const dir = project({ 'dbschema/default.esdl': 'type User;\n' });
    const first = await startSvc(['--port', '0', '--log-format', 'json'], { cwd: dir });
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.stderr()).toMatch(FIRST_START_LINES);
    expect(first.stderr()).toMatch(
      /^svc: creating the embedded database in \.\/\.svc\/data \(first start, usually 10-30 s\)\.\.\.\n/,
    );
    // stdout stays the logs: every line JSON.
    for (const line of first.stdout().trim().split('\n'))
      expect(() => JSON.parse(line)).not.toThrow();

    const again = await startSvc(['--port', '0', '--log-format', 'json'], { cwd: dir });
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(again.stderr()).not.toContain('embedded database');
  });
});
