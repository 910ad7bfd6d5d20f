/*
 * The engine's own logic, on a real database: the compile cache, binding by name, the
 * cardinality and read-only refusals, NoDataError, schema changes, and error mapping on the way
 * out. The compiler is a stand-in here: a table from query text to the CompiledQuery the real
 * compiler's contract (query/api) describes, with SQL written by hand against the tables the
 * migrator made. End-to-end tests through the real compiler live in test/query-endpoint (server).
 */
import { countingQueries } from '@svc/test-support';
import { openDatabase } from '../../db/open';
import type { Queryable } from '../../db/types';
import { createTestDatabase, type TestDatabase } from '../../testing';
import { InvalidReferenceError, renderError, SvcError } from '../../errors';
import { buildSchema } from '../../schema/build';
import { createDefaultMigrator } from '../../schema/default';
import type { Schema } from '../../model/schema';
import type { AccessMode, CompileOptions, CompiledQuery } from '../api';
import {
  ANONYMOUS_AUTH,
  createQueryEngine,
  storedSchemaSource,
  type Probe,
  type QueryCaller,
  type QueryEngine,
} from './index';

const SDL_V1 = `
global tenant: str;
global shown := 'computed';
type User {
  required name: str { constraint exclusive; }
  age: int32;
}
`;
const SDL_V2 = `
global tenant: str;
global shown := 'computed';
type User {
  required name: str { constraint exclusive; }
  years: int32;
}
`;

const SERVICE: AccessMode = { policies: false, readOnly: false };
const service: QueryCaller = { access: SERVICE, auth: ANONYMOUS_AUTH };
const readOnly: QueryCaller = { access: { policies: false, readOnly: true }, auth: ANONYMOUS_AUTH };

const USERS = `select coalesce(json_agg(json_build_object('name', u."name") order by u."name"), '[]')::text as result from "default"."User" u`;

/** Hand-written compilations, by query text; `age` moves to `years` in V2. */
function compiled(schema: Schema, text: string): Omit<CompiledQuery, 'resultType'> {
  const v2 = schema.objectTypes.some((t) => t.pointers.some((p) => p.name === 'years'));
  const ageColumn = v2 ? 'years' : 'age';
  switch (text) {
    case 'select User { name }':
      return { sql: USERS, params: [], cardinality: 'many', writes: false };
    case 'select User { name, age }':
      return {
        sql: `select coalesce(json_agg(json_build_object('name', u."name", 'age', u."${ageColumn}") order by u."name"), '[]')::text as result from "default"."User" u`,
        params: [],
        cardinality: 'many',
        writes: false,
      };
    case 'select User { name, years }':
      if (!v2)
        throw new InvalidReferenceError("object type 'default::User' has no property 'years'");
      return {
        sql: `select coalesce(json_agg(json_build_object('name', u."name", 'years', u."years")), '[]')::text as result from "default"."User" u`,
        params: [],
        cardinality: 'many',
        writes: false,
      };
    case 'select User { name } filter .name = <str>$name':
      return {
        sql: `select coalesce(json_agg(json_build_object('name', u."name")), '[]')::text as result from "default"."User" u where u."name" = ($1::jsonb #>> '{}')`,
        params: [
          {
            source: 'variable',
            name: 'name',
            type: 'std::str',
            valueType: { kind: 'scalar', name: 'std::str' },
            required: true,
          },
        ],
        cardinality: 'atMostOne',
        writes: false,
      };
    case 'insert User { name := <str>$name, age := <optional int32>$age }':
      return {
        sql: `with i as (insert into "default"."User" ("name", "${ageColumn}") values ($1::jsonb #>> '{}', ($2::jsonb)::int4) returning *) select coalesce(json_agg(json_build_object('name', i."name", 'age', i."${ageColumn}")), '[]')::text as result from i`,
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
            name: 'age',
            type: 'std::int32',
            valueType: { kind: 'scalar', name: 'std::int32' },
            required: false,
          },
        ],
        cardinality: 'one',
        writes: true,
      };
    case 'for n in array_unpack(<array<str>>$names) union (insert User { name := n })':
      return {
        sql: `with i as (insert into "default"."User" ("name") select jsonb_array_elements_text($1::jsonb) returning *) select coalesce(json_agg(json_build_object('name', i."name")), '[]')::text as result from i`,
        params: [
          {
            source: 'variable',
            name: 'names',
            type: 'array<std::str>',
            valueType: { kind: 'array', element: { kind: 'scalar', name: 'std::str' } },
            required: true,
          },
        ],
        cardinality: 'many',
        writes: true,
      };
    case 'select (global tenant, global current_user_id)':
      return {
        sql: `select json_build_array(json_build_array($1::jsonb #>> '{}', $2::jsonb #>> '{}'))::text as result`,
        params: [
          {
            source: 'global',
            name: 'default::tenant',
            type: 'std::str',
            valueType: { kind: 'scalar', name: 'std::str' },
            required: false,
          },
          {
            source: 'auth',
            name: 'current_user_id',
            type: 'std::uuid',
            valueType: { kind: 'scalar', name: 'std::uuid' },
            required: false,
          },
        ],
        cardinality: 'one',
        writes: false,
      };
    case 'select 1 / <int64>$d':
      return {
        sql: `select json_build_array(1 / ($1::jsonb)::int8)::text as result`,
        params: [
          {
            source: 'variable',
            name: 'd',
            type: 'std::int64',
            valueType: { kind: 'scalar', name: 'std::int64' },
            required: true,
          },
        ],
        cardinality: 'one',
        writes: false,
      };
    default:
      throw new InvalidReferenceError(`unknown query ${text}`, {
        position: { line: 1, column: 1 },
      });
  }
}

