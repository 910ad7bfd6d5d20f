import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { seedEmbeddedFolder } from '@svc/test-support';
import { FIRST_START_MS, runSvc } from './svc';

/**
 * Issue 31: a migration file written by one release is applied by the next. Each fixture was
 * written once by `svc migration create` of the release that introduced its format and is frozen
 * (fixtures/.../README.md): this release, and every later one, must apply them as they are, and
 * make the next migration onto them.
 */
const fixture = (format: number) => path.join(__dirname, 'fixtures', `migrations-format-${format}`);

describe.each([1, 2])(`migration files of format %i on ${testDatabaseKind()}`, (format) => {
  const FIXTURE = fixture(format);
  let t: TestDatabase | undefined;
  beforeEach(async () => {
    if (testDatabaseKind() === 'postgres') t = await createTestDatabase();
  });
  afterEach(async () => t?.dispose());

  test('the frozen files apply in order, keeping renamed data and filling the new property', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-compat-'));
    const migrations = path.join(dir, 'dbschema', 'migrations');
    fs.mkdirSync(migrations, { recursive: true });
    const frozen = fs.readdirSync(path.join(FIXTURE, 'dbschema', 'migrations')).sort();
    expect(frozen).toEqual([
      expect.stringMatching(/^00001-[0-9a-f]{12}\.edgeql$/),
      expect.stringMatching(/^00002-[0-9a-f]{12}\.edgeql$/),
    ]);
    const copy = (from: string, to: string) =>
      fs.copyFileSync(path.join(FIXTURE, from), path.join(dir, to));
    copy('dbschema/default.esdl', 'dbschema/default.esdl');
    // On PGlite the embedded folder is made already: what is checked comes after a first start.
    if (!t) seedEmbeddedFolder(path.join(dir, 'data'));
    const db =
      t && 'url' in t.config
        ? ['--database-url', t.config.url]
        : ['--data-dir', path.join(dir, 'data')];
    const run = (args: string[]) => runSvc([...args, ...db], { cwd: dir, ms: FIRST_START_MS });

    // The first file, then data in its schema.
    copy(`dbschema/migrations/${frozen[0]}`, `dbschema/migrations/${frozen[0]}`);
    const first = await run(['migrate']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Applied dbschema/migrations/${frozen[0]} (3 steps)`);
    const inserted = await run([
      'query',
      `insert Post { title := 'Hello', author := (insert User { name := 'Ann', bio := 'hi' }) }`,
    ]);
    expect(inserted.code).toBe(0);
    expect((await run(['query', `insert User { name := 'BOB' }`])).code).toBe(0);

    // The second: a type and a property renamed (their data kept), a required property filled.
    copy(`dbschema/migrations/${frozen[1]}`, `dbschema/migrations/${frozen[1]}`);
    const second = await run(['migrate']);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`Applied dbschema/migrations/${frozen[1]} (6 steps)`);
    expect(second.stdout).toContain('rename type default::Post to default::Article');
    const read = await run([
      'query',
      'select Article { title, author: { name, about, handle } } order by .title',
    ]);
    // (a single link in a shape is a list of one: the spec's convention for /query)
    expect(JSON.parse(read.stdout)).toEqual([
      { title: 'Hello', author: [{ name: 'Ann', about: 'hi', handle: 'ann' }] },
    ]);
    const users = await run(['query', 'select User { name, about, handle } order by .name']);
    expect(JSON.parse(users.stdout)).toEqual([
      { name: 'Ann', about: 'hi', handle: 'ann' },
      { name: 'BOB', about: null, handle: 'bob' },
    ]);

    // Both recorded by id; the schema on disk is the last file's: nothing left to create.
    const status = await run(['migration', 'status']);
    expect(status.stdout).toBe(
      '2 migration files in dbschema/migrations; 2 applied to the database.\n',
    );
    const create = await runSvc(['migration', 'create'], { cwd: dir, ms: FIRST_START_MS });
    expect(create.stdout).toBe(
      `No schema changes since dbschema/migrations/${frozen[1]}: no migration was created.\n`,
    );

    // This release's next migration onto them (format 2, whatever the files before it are).
    fs.appendFileSync(
      path.join(dir, 'dbschema/default.esdl'),
      '\ntype Tag { required name: str; }\n',
    );
    const next = await runSvc(['migration', 'create'], { cwd: dir, ms: FIRST_START_MS });
    expect(next.code).toBe(0);
    const files = fs.readdirSync(migrations).sort();
    expect(files).toHaveLength(3);
    const text = fs.readFileSync(path.join(migrations, files[2] as string), 'utf8');
    expect(text).toContain(
      '    create type default::Tag {\n        create required property name: str;\n    };',
    );
    expect((await run(['migrate'])).stdout).toContain(
      `Applied dbschema/migrations/${files[2]} (1 steps)`,
    );
    expect(JSON.parse((await run(['query', `insert Tag { name := 'x' }`])).stdout)).toHaveLength(1);
  });
});
