import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AUTH_CONFIG_DEFAULTS, resolveAuthConfig } from '@svc/auth';
import { buildSchema } from '@svc/core';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { seedEmbeddedFolder } from '@svc/test-support';
import { resolveConfig } from '@svc/server';
import { FIRST_START_MS, cleanEnv, runSvc, startSvc } from './svc';

/** Issue 31: `svc init` starts a project that builds, migrates and serves as written. */
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'svc-init-'));
const read = (file: string) => fs.readFileSync(file, 'utf8');

/** `svc.toml` with every commented key and table uncommented: `# key = value` becomes `key = value`. */
function uncommented(text: string): string {
  return text
    .split('\n')
    .map((line) => /^# (\[[a-z.]+\]|[a-z_]+ = .*)$/.exec(line)?.[1] ?? line)
    .join('\n');
}

describe('svc init', () => {
  test('writes the schema, svc.toml and .gitignore, and prints the next commands', async () => {
    const dir = tmp();
    const { code, stdout, stderr } = await runSvc(['init', 'my-app'], { cwd: dir });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const app = path.join(dir, 'my-app');
    expect(fs.readdirSync(app).sort()).toEqual(['.gitignore', 'dbschema', 'svc.toml']);
    expect(read(path.join(app, '.gitignore'))).toBe('.svc/\n');
    expect(stdout).toContain('  my-app/dbschema/default.esdl  an example schema: edit it\n');
    expect(stdout).toMatch(
      /\nNext:\n {2}cd my-app\n {2}svc migration create .*\n {2}svc migrate .*\n {2}svc serve .*\n/,
    );
    expect(stdout).toContain('svc query "insert Author { name := \'Ann\' }"');
    expect(stdout).toContain('curl 127.0.0.1:5656/api/Author');
    const spaced = await runSvc(['init', 'my app'], { cwd: dir });
    expect(spaced.stdout).toContain("\n  cd 'my app'\n");
    // Every key of the file is commented out: as written, it changes nothing.
    const config = read(path.join(app, 'svc.toml'));
    expect(config.split('\n').filter((l) => /^[a-z_]+ *=/.test(l))).toEqual([]);
  });

  test('refuses to write over a project: names the files, changes nothing, exit 2', async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'svc.toml'), '[server]\nport = 7000\n');
    fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n');
    const first = await runSvc(['init'], { cwd: dir });
    expect(first.code).toBe(2);
    expect(first.stdout).toBe('');
    expect(first.stderr).toBe(
      'svc: svc.toml already exists: svc init writes nothing over a project (edit it, or run svc init in a new folder)\n',
    );
    expect(fs.readdirSync(dir).sort()).toEqual(['.gitignore', 'svc.toml']);
    expect(read(path.join(dir, 'svc.toml'))).toBe('[server]\nport = 7000\n');
    expect(read(path.join(dir, '.gitignore'))).toBe('node_modules/\n');

    // A schema of another name is a project too: default.esdl would be joined to it.
    const other = tmp();
    fs.mkdirSync(path.join(other, 'dbschema'));
    fs.writeFileSync(path.join(other, 'dbschema/blog.esdl'), 'type Post;\n');
    const second = await runSvc(['init', other], { cwd: dir });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(
      `${path.relative(dir, other)}/dbschema/blog.esdl already exists`,
    );
    expect(fs.readdirSync(other)).toEqual(['dbschema']);
    expect(fs.readdirSync(path.join(other, 'dbschema'))).toEqual(['blog.esdl']);

    const usage = await runSvc(['init', 'a', 'b'], { cwd: dir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^svc: unexpected argument "b"\n\nUsage: svc init \[dir\]/);
    const file = await runSvc(['init', 'svc.toml'], { cwd: dir });
    expect(file.code).toBe(2);
    expect(file.stderr).toBe('svc: svc.toml exists and is not a folder\n');
  });

  test('appends .svc/ to an existing .gitignore once, and leaves one that has it alone', async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\ndist'); // no final newline
    expect((await runSvc(['init'], { cwd: dir })).code).toBe(0);
    expect(read(path.join(dir, '.gitignore'))).toBe('node_modules/\ndist\n.svc/\n');

    const has = tmp();
    fs.writeFileSync(path.join(has, '.gitignore'), '/.svc\n*.log\n');
    const result = await runSvc(['init'], { cwd: has });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('.gitignore             already ignores .svc/: left as it was');
    expect(read(path.join(has, '.gitignore'))).toBe('/.svc\n*.log\n');
  });

  test('every key of svc.toml, uncommented, is one the configuration resolvers take, at the default shown', async () => {
    const dir = tmp();
    expect((await runSvc(['init'], { cwd: dir })).code).toBe(0);
    const file = path.join(dir, 'uncommented.toml');
    const secret = 'x'.repeat(40);
    const text = uncommented(read(path.join(dir, 'svc.toml'))).replace(
      /^jwt_secret = .*$/m,
      `jwt_secret = "${secret}"`,
    );
    fs.writeFileSync(file, text);
    expect(text).toMatch(/^\[auth\.smtp\]\nhost = /m);
    const keys = text.split('\n').filter((l) => /^[a-z_]+ = /.test(l)).length;
    expect(keys).toBeGreaterThanOrEqual(15);

    const resolved = resolveConfig({ configFile: file, env: {} });
    const defaults = resolveConfig({ env: {} });
    const { jwtSecret, database, databaseSource, authConfig, ...settings } = resolved;
    const {
      jwtSecret: _,
      database: __,
      databaseSource: ___,
      authConfig: ____,
      ...shown
    } = defaults;
    expect(settings).toEqual(shown);
    expect(jwtSecret).toBe(secret);
    expect(databaseSource).toBe('file');
    expect(database).toEqual({ url: 'postgres://user:password@127.0.0.1:5432/app' });

    // [auth]: every key known to @svc/auth, at its default.
    const auth = resolveAuthConfig({ ...authConfig, jwtSecret: secret } as never);
    for (const key of [
      'allowRegistration',
      'requireEmailVerification',
      'tokenExpiry',
      'cookie',
    ] as const) {
      expect(authConfig[key]).toBe(AUTH_CONFIG_DEFAULTS[key]);
      expect(auth[key]).toBe(AUTH_CONFIG_DEFAULTS[key]);
    }
    expect(authConfig.smtp).toEqual({
      host: 'smtp.example.com',
      port: 587,
      from: 'App <no-reply@example.com>',
    });
    expect(Object.keys(authConfig).sort()).toEqual([
      'allowRegistration',
      'cookie',
      'emailBaseUrl',
      'requireEmailVerification',
      'smtp',
      'tokenExpiry',
    ]);

    // A typo in a key is what this test would catch: the resolver names it.
    fs.writeFileSync(file, text.replace('enable_rest =', 'enable_rests ='));
    expect(() => resolveConfig({ configFile: file, env: {} })).toThrow(
      /unknown key \[server\] enable_rests/,
    );
  });
});