let tdb: TestDatabase;
const migrator = createDefaultMigrator();
const compiles: { text: string; options: CompileOptions | undefined }[] = [];
const cacheEvents: boolean[] = [];
let cancelledRuns = 0;

function makeEngine(schemaRecheckMs = 60_000): QueryEngine {
  return createQueryEngine({
    db: tdb.db,
    compile: (schema, text, options) => {
      compiles.push({ text, options });
      return { ...compiled(schema, text), resultType: 'unknown' };
    },
    schema: storedSchemaSource(tdb.db, migrator, buildSchema),
    cacheSize: 4,
    schemaRecheckMs,
    onCompileCache: (hit) => cacheEvents.push(hit),
    onStatementCancelled: () => {
      cancelledRuns++;
    },
  });
}

let engine: QueryEngine;

beforeAll(async () => {
  tdb = await createTestDatabase();
  await migrator.migrate(tdb.db, SDL_V1);
  engine = makeEngine();
});
afterAll(() => tdb.dispose());
beforeEach(async () => {
  await tdb.db.query('delete from "default"."User"');
  compiles.length = 0;
  cacheEvents.length = 0;
});

async function failure(promise: Promise<unknown>): Promise<SvcError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof SvcError) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

async function count(): Promise<number> {
  const { rows } = await tdb.db.query<{ n: number }>(
    'select count(*)::int as n from "default"."User"',
  );
  return rows[0]?.n ?? -1;
}

