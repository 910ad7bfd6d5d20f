import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedEmbeddedFolder } from '@svc/test-support';
import {
  cleanEnv,
  FIRST_START_MS,
  runInTerminal,
  runSvc,
  spawnSvc,
  startSvc,
  withoutFirstStart,
} from './svc';

// `svc` itself (--version, --help, a bad configuration) and `svc serve` on the embedded folder it
// uses when no database is configured. None of these reads SVC_TEST_DB or reaches PostgreSQL: in
// both passes they ran the same processes on the same folders, so they run in the PGlite pass
// only (jest.preset.js). serve.test.ts runs svc serve on the pass's engine.

const { version } = require('../package.json');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'svc-serve-'));
/**
 * A folder for a test whose subject comes after the first start, with its embedded database in
 * `data` made already (the tests that say "created" or "creates" keep their first start).
 */
function tmpWithDatabase(): string {
  const dir = tmp();
  seedEmbeddedFolder(path.join(dir, 'data'));
  return dir;
}

describe('svc', () => {
  test('--version prints the version of @svc/cli', async () => {
    const r = await runSvc(['--version']);
    expect(r).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  test('--help lists the commands; serve --help lists its flags', async () => {
    const top = await runSvc(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('serve');
    const serve = await runSvc(['serve', '--help']);
    expect(serve.code).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--config',
      '--schema',
      '--database-url',
      '--data-dir',
      '--enable-auth',
      '--jwt-secret',
      '--tls-cert',
      '--tls-key',
    ]) {
      expect(serve.stdout).toContain(flag);
    }
  });

  test('an unknown command exits 2 with the usage', async () => {
    const r = await runSvc(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });

  test('bad configuration exits 2 naming every problem, and the secret never', async () => {
    const r = await runSvc(
      ['serve', '--enable-auth', '--jwt-secret', 'short-secret', '--port', '0'],
      { cwd: tmp() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('  - --jwt-secret must be at least 32 characters (got 12)');
    expect(r.stderr).not.toContain('short-secret');
  });
});

describe('svc serve with no database configured', () => {
  test('creates ./.svc/data, says so in one log line with its URL, serves, and stops on SIGTERM', async () => {
    const cwd = tmp();
    const svc = await startSvc([], { cwd, env: cleanEnv({ SVC_PORT: '0' }) });
    try {
      expect(fs.existsSync(path.join(cwd, '.svc', 'data', 'PG_VERSION'))).toBe(true);
      const line = svc
        .stdout()
        .split('\n')
        .find((l) => l.includes('svc listening on'));
      expect(line).toContain(svc.url);
      expect(line).toContain(path.join(cwd, '.svc', 'data'));
      expect(await (await fetch(`${svc.url}/`)).json()).toEqual({ name: 'svc', version });
      expect((await fetch(`${svc.url}/health/ready`)).status).toBe(200);
    } finally {
      svc.child.kill('SIGTERM');
    }
    expect(await svc.exited).toBe(0);
  });
});

// Issue 8 ("First-run care"): in a terminal, a banner and lines a person reads; JSON for programs.
describe('svc serve logs for people and for programs', () => {
  const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r/g, '');

  test('in a terminal: a banner (URL, database, schema, auth), pretty coloured lines, and Ctrl-C logs shutting down and stopped', async () => {
    const cwd = tmp();
    fs.mkdirSync(path.join(cwd, 'dbschema'));
    fs.writeFileSync(path.join(cwd, 'dbschema', 'default.esdl'), 'type User;\n');
    const term = runInTerminal(['serve', '--port', '0', '--data-dir', 'data'], { cwd });
    try {
      const shown = plain(await term.waitFor(/Ctrl-C stops it/, FIRST_START_MS)); // a first start
      const url = /^ {2}URL {7}(http:\/\/127\.0\.0\.1:\d+)$/m.exec(shown)?.[1];
      expect(url).toBeDefined();
      expect(shown).toMatch(new RegExp(`^svc ${version.replace(/\./g, '\\.')}$`, 'm'));
      expect(shown).toContain(
        `  database  embedded PGlite at ${path.join(cwd, 'data')} (created)\n`,
      );
      expect(shown).toContain('  schema    dbschema/ (1 file)\n');
      expect(shown).toContain('  auth      off (--enable-auth to turn it on)\n');
      expect(shown).toContain(`  admin UI  ${url}/_/ (needs auth and a superuser)\n`);
      expect(shown).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}schema migrated: /m);
      expect(term.output()).toMatch(/\u001b\[32mINFO/); // coloured on a terminal
      expect(shown).not.toMatch(/^\{/m); // no JSON line

      expect((await fetch(`${url}/schema`)).status).toBe(200);
      await term.waitFor(/GET \/schema 200 [\d.]+ ms/);
      term.type('\x03'); // Ctrl-C: SIGINT to the foreground process
      expect(await term.exited).toBe(0);
      const after = plain(term.output());
      expect(after).toMatch(/INFO {2}shutting down: 0 requests in flight {2}inFlight=0\n/);
      expect(after).toMatch(/INFO {2}stopped {2}ms=\d+\n/);
    } finally {
      term.kill();
    }
  });

  test('in a terminal with --log-format json: JSON lines and no banner', async () => {
    const cwd = tmpWithDatabase();
    const term = runInTerminal(
      ['serve', '--port', '0', '--data-dir', 'data', '--log-format', 'json'],
      { cwd },
    );
    try {
      await term.waitFor(/"msg":"svc listening on http/, 60000);
      term.type('\x03');
      expect(await term.exited).toBe(0);
      // the terminal echoes Ctrl-C as ^C before the next line; stderr's first-start lines come first
      const lines = withoutFirstStart(plain(term.output()))
        .split('\n')
        .map((l) => l.replace(/^\^C/, ''))
        .filter((l) => l.trim() !== '');
      for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
      expect(lines.map((l) => JSON.parse(l).msg).slice(-2)).toEqual([
        'shutting down: 0 requests in flight',
        'stopped',
      ]);
      expect(term.output()).not.toContain('Ctrl-C stops it');
    } finally {
      term.kill();
    }
  });

  test('not in a terminal: JSON lines, SIGTERM logged; --log-format pretty forces lines for people, without colour', async () => {
    const cwd = tmpWithDatabase();
    const svc = await startSvc(['--port', '0', '--data-dir', 'data'], { cwd });
    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
    const msgs = svc
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).msg);
    expect(msgs.slice(-2)).toEqual(['shutting down: 0 requests in flight', 'stopped']);

    const pretty = await new Promise<string>((resolve, reject) => {
      const child = spawnSvc(
        ['serve', '--port', '0', '--data-dir', 'data', '--log-format', 'pretty'],
        { cwd, env: cleanEnv() },
      );
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no banner:\n${out}`)), 60000);
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('Ctrl-C stops it')) child.kill('SIGTERM');
      });
      child.on('exit', () => {
        clearTimeout(timer);
        resolve(out);
      });
    });
    expect(pretty).toMatch(/^svc \d+\.\d+\.\d+\n {2}URL {7}http:\/\/127\.0\.0\.1:\d+\n/m);
    expect(pretty).toContain('(existing data)');
    expect(pretty).toMatch(/^\S+ INFO {2}stopped {2}ms=\d+$/m);
    expect(pretty).not.toMatch(/\u001b\[/);
  });
});
