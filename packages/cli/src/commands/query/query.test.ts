/*
 * `svc query` in-process: variables from flags, a query run on the database directly, output
 * indented on a terminal and compact in a pipe, a failure as one line with exit 1, and a query
 * sent through the `svc serve` that holds the embedded folder. The compiler is a stand-in (query
 * text → the CompiledQuery of @svc/core's query/api, SQL by hand); the real compiler's results
 * are the server's end-to-end tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createDefaultMigrator,
  InvalidReferenceError,
  MAX_JSON_DEPTH,
  openDatabase,
  type CompileOptions,
  type CompileQuery,
  type DatabaseConfig,
} from '@svc/core';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { createServer } from '@svc/server';
import { seedEmbeddedFolder } from '@svc/test-support';
import { asExitError } from '../../failure';
import { ExitError, type CliIo } from '../../io';
import { parseVariables, queryCommand } from './index';

const SDL = 'type Item {\n  required name: str;\n  count: int64;\n}\n';

/** The access mode of every compilation of the stand-in, in order. */
const compiledWith: (CompileOptions['access'] | undefined)[] = [];

const compileQuery: CompileQuery = (_schema, text, options) => {
  compiledWith.push(options?.access);
  if (text === 'select Item { name, count } filter .name = <str>$name or .count = <int64>$count')
    return {
      sql: `select coalesce(json_agg(json_build_object('name', i."name", 'count', i."count") order by i."name"), '[]')::text as result from "default"."Item" i where i."name" = ($1::jsonb #>> '{}') or i."count" = ($2::jsonb)::int8`,
      params: [
        {
          source: 'variable',
          name: 'name',
          type: 'std::str',
          valueType: { kind: 'scalar', name: 'std::str' },
          required: true,
        },
        {
          source: 'variable',
          name: 'count',
          type: 'std::int64',
          valueType: { kind: 'scalar', name: 'std::int64' },
          required: true,
        },
      ],
      cardinality: 'many',
      resultType: 'default::Item',
      writes: false,
    };
  throw new InvalidReferenceError(`object type or alias '${text.split(' ')[1]}' does not exist`, {
    position: { line: 1, column: 8 },
  });
};
const QUERY = 'select Item { name, count } filter .name = <str>$name or .count = <int64>$count';

function capture(isTTY = false): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, isTTY, stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
}

describe('parseVariables', () => {
  test('--var gives strings, --json-var JSON; a leading $ is allowed', () => {
    expect(parseVariables(['name=a=b', '$x='], ['n=3', 'list=[1,"a"]', 'none=null'])).toEqual({
      name: 'a=b',
      x: '',
      n: 3,
      list: [1, 'a'],
      none: null,
    });
  });

  test.each([
    [['name'], [], '--var name: write it as <name>=<value>'],
    [['a=1'], ['a=1'], 'variable $a is given twice'],
    [[], ['a={'], '--json-var a: "{" is not JSON'],
  ])('%j %j exits 2: %s', (strings, jsons, message) => {
    expect(() => parseVariables(strings, jsons)).toThrow(new ExitError(2, message));
  });

  // Issue 26, 7: the server refuses such a variable too, but through the server the CLI's own
  // JSON.stringify of the request overflowed first.
  test('a --json-var nested deeper than MAX_JSON_DEPTH exits 2 naming it', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect(() => parseVariables([], [`a=${deep}`])).toThrow(
      new ExitError(2, `--json-var a: nested deeper than ${MAX_JSON_DEPTH} levels`),
    );
  });
});