describe('running a query', () => {
  test('answers the JSON text PostgreSQL built, and variables bind by name', async () => {
    const inserted = await engine.run(
      {
        query: 'insert User { name := <str>$name, age := <optional int32>$age }',
        variables: { age: 36, name: 'Ann' },
      },
      service,
    );
    expect(inserted).toBe('[{"name" : "Ann", "age" : 36}]');
    expect(await engine.run({ query: 'select User { name }' }, service)).toBe('[{"name" : "Ann"}]');
  });

  test('an optional variable left out is null', async () => {
    const out = await engine.run(
      {
        query: 'insert User { name := <str>$name, age := <optional int32>$age }',
        variables: { name: 'Bo' },
      },
      service,
    );
    expect(JSON.parse(out)).toEqual([{ name: 'Bo', age: null }]);
  });

  test('arrays travel as JSON', async () => {
    const out = await engine.run(
      {
        query: 'for n in array_unpack(<array<str>>$names) union (insert User { name := n })',
        variables: { names: ['a', 'b'] },
      },
      service,
    );
    expect(JSON.parse(out)).toEqual([{ name: 'a' }, { name: 'b' }]);
  });
});

describe('the compile cache', () => {
  test('compiles once per (text, cardinality, policies on or off, default access), counting hits and misses', async () => {
    const before = engine.cacheStats();
    await engine.run({ query: 'select User { name }' }, service);
    await engine.run({ query: 'select User { name }' }, service);
    await engine.run({ query: 'select User { name }', cardinality: 'many' }, service);
    // Read-only mode is enforced by the engine: the same compiled query serves it.
    await engine.run({ query: 'select User { name }' }, readOnly);
    expect(compiles.map((c) => c.text)).toEqual([]);
    expect(cacheEvents).toEqual([true, true, true, true]); // compiled by an earlier test
    await engine.run(
      { query: 'select User { name }' },
      { access: { policies: true, readOnly: true }, auth: ANONYMOUS_AUTH },
    );
    await engine
      .run({ query: 'select User { name }', cardinality: 'atMostOne' }, service)
      .catch(() => {});
    await engine.run(
      { query: 'select User { name }' },
      { access: { policies: true, readOnly: false, defaultAccess: 'deny' }, auth: ANONYMOUS_AUTH },
    );
    expect(compiles).toEqual([
      {
        text: 'select User { name }',
        options: { cardinality: 'many', access: { policies: true, defaultAccess: 'open' } },
      },
      {
        text: 'select User { name }',
        options: { cardinality: 'atMostOne', access: { policies: false, defaultAccess: 'open' } },
      },
      {
        text: 'select User { name }',
        options: { cardinality: 'many', access: { policies: true, defaultAccess: 'deny' } },
      },
    ]);
    const after = engine.cacheStats();
    expect(after.hits - before.hits).toBe(4);
    expect(after.misses - before.misses).toBe(3);
  });

  test('is bounded: the least recently used entry goes first', async () => {
    const small = makeEngine();
    const texts = [
      'select User { name }',
      'select User { name, age }',
      'select 1 / <int64>$d',
      'select (global tenant, global current_user_id)',
    ];
    for (const query of texts) await small.prepare({ query }, service);
    await small.prepare({ query: texts[0] as string }, service); // now the most recent
    await small.prepare({ query: 'select User { name } filter .name = <str>$name' }, service);
    expect(small.cacheStats().size).toBe(4);
    compiles.length = 0;
    await small.prepare({ query: texts[0] as string }, service);
    await small.prepare({ query: texts[1] as string }, service);
    expect(compiles.map((c) => c.text)).toEqual([texts[1]]);
  });

  test('a compile error is not cached and keeps its class and position', async () => {
    const err = await failure(engine.run({ query: 'select Nope' }, service));
    expect(renderError(err).body).toMatchObject({
      code: 'QUERY_ERROR',
      type: 'InvalidReferenceError',
      extensions: { position: { line: 1, column: 1 } },
    });
    await failure(engine.run({ query: 'select Nope' }, service));
    expect(compiles.filter((c) => c.text === 'select Nope')).toHaveLength(2);
  });
});

