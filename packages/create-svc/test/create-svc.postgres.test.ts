import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Issue 32: `npm create svc my-app` runs this package's binary in an empty folder. Tested through
 * the real binary (after the build), as npm runs it. No database is opened: the engine adds
 * nothing, so the suite runs in the PostgreSQL pass only (jest.preset.js); in the PGlite pass the
 * package has no suite, which passes and is reported (`passWithNoTests`).
 */
const BIN = path.join(__dirname, '..', 'bin', 'create-svc.js');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'create-svc-'));

function createSvc(args: string[], cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`create-svc ${args.join(' ')} did not finish within 30 s`));
    }, 30000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('create-svc', () => {
  test('makes the folder, runs svc init in it, and prints the next commands with npx @svc/cli', async () => {
    const dir = tmp();
    const { code, stdout, stderr } = await createSvc(['my-app'], dir);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const app = path.join(dir, 'my-app');
    expect(fs.readdirSync(app).sort()).toEqual(['.gitignore', 'dbschema', 'svc.toml']);
    expect(fs.readdirSync(path.join(app, 'dbschema'))).toEqual(['default.esdl']);
    expect(fs.readFileSync(path.join(app, 'dbschema/default.esdl'), 'utf8')).toMatch(
      /module default \{\n {2}type Author \{/,
    );
    expect(fs.readFileSync(path.join(app, 'svc.toml'), 'utf8')).toMatch(
      /^\[server\]\n# .*\n# port = 5656\n/m,
    );
    expect(fs.readFileSync(path.join(app, '.gitignore'), 'utf8')).toBe('.svc/\n');
    expect(stdout).toContain(`Started a svc project in ${app}:\n`);
    expect(stdout).toMatch(
      /\nNext:\n {2}cd my-app\n {2}npx @svc\/cli migration create +# .*\n {2}npx @svc\/cli migrate +# .*\n {2}npx @svc\/cli serve +# .*\n/,
    );
    expect(stdout).toContain(`npx @svc/cli query "insert Author { name := 'Ann' }"`);
    expect(stdout).not.toMatch(/^ {2}svc /m);
  });

  test('a second run refuses the folder, now not empty: exit 1, a clear message, nothing changed', async () => {
    const dir = tmp();
    expect((await createSvc(['my-app'], dir)).code).toBe(0);
    const app = path.join(dir, 'my-app');
    const before = fs.readFileSync(path.join(app, 'svc.toml'), 'utf8');
    fs.writeFileSync(path.join(app, 'notes.txt'), 'mine\n');

    const again = await createSvc(['my-app'], dir);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe(
      'create-svc: my-app is not empty (4 entries): create-svc starts a project only in a new or empty folder; choose another name, or run `npx @svc/cli init` inside my-app to add a project to it\n',
    );
    expect(fs.readdirSync(app).sort()).toEqual(['.gitignore', 'dbschema', 'notes.txt', 'svc.toml']);
    expect(fs.readFileSync(path.join(app, 'svc.toml'), 'utf8')).toBe(before);
  });

  test('an existing empty folder is used; a file of that name is refused', async () => {
    const dir = tmp();
    fs.mkdirSync(path.join(dir, 'empty'));
    const empty = await createSvc(['empty'], dir);
    expect(empty.code).toBe(0);
    expect(fs.readdirSync(path.join(dir, 'empty')).sort()).toEqual([
      '.gitignore',
      'dbschema',
      'svc.toml',
    ]);

    fs.writeFileSync(path.join(dir, 'taken'), '');
    const file = await createSvc(['taken'], dir);
    expect(file.code).toBe(1);
    expect(file.stderr).toBe('create-svc: taken exists and is not a folder: choose another name\n');
  });

  test('--help prints the usage; no folder, two folders or an unknown flag are exit 2 with it', async () => {
    const dir = tmp();
    const help = await createSvc(['--help'], dir);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm create svc <dir>\n/);
    expect(help.stdout).toContain('<dir> must be new or empty.');

    const none = await createSvc([], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^create-svc: name the folder to create, as in: npm create svc my-app\n\nUsage: /,
    );
    expect((await createSvc(['a', 'b'], dir)).stderr).toMatch(
      /^create-svc: one folder only, not 2\n/,
    );
    const flag = await createSvc(['--force', 'x'], dir);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^create-svc: Unknown option '--force'/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