describe(`svc init, then the commands it prints, on ${testDatabaseKind()}`, () => {
  let t: TestDatabase | undefined;
  beforeEach(async () => {
    if (testDatabaseKind() === 'postgres') t = await createTestDatabase();
  });
  afterEach(async () => t?.dispose());
  /**
   * The test database's URL, or the project's embedded folder with its database made already:
   * what these check comes after a first start (config-and-start.pglite.test.ts checks that).
   */
  const dbArgs = (dir: string) => {
    if (t && 'url' in t.config) return ['--database-url', t.config.url];
    seedEmbeddedFolder(path.join(dir, '.svc/data'));
    return ['--data-dir', path.join(dir, '.svc/data')];
  };

  test('the example schema migrates, and so does its access policy example once uncommented', async () => {
    const dir = tmp();
    const run = (args: string[]) => runSvc(args, { cwd: dir, ms: FIRST_START_MS });
    expect((await run(['init'])).code).toBe(0);
    const db = dbArgs(dir);

    const created = await run(['migration', 'create']);
    expect(created.stderr).toBe('');
    expect(created.stdout).toMatch(/^Created dbschema\/migrations\/00001-[0-9a-f]{12}\.edgeql/);
    for (const step of [
      'create type default::Author',
      'create link default::Post.author -> default::Author (required)',
      'create constraint std::exclusive on default::Author.name',
      'create index on (.created_at) on default::Post',
    ])
      expect(created.stdout).toContain(`  ${step}\n`);
    expect((await run(['migrate', ...db])).code).toBe(0);
    const inserted = await run([
      'query',
      "insert Post { title := 'Hello', author := (insert Author { name := 'Ann' }) }",
      ...db,
    ]);
    expect(inserted.stderr).toBe('');
    const posts = await run(['query', 'select Post { title, published, author: { name } }', ...db]);
    // A single link shown with a sub-shape is an array of its one object (docs/http.md).
    expect(JSON.parse(posts.stdout)).toEqual([
      { title: 'Hello', published: false, author: [{ name: 'Ann' }] },
    ]);

    // The commented-out access policies, uncommented, build and migrate too.
    const schemaFile = path.join(dir, 'dbschema/default.esdl');
    const schema = read(schemaFile);
    const policies = schema.replace(/^( *)# (access policy | {2}allow | {2}using )/gm, '$1$2');
    expect(policies).not.toBe(schema);
    expect(policies.match(/^ *access policy /gm)).toHaveLength(2);
    buildSchema(policies);
    fs.writeFileSync(schemaFile, policies);
    const second = await run(['migration', 'create']);
    expect(second.stdout).toMatch(/^Created dbschema\/migrations\/00002-[0-9a-f]{12}\.edgeql/);
    expect(second.stdout).toContain('access policy');
    expect((await run(['migrate', ...db])).code).toBe(0);
  });

  test('svc serve starts with every key of svc.toml uncommented, auth and SMTP included', async () => {
    const dir = tmp();
    expect((await runSvc(['init'], { cwd: dir })).code).toBe(0);
    const config = path.join(dir, 'svc.toml');
    fs.writeFileSync(
      config,
      uncommented(read(config))
        .replace(/^jwt_secret = .*$/m, `jwt_secret = "${'s'.repeat(40)}"`)
        .replace(/^enable_auth = .*$/m, 'enable_auth = true')
        .replace(/^host = "smtp\.example\.com"$/m, 'host = "127.0.0.1"')
        .replace(/^port = 5656$/m, 'port = 0'),
    );
    // The flag names the test's database over the file's placeholder URL.
    const db = dbArgs(dir);
    const svc = await startSvc(db, { cwd: dir, env: cleanEnv() });
    try {
      const health = await fetch(`${svc.url}/health/ready`);
      expect(health.status).toBe(200);
      // Auth is on with the file's [auth] keys: registration is open (allow_registration).
      const res = await fetch(`${svc.url}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ann@example.com', password: 'correct horse 1' }),
      });
      expect(res.status).toBe(201);
      // [auth.smtp] was read: no warning that email is not delivered, no development inbox.
      expect(`${svc.stdout()}${svc.stderr()}`).not.toMatch(/no SMTP server is configured/);
      expect((await fetch(`${svc.url}/_/mail`)).status).toBe(404);
    } finally {
      svc.child.kill('SIGTERM');
      await svc.exited;
    }
  });
});