describe('variables (spec Versioning 34)', () => {
  const insert = 'insert User { name := <str>$name, age := <optional int32>$age }';

  test('a missing required variable is 400 VALIDATION_ERROR naming it, and nothing runs', async () => {
    const err = await failure(engine.run({ query: insert, variables: { age: 3 } }, service));
    expect(renderError(err)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(err.message).toBe('missing variable $name (std::str)');
    expect(await count()).toBe(0);
  });

  test('an unknown extra variable is 400 VALIDATION_ERROR naming it', async () => {
    const err = await failure(
      engine.run({ query: insert, variables: { name: 'x', nmae: 'y' } }, service),
    );
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.message).toContain('$nmae');
    expect(await count()).toBe(0);
  });

  test('null for a required variable is refused; a wrong JSON kind is QueryArgumentError', async () => {
    expect(
      (await failure(engine.run({ query: insert, variables: { name: null } }, service))).code,
    ).toBe('VALIDATION_ERROR');
    const kind = await failure(engine.run({ query: insert, variables: { name: 7 } }, service));
    expect(kind.type).toBe('QueryArgumentError');
    expect(kind.message).toBe('variable $name expects std::str: got the integer 7, not a string');
    const fraction = await failure(
      engine.run({ query: insert, variables: { name: 'x', age: 1.5 } }, service),
    );
    expect(fraction.message).toBe(
      'variable $age expects std::int32: got the number 1.5, not an integer',
    );
    const range = await failure(
      engine.run({ query: insert, variables: { name: 'x', age: 2 ** 40 } }, service),
    );
    expect(range.type).toBe('QueryArgumentError');
    const element = await failure(
      engine.run(
        {
          query: 'for n in array_unpack(<array<str>>$names) union (insert User { name := n })',
          variables: { names: ['a', 1] },
        },
        service,
      ),
    );
    expect(element.message).toBe(
      'variable $names expects array<std::str>: element 1: got the integer 1, not a string',
    );
    expect(await count()).toBe(0);
  });
});

describe('globals (DECISIONS.md Access)', () => {
  const query = 'select (global tenant, global current_user_id)';

  test('declared globals come from the body, the caller from its credentials', async () => {
    const user: QueryCaller = {
      access: SERVICE,
      auth: { userId: '018f0000-0000-7000-8000-000000000001', roles: ['member'] },
    };
    expect(JSON.parse(await engine.run({ query, globals: { tenant: 'acme' } }, user))).toEqual([
      ['acme', '018f0000-0000-7000-8000-000000000001'],
    ]);
    expect(
      JSON.parse(await engine.run({ query, globals: { 'default::tenant': 'b' } }, service)),
    ).toEqual([['b', null]]);
  });

  test("the body cannot set the caller's globals, undeclared or computed ones", async () => {
    for (const globals of [
      { current_user_id: '018f0000-0000-7000-8000-000000000001' },
      { 'default::current_role': 'admin' },
      { nope: 1 },
      { shown: 'x' },
    ]) {
      const err = await failure(engine.run({ query, globals }, service));
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(err.message).toContain(Object.keys(globals)[0]);
    }
    const kind = await failure(engine.run({ query, globals: { tenant: 5 } }, service));
    expect(kind.type).toBe('QueryArgumentError');
  });
});

describe('requested cardinality (spec Versioning 2, 11)', () => {
  test('atMostOne and one refuse a possibly-many query before running it', async () => {
    for (const cardinality of ['atMostOne', 'one'] as const) {
      const err = await failure(
        engine.run(
          {
            query: 'for n in array_unpack(<array<str>>$names) union (insert User { name := n })',
            variables: { names: ['only'] },
            cardinality,
          },
          service,
        ),
      );
      expect(err.type).toBe('ResultCardinalityMismatchError');
      expect(renderError(err).status).toBe(400);
    }
    expect(await count()).toBe(0);
  });

  test('one on an empty result is NoDataError; atMostOne answers []', async () => {
    const query = 'select User { name } filter .name = <str>$name';
    expect(
      await engine.run({ query, variables: { name: 'x' }, cardinality: 'atMostOne' }, service),
    ).toBe('[]');
    const err = await failure(
      engine.run({ query, variables: { name: 'x' }, cardinality: 'one' }, service),
    );
    expect(err.type).toBe('NoDataError');
    expect(err.code).toBe('QUERY_ERROR');
    await tdb.db.query(`insert into "default"."User" (name) values ('x')`);
    expect(
      JSON.parse(
        await engine.run({ query, variables: { name: 'x' }, cardinality: 'one' }, service),
      ),
    ).toEqual([{ name: 'x' }]);
  });
});

