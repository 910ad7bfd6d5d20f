import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../../main';
import { generateCommand } from '.';

function capture() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      stdout: (t: string) => {
        out.stdout += `${t}\n`;
      },
      stderr: (t: string) => {
        out.stderr += `${t}\n`;
      },
    },
  };
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-gen-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('svc generate interfaces writes dbschema/interfaces.ts from dbschema/', async () => {
  fs.mkdirSync(path.join(dir, 'dbschema'));
  fs.writeFileSync(path.join(dir, 'dbschema', 'default.esdl'), 'type User { required name: str; }');
  const { io, out } = capture();
  expect(await run(['generate', 'interfaces'], { cwd: dir, env: {}, io })).toBe(0);
  const text = fs.readFileSync(path.join(dir, 'dbschema', 'interfaces.ts'), 'utf8');
  expect(text).toContain('export interface User {');
  expect(text).toContain('    name: string;');
  expect(out.stderr).toBe('svc: wrote dbschema/interfaces.ts\n');
});

test('--out - prints it; --schema names the file', async () => {
  fs.writeFileSync(path.join(dir, 's.esdl'), 'type Tag { label: str; }');
  const { io, out } = capture();
  expect(
    await run(['generate', 'interfaces', '--schema', 's.esdl', '--out', '-'], {
      cwd: dir,
      env: {},
      io,
    }),
  ).toBe(0);
  expect(out.stdout).toContain('label: string | null;');
});

test.each([
  [['generate'], 'say what to generate'],
  [['generate', 'schemas'], 'cannot generate "schemas"'],
  [['generate', 'interfaces'], 'no schema'],
])('%j is a usage error naming the problem (exit 2)', async (argv, message) => {
  const { io, out } = capture();
  expect(await run(argv, { cwd: dir, env: {}, io })).toBe(2);
  expect(out.stderr).toContain(message);
});

test('a schema with an error is reported with its file and code frame (exit 1), nothing written', async () => {
  fs.writeFileSync(path.join(dir, 's.esdl'), 'type Tag { label: nope; }');
  const { io, out } = capture();
  const code = await run(['generate', 'interfaces', '--schema', 's.esdl'], {
    cwd: dir,
    env: {},
    io,
  });
  expect(code).toBe(1);
  expect(out.stderr).toMatch(
    /^svc: error: InvalidReferenceError: type 'default::nope' does not exist\n {2}┌─ s\.esdl:1:19\n/,
  );
  expect(fs.existsSync(path.join(dir, 'interfaces.ts'))).toBe(false);
});

test('svc generate queries writes a typed function per .edgeql file', async () => {
  fs.mkdirSync(path.join(dir, 'dbschema'));
  fs.writeFileSync(path.join(dir, 'dbschema', 'default.esdl'), 'type User { required name: str; }');
  fs.mkdirSync(path.join(dir, 'queries'));
  fs.writeFileSync(
    path.join(dir, 'queries', 'get-user.edgeql'),
    'select User { name } filter .name = <str>$name',
  );
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.writeFileSync(path.join(dir, 'node_modules', 'skip.edgeql'), 'select nope');
  const { io, out } = capture();
  expect(await run(['generate', 'queries'], { cwd: dir, env: {}, io })).toBe(0);
  const text = fs.readFileSync(path.join(dir, 'dbschema', 'queries.ts'), 'utf8');
  expect(text).toContain(
    'export function getUser(client: Client, args: { name: string }): Promise<Array<{ name: string }>> {',
  );
  expect(text).not.toContain('skip');
  expect(out.stderr).toBe('svc: wrote dbschema/queries.ts\n');
});

test('a query file that does not compile is named in the error (exit 2)', async () => {
  fs.writeFileSync(path.join(dir, 's.esdl'), 'type User { required name: str; }');
  fs.writeFileSync(path.join(dir, 'bad.edgeql'), 'select User { nope }');
  const { io, out } = capture();
  expect(await run(['generate', 'queries', '--schema', 's.esdl'], { cwd: dir, env: {}, io })).toBe(
    2,
  );
  expect(out.stderr).toMatch(/^svc: bad\.edgeql: .*nope/);
});

test('--watch writes again when the schema changes, and stops when told', async () => {
  fs.mkdirSync(path.join(dir, 'dbschema'));
  const schemaFile = path.join(dir, 'dbschema', 'default.esdl');
  fs.writeFileSync(schemaFile, 'type User { required name: str; }');
  const { io, out } = capture();
  const stop = new AbortController();
  const watching = generateCommand(['query-builder', '--watch'], {
    cwd: dir,
    io,
    signal: stop.signal,
  });
  const output = path.join(dir, 'dbschema', 'query-builder.ts');
  const until = async (check: () => boolean) => {
    for (let waited = 0; !check(); waited += 50) {
      if (waited > 10_000) throw new Error(`timed out; stderr: ${out.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  try {
    await until(() => fs.existsSync(output));
    expect(fs.readFileSync(output, 'utf8')).not.toContain('"default::Post"');
    fs.writeFileSync(schemaFile, 'type User { required name: str; }\ntype Post { title: str; }');
    await until(() => fs.readFileSync(output, 'utf8').includes('"default::Post"'));
    fs.writeFileSync(schemaFile, 'type User { required name: nope; }');
    await until(() => out.stderr.includes('nope'));
    expect(fs.readFileSync(output, 'utf8')).toContain('"default::Post"');
  } finally {
    stop.abort();
  }
  expect(await watching).toBe(0);
  expect(out.stderr.match(/svc: wrote /g)).toHaveLength(2);
}, 20_000);