describe(`svc query on ${testDatabaseKind()}`, () => {
  let tdb: TestDatabase | undefined;
  let dir: string;
  let database: DatabaseConfig;
  let dbArgs: string[];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-query-'));
    if (testDatabaseKind() === 'postgres') {
      tdb = await createTestDatabase();
      const url = (tdb.config as { url: string }).url;
      database = { url };
      dbArgs = ['--database-url', url];
    } else {
      database = { dataDir: path.join(dir, 'data') };
      dbArgs = ['--data-dir', path.join(dir, 'data')];
      seedEmbeddedFolder(database.dataDir); // its first start is not what this file checks
    }
    const db = await openDatabase(database);
    try {
      await createDefaultMigrator().migrate(db, SDL);
      await db.query(`insert into "default"."Item" (name, count) values ('lamp', 2), ('desk', 7)`);
    } finally {
      await db.close();
    }
  });
  afterAll(async () => {
    await tdb?.dispose();
  });

  const env = {};
  const args = (...more: string[]) => [
    QUERY,
    '--var',
    'name=lamp',
    '--json-var',
    'count=7',
    ...dbArgs,
    ...more,
  ];

  test('runs on the database directly and prints the result on one line in a pipe', async () => {
    const io = capture(false);
    expect(await queryCommand(args(), { cwd: dir, env, io, compileQuery })).toBe(0);
    expect(io.out).toEqual(['[{"name" : "desk", "count" : 7}, {"name" : "lamp", "count" : 2}]']);
  });

  test('runs directly as the operator: access policies off, as the --help says', async () => {
    compiledWith.length = 0;
    expect(await queryCommand(args(), { cwd: dir, env, io: capture(), compileQuery })).toBe(0);
    expect(compiledWith.map((access) => access?.policies)).toEqual([false]);
    const help = capture();
    expect(await queryCommand(['--help'], { cwd: dir, env, io: help })).toBe(0);
    expect(help.out[0]).toContain('as the operator,\n    with access policies off');
  });

  test('indents the JSON on a terminal', async () => {
    const io = capture(true);
    await queryCommand(args(), { cwd: dir, env, io, compileQuery });
    expect(io.out[0]).toBe(
      JSON.stringify(
        [
          { name: 'desk', count: 7 },
          { name: 'lamp', count: 2 },
        ],
        null,
        2,
      ),
    );
  });

  test('on a terminal, a result nested deeper than the indenter goes prints as it came', async () => {
    const deep = `${'['.repeat(4500)}${']'.repeat(4500)}`;
    const io = capture(true);
    const argv = ['select to_json(<str>$text)', '--var', `text=${deep}`, ...dbArgs];
    expect(await queryCommand(argv, { cwd: dir, env, io })).toBe(0);
    expect(io.out).toEqual([`[${deep}]`]);
  });

  test('a failure is one line naming the class and position, exit 1', async () => {
    const io = capture();
    const failure = await queryCommand(['select Nope', ...dbArgs], {
      cwd: dir,
      env,
      io,
      compileQuery,
    }).catch((err: unknown) => err);
    expect(failure).toEqual(
      new ExitError(
        1,
        "InvalidReferenceError (line 1, column 8): object type or alias 'Nope' does not exist",
      ),
    );
    const missing = await queryCommand([QUERY, ...dbArgs], {
      cwd: dir,
      env,
      io,
      compileQuery,
    }).catch((err: unknown) => asExitError(err));
    expect(missing).toEqual(
      new ExitError(1, 'VALIDATION_ERROR: missing variable $name (std::str)'),
    );
  });

  test("without a stand-in, the server's EdgeQL compiler runs the query", async () => {
    const io = capture(false);
    const argv = [
      'select Item { name } filter .count > <int64>$min order by .name',
      '--json-var',
      'min=1',
      ...dbArgs,
    ];
    expect(await queryCommand(argv, { cwd: dir, env, io })).toBe(0);
    expect(JSON.parse(io.out[0] as string)).toEqual([{ name: 'desk' }, { name: 'lamp' }]);
  });

  test('no query, or two arguments, exits 2 with the usage', async () => {
    const io = capture();
    for (const argv of [[...dbArgs], ['select 1', 'extra', ...dbArgs]]) {
      const err = await queryCommand(argv, { cwd: dir, env, io, compileQuery }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ExitError);
      expect((err as ExitError).exitCode).toBe(2);
      expect((err as ExitError).message).toContain("Usage: svc query '<edgeql>'");
    }
  });
});

describe('svc query on an embedded folder held by svc serve', () => {
  test('goes through the server (POST /query)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-query-held-'));
    const database = { dataDir: path.join(dir, 'data') };
    seedEmbeddedFolder(database.dataDir);
    const server = await createServer({
      env: {},
      logLevel: 'silent',
      database,
      schema: SDL,
      compileQuery,
    });
    await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      await server.database.query(`insert into "default"."Item" (name, count) values ('lamp', 2)`);
      const io = capture(false);
      // The folder is held: the command's own compiler is never used.
      const refuse: CompileQuery = () => {
        throw new Error('compiled in the CLI');
      };
      const argv = [
        QUERY,
        '--var',
        'name=lamp',
        '--json-var',
        'count=0',
        '--data-dir',
        database.dataDir,
      ];
      expect(await queryCommand(argv, { cwd: dir, env: {}, io, compileQuery: refuse })).toBe(0);
      expect(JSON.parse(io.out[0] as string)).toEqual([{ name: 'lamp', count: 2 }]);
    } finally {
      await server.close();
    }
  });

  test('as the service credential with the configured key (policies off), else as an anonymous caller', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-query-held-key-'));
    const database = { dataDir: path.join(dir, 'data') };
    seedEmbeddedFolder(database.dataDir);
    const serviceKey = `svc-service-key-${'q'.repeat(32)}`;
    const server = await createServer({
      env: {},
      logLevel: 'silent',
      database,
      schema: SDL,
      serviceKey,
      compileQuery,
    });
    await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const argv = [
        QUERY,
        '--var',
        'name=x',
        '--json-var',
        'count=0',
        '--data-dir',
        database.dataDir,
      ];
      compiledWith.length = 0;
      const run = (env: Record<string, string>) =>
        queryCommand(argv, { cwd: dir, env, io: capture(), compileQuery });
      expect(await run({ SVC_SERVICE_KEY: serviceKey })).toBe(0);
      expect(await run({})).toBe(0);
      expect(compiledWith.map((access) => access?.policies)).toEqual([false, true]);
    } finally {
      await server.close();
    }
  });
});