describe('read-only mode', () => {
  test('a compiled write is 503 READ_ONLY and writes nothing; reads run', async () => {
    const err = await failure(
      engine.run(
        {
          query: 'insert User { name := <str>$name, age := <optional int32>$age }',
          variables: { name: 'r' },
        },
        readOnly,
      ),
    );
    expect(renderError(err)).toMatchObject({ status: 503, body: { code: 'READ_ONLY' } });
    expect(await count()).toBe(0);
    expect(await engine.run({ query: 'select User { name }' }, readOnly)).toBe('[]');
  });
});

describe('database errors leave mapped', () => {
  test('an exclusive violation is 409 with the constraint message', async () => {
    const insert = 'insert User { name := <str>$name, age := <optional int32>$age }';
    await engine.run({ query: insert, variables: { name: 'dup' } }, service);
    const err = await failure(engine.run({ query: insert, variables: { name: 'dup' } }, service));
    expect(renderError(err)).toMatchObject({
      status: 409,
      body: {
        code: 'CONSTRAINT_VIOLATION',
        error: 'CONSTRAINT_VIOLATION: name violates exclusivity constraint',
        type: 'ConstraintViolationError',
        extensions: { sqlState: '23505' },
      },
    });
  });

  test('division by zero is DivisionByZeroError', async () => {
    const err = await failure(
      engine.run({ query: 'select 1 / <int64>$d', variables: { d: 0 } }, service),
    );
    expect(err.type).toBe('DivisionByZeroError');
  });
});

describe('cancellation (issue 26)', () => {
  // The server gives each run its request's abort signal (requestTimeout): a run whose signal
  // aborted before its statement started must not run it, and the metrics must hear of it.
  test('a run whose signal has aborted is QueryTimeoutError (57014), writes nothing, and is counted', async () => {
    const before = cancelledRuns;
    const err = await failure(
      engine.run(
        {
          query: 'insert User { name := <str>$name, age := <optional int32>$age }',
          variables: { name: 'late' },
        },
        service,
        { signal: AbortSignal.abort() },
      ),
    );
    expect(err.type).toBe('QueryTimeoutError');
    expect(renderError(err).body.extensions).toEqual({ sqlState: '57014' });
    expect(await count()).toBe(0);
    expect(cancelledRuns).toBe(before + 1);
  });

  test('a signal that does not abort changes nothing, and nothing is counted', async () => {
    const before = cancelledRuns;
    const { signal } = new AbortController();
    expect(await engine.run({ query: 'select User { name }' }, service, { signal })).toBe('[]');
    expect(cancelledRuns).toBe(before);
  });
});

