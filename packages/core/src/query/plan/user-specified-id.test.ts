import { QueryError } from '../../errors';
import { createDefaultMigrator, buildSchema, type Schema } from '../../schema';
import { createTestDatabase, rolledBack, type TestDatabase } from '../../testing';
import { compileQuery } from '../compile';

/**
 * An insert that gives the new object's id (CompileOptions.allowUserSpecifiedId, Gel's
 * `allow_user_specified_id`): off by default; on, the id is required and must be new among the
 * objects of every type, `unless conflict` skips a taken one, and an update never sets it. Each
 * test's queries run in one transaction, rolled back, on the engine under test.
 */

const SDL = `
module default {
  type Person {
    required name: str { constraint exclusive; }
    best: Person;
  }
  type Employee extending Person;
  type Note {
    required body: str;
  }
}
`;
const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';

let tdb: TestDatabase;
let schema: Schema;
beforeAll(async () => {
  tdb = await createTestDatabase();
  await createDefaultMigrator().migrate(tdb.db, SDL);
  schema = buildSchema(SDL);
}, 60_000);
afterAll(async () => {
  await tdb.dispose();
});

/** Runs the queries in one rolled-back transaction; the first failure is the last result (its
 * SQLSTATE and message). */
function run(queries: readonly string[], values: Record<string, unknown> = {}): Promise<unknown[]> {
  return rolledBack(tdb.db, async (tx) => {
    const results: unknown[] = [];
    for (const query of queries) {
      const compiled = compileQuery(schema, query, { allowUserSpecifiedId: true });
      const params = compiled.params.map((p) =>
        values[p.name] === undefined ? null : JSON.stringify(values[p.name]),
      );
      try {
        const { rows } = await tx.query<{ result: string }>(compiled.sql, params);
        results.push(JSON.parse((rows[0] as { result: string }).result));
      } catch (error) {
        const { code, message } = error as { code?: string; message?: string };
        results.push({ failed: code, message });
        break;
      }
    }
    return results;
  });
}

test('off by default: an insert that gives an id is refused, naming the setting', () => {
  const refused = () => compileQuery(schema, `insert Note { id := <uuid>'${A}', body := 'x' }`);
  expect(refused).toThrow(QueryError);
  expect(refused).toThrow("cannot assign to property 'id'");
  try {
    refused();
  } catch (error) {
    expect((error as QueryError).hint).toContain('allowUserSpecifiedId');
  }
});

test('on: the object is written with the id given, and read back by it', async () => {
  const [inserted, read] = await run(
    [
      'insert Person { id := <uuid>$id, name := <str>$name }',
      'select Person { name } filter .id = <uuid>$id',
    ],
    { id: A, name: 'Ann' },
  );
  expect(inserted).toEqual([{ id: A, name: 'Ann', best: null }]);
  expect(read).toEqual([{ name: 'Ann' }]);
});

test.each([
  ['the same type', `insert Person { id := <uuid>'${A}', name := 'Bob' }`],
  ['a subtype', `insert Employee { id := <uuid>'${A}', name := 'Bob' }`],
  ['an unrelated type', `insert Note { id := <uuid>'${A}', body := 'x' }`],
])('an id taken by an object of %s is a ConstraintViolationError', async (_, insert) => {
  const results = await run([`insert Person { id := <uuid>'${A}', name := 'Ann' }`, insert]);
  expect(results[1]).toEqual({ failed: '23505', message: 'id violates exclusivity constraint' });
});

test('two inserts of one statement may not give two types one id', async () => {
  const [both] = await run([
    `select { (insert Person { id := <uuid>'${A}', name := 'Ann' }).id, (insert Note { id := <uuid>'${A}', body := 'x' }).id }`,
  ]);
  expect(both).toEqual({ failed: '23505', message: 'id violates exclusivity constraint' });
});

test('unless conflict (bare or on .id) skips an id any type holds', async () => {
  const [, bare, onId, count] = await run([
    `insert Person { id := <uuid>'${A}', name := 'Ann' }`,
    `insert Note { id := <uuid>'${A}', body := 'x' } unless conflict`,
    `insert Note { id := <uuid>'${A}', body := 'x' } unless conflict on .id`,
    'select count(Note)',
  ]);
  expect(bare).toEqual([]);
  expect(onId).toEqual([]);
  expect(count).toEqual([0]);
});

test('unless conflict on another pointer still refuses a taken id', async () => {
  const [, taken] = await run([
    `insert Note { id := <uuid>'${A}', body := 'x' }`,
    `insert Person { id := <uuid>'${A}', name := 'Ann' } unless conflict on .name`,
  ]);
  expect(taken).toEqual({ failed: '23505', message: 'id violates exclusivity constraint' });
});

test('unless conflict on .name else: the existing object, whatever id was given', async () => {
  const [, answer] = await run([
    `insert Person { id := <uuid>'${A}', name := 'Ann' }`,
    `select (insert Person { id := <uuid>'${B}', name := 'Ann' } unless conflict on .name else (select Person)) { id }`,
  ]);
  expect(answer).toEqual([{ id: A }]);
});

test('an empty id is a MissingRequiredError', async () => {
  const [missing] = await run(['insert Note { id := <optional uuid>$id, body := <str>$body }'], {
    body: 'x',
  });
  expect(missing).toEqual({
    failed: '23502',
    message: "missing value for required property 'default::Note.id'",
  });
});

test('nested inserts give their ids; a link reads the object by it', async () => {
  const [inserted] = await run([
    `select (insert Person { id := <uuid>'${A}', name := 'Ann', best := (insert Person { id := <uuid>'${B}', name := 'Bob' }) }) { id, best: { id, name } }`,
  ]);
  expect(inserted).toEqual([{ id: A, best: [{ id: B, name: 'Bob' }] }]);
});

test('an update never sets an id', () => {
  expect(() =>
    compileQuery(schema, `update Person set { id := <uuid>'${A}' }`, {
      allowUserSpecifiedId: true,
    }),
  ).toThrow("cannot assign to property 'id'");
});