describe('a read replica (RunOptions.replica)', () => {
  /** A replica that answers with its own text, or fails as told; it records what it ran. */
  function fakeReplica(fail?: unknown) {
    const ran: { sql: string; params: readonly unknown[] }[] = [];
    const replica: Queryable = {
      async query<Row>(sql: string, params: readonly unknown[] = []) {
        ran.push({ sql, params });
        if (fail !== undefined) throw fail;
        return { rows: [{ result: '["from the replica"]' }] as Row[], rowCount: 1 };
      },
      kysely: () => tdb.db.kysely(),
    };
    return { replica, ran };
  }
  function routed(fail?: unknown) {
    const { replica, ran } = fakeReplica(fail);
    const served: [string, boolean][] = [];
    const replicaErrors: unknown[] = [];
    const options = {
      replica,
      onServed: (by: 'primary' | 'replica', writes: boolean) => served.push([by, writes]),
      onReplicaError: (err: unknown) => replicaErrors.push(err),
    };
    return { options, ran, served, replicaErrors };
  }

  test('a read-only statement runs there, with the same SQL and values', async () => {
    const r = routed();
    const text = await engine.run(
      { query: 'select User { name } filter .name = <str>$name', variables: { name: 'x' } },
      service,
      r.options,
    );
    expect(text).toBe('["from the replica"]');
    expect(r.ran).toHaveLength(1);
    expect(r.ran[0]?.params).toEqual(['"x"']);
    expect(r.served).toEqual([['replica', false]]);
  });

  test('a write runs on the primary', async () => {
    const r = routed();
    await engine.run(
      {
        query: 'insert User { name := <str>$name, age := <optional int32>$age }',
        variables: { name: 'replica-w' },
      },
      service,
      r.options,
    );
    expect(r.ran).toEqual([]);
    expect(r.served).toEqual([['primary', true]]);
    expect(await count()).toBeGreaterThan(0);
  });

  test("a replica that fails for reasons not the query's: run again on the primary, and told", async () => {
    const lost = new Error('Connection terminated unexpectedly');
    for (const fail of [lost, Object.assign(new Error('shutdown'), { code: '57P01' })]) {
      const r = routed(fail);
      expect(await engine.run({ query: 'select User { name }' }, service, r.options)).not.toBe(
        '["from the replica"]',
      );
      expect(r.ran).toHaveLength(1);
      expect(r.replicaErrors).toEqual([fail]);
      expect(r.served).toEqual([['primary', false]]);
    }
  });

  test('a write the replica refuses (25006) runs on the primary, the replica not blamed', async () => {
    const r = routed(Object.assign(new Error('read-only transaction'), { code: '25006' }));
    await engine.run({ query: 'select User { name }' }, service, r.options);
    expect(r.replicaErrors).toEqual([]);
    expect(r.served).toEqual([['primary', false]]);
  });

  test("the query's own error is not run again", async () => {
    const r = routed(Object.assign(new Error('division by zero'), { code: '22012' }));
    const err = await failure(
      engine.run({ query: 'select 1 / <int64>$d', variables: { d: 0 } }, service, r.options),
    );
    expect(err.type).toBe('DivisionByZeroError');
    expect(r.served).toEqual([]);
    expect(r.replicaErrors).toEqual([]);
  });

  test('inside a transaction the replica is ignored', async () => {
    const r = routed();
    await tdb.db.transaction(async (queryable) => {
      await engine.run({ query: 'select User { name }' }, service, { ...r.options, queryable });
    });
    expect(r.ran).toEqual([]);
    expect(r.served).toEqual([['primary', false]]);
  });
});

describe('a probe (RunOptions.probe)', () => {
  /**
   * A probe over a table of its own: `live` when the key's row says so, `settle` refusing a
   * missing or dead row as auth's session check does. It records what it was given.
   */
  function probeOf(key: string) {
    const settled: (string | null)[] = [];
    let confirmed = 0;
    const refused = new SvcError('SESSION_EXPIRED', 401, 'the session has ended');
    const select = (param: string) =>
      `select json_build_array(p.key, p.live)::text as text, p.live from probe_rows p where p.key = ${param}`;
    const probe: Probe = {
      select,
      value: key,
      async settle(text) {
        settled.push(text);
        if (text === null || !(JSON.parse(text) as [string, boolean])[1]) throw refused;
      },
      async confirm() {
        confirmed++;
        const { rows } = await tdb.db.query<{ text: string }>(select('$1'), [key]);
        await probe.settle(rows[0]?.text ?? null);
      },
    };
    return { probe, settled, confirmed: () => confirmed, refused };
  }
  /** The statements the engine's database is sent, by a wrapper around it. */
  function counting() {
    const { db, sent } = countingQueries(tdb.db);
    const counted = createQueryEngine({
      db,
      compile: (schema, text) => ({ ...compiled(schema, text), resultType: 'unknown' }),
      schema: { read: async () => ({ version: 'v1', sdl: SDL_V1 }), build: buildSchema },
    });
    return { engine: counted, sent };
  }
  beforeAll(async () => {
    await tdb.db.query('create table probe_rows (key text primary key, live boolean not null)');
    await tdb.db.query(`insert into probe_rows values ('live', true), ('dead', false)`);
  });
  afterAll(() => tdb.db.query('drop table probe_rows'));

  test('a read carries it in its own statement: one round trip, settled before the answer', async () => {
    await tdb.db.query(`insert into "default"."User" (name) values ('ann')`);
    const { engine: counted, sent } = counting();
    const p = probeOf('live');
    const text = await counted.run({ query: 'select User { name }' }, service, { probe: p.probe });
    expect(JSON.parse(text)).toEqual([{ name: 'ann' }]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('probe_rows');
    expect(p.settled).toEqual(['["live", true]']);
    expect(p.confirmed()).toBe(0);
    // The same query again: the carried statement is reused (one text, so one prepared name).
    await counted.run({ query: 'select User { name }' }, service, { probe: p.probe });
    expect(sent[1]).toBe(sent[0]);
  });

  test('a dead or missing row refuses the request, and the query is not run', async () => {
    for (const key of ['dead', 'missing']) {
      const p = probeOf(key);
      // Run, this query would fail (division by zero): the probe's refusal is all that is seen.
      await expect(
        engine.run({ query: 'select 1 / <int64>$d', variables: { d: 0 } }, service, {
          probe: p.probe,
        }),
      ).rejects.toBe(p.refused);
      expect(p.settled).toEqual([key === 'dead' ? '["dead", false]' : null]);
    }
  });

  test("a live probe lets the query's own error through", async () => {
    const p = probeOf('live');
    const err = await failure(
      engine.run({ query: 'select 1 / <int64>$d', variables: { d: 0 } }, service, {
        probe: p.probe,
      }),
    );
    expect(err.type).toBe('DivisionByZeroError');
  });

  test('the probe refusing wins over the query refusing: variables are checked first, nothing runs', async () => {
    const p = probeOf('dead');
    const err = await failure(
      engine.run({ query: 'select User { name } filter .name = <str>$name' }, service, {
        probe: p.probe,
      }),
    );
    // A request the engine refuses before running anything never reaches the probe: the
    // caller (the server) confirms the probe itself before it answers with any error.
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(p.settled).toEqual([]);
  });

  test('a write confirms the probe alone first: refused, nothing is written', async () => {
    const write = {
      query: 'insert User { name := <str>$name, age := <optional int32>$age }',
      variables: { name: 'w' },
    };
    const dead = probeOf('dead');
    await expect(engine.run(write, service, { probe: dead.probe })).rejects.toBe(dead.refused);
    expect(dead.confirmed()).toBe(1);
    expect(await count()).toBe(0);
    const live = probeOf('live');
    await engine.run(write, service, { probe: live.probe });
    expect(live.confirmed()).toBe(1);
    expect(await count()).toBe(1);
  });

  test('with a replica the probe is confirmed alone, on the primary; not taken in a transaction', async () => {
    const p = probeOf('live');
    const replica: Queryable = {
      query: async <Row>() => ({ rows: [{ result: '[]' }] as Row[], rowCount: 1 }),
      kysely: () => tdb.db.kysely(),
    };
    await engine.run({ query: 'select User { name }' }, service, { probe: p.probe, replica });
    expect(p.confirmed()).toBe(1);
    // A transaction may hold the only connection (PGlite): its caller confirms before opening it.
    await tdb.db.transaction(async (queryable) => {
      const err = await failure(
        engine.run({ query: 'select User { name }' }, service, { probe: p.probe, queryable }),
      );
      expect(err.code).toBe('INTERNAL_ERROR');
      expect(err.cause).toBeInstanceOf(TypeError);
    });
  });

  test('a settle that accepts what the SQL called dead is an internal error, never an answer', async () => {
    const p = probeOf('dead');
    const lenient: Probe = { ...p.probe, settle: async () => undefined };
    const err = await failure(
      engine.run({ query: 'select User { name }' }, service, { probe: lenient }),
    );
    expect(err.code).toBe('INTERNAL_ERROR');
    expect(String(err.cause)).toMatch(/probe refused the query/);
  });
});

describe('prepared statements', () => {
  test('a connection that lost its prepared statements (a transaction-mode pooler) still answers', async () => {
    // One connection, so `deallocate all` reaches the one the engine prepared its statement on.
    const single =
      'url' in tdb.config ? await openDatabase({ url: tdb.config.url, poolSize: 1 }) : tdb.db;
    try {
      const lone = createQueryEngine({
        db: single,
        compile: (schema, text) => ({ ...compiled(schema, text), resultType: 'unknown' }),
        schema: storedSchemaSource(single, migrator, buildSchema),
      });
      expect(await lone.run({ query: 'select User { name }' }, service)).toBe('[]');
      await single.query('deallocate all');
      expect(await lone.run({ query: 'select User { name }' }, service)).toBe('[]');
      expect(await lone.run({ query: 'select User { name }' }, service)).toBe('[]');
    } finally {
      if (single !== tdb.db) await single.close();
    }
  });
});

describe('schema changes', () => {
  afterAll(async () => {
    await migrator.migrate(tdb.db, SDL_V1, { allowDataLoss: true });
  });

  test('a migration elsewhere is seen at once when the cached SQL no longer fits the tables', async () => {
    const other = makeEngine(60_000); // would not re-read the version for a minute
    await other.run({ query: 'select User { name, age }' }, service);
    await migrator.migrate(tdb.db, SDL_V2, { allowDataLoss: true }); // "another process"
    compiles.length = 0;
    await tdb.db.query(`insert into "default"."User" (name, years) values ('z', 9)`);
    expect(JSON.parse(await other.run({ query: 'select User { name, age }' }, service))).toEqual([
      { name: 'z', age: 9 },
    ]);
    expect(compiles.map((c) => c.text)).toEqual(['select User { name, age }']);
  });

  test('a name only a migration elsewhere made is known at once', async () => {
    const other = makeEngine(60_000);
    await migrator.migrate(tdb.db, SDL_V1, { allowDataLoss: true });
    const before = await failure(other.run({ query: 'select User { name, years }' }, service));
    expect(before.type).toBe('InvalidReferenceError');
    await migrator.migrate(tdb.db, SDL_V2, { allowDataLoss: true }); // "another process"
    expect(await other.run({ query: 'select User { name, years }' }, service)).toBe('[]');
  });

  test('schemaChanged() makes the next query read the stored schema and empty the cache', async () => {
    const local = makeEngine(60_000);
    await local.run({ query: 'select User { name }' }, service);
    await migrator.migrate(tdb.db, SDL_V1, { allowDataLoss: true });
    local.schemaChanged();
    compiles.length = 0;
    await local.run({ query: 'select User { name }' }, service);
    expect(compiles.map((c) => c.text)).toEqual(['select User { name }']);
  });

  test('without a hint, the stored version is read again after schemaRecheckMs', async () => {
    const quick = makeEngine(0);
    await quick.run({ query: 'select User { name }' }, service);
    await migrator.migrate(tdb.db, SDL_V2, { allowDataLoss: true });
    compiles.length = 0;
    await quick.run({ query: 'select User { name }' }, service);
    expect(compiles.map((c) => c.text)).toEqual(['select User { name }']);
  });
});
