/*
 * errors/database-errors through a real schema's vocabulary: every case makes PostgreSQL (or
 * PGlite) raise the error for real, on tables the migrator created, and checks what the user
 * sees: the class, the envelope code and status, the SQLSTATE, and a message in EdgeQL's words
 * with nothing of the SQL, the tables or PostgreSQL's type names.
 */
import { createTestDatabase, type TestDatabase } from '../../testing';
import { fromDatabaseError, renderError, type SvcError } from '../../errors';
import { buildSchema } from '../../schema/build';
import { createDefaultMigrator } from '../../schema/default';
import { schemaVocabulary } from './vocabulary';

const SDL = `
scalar type Positive extending int64 { constraint min_value(0); }
abstract constraint even_length {
  using (len(__subject__) % 2 = 0);
  errmessage := '{__subject__} must have an even length';
}
type User {
  required name: str { constraint exclusive; }
  age: int32 { constraint max_value(150); }
  code: str { constraint even_length; }
  nick: str { constraint max_len_value(5) { errmessage := 'nicknames are short'; } }
  karma: Positive;
}
type Post {
  required title: str;
  author: User;
  multi readers: User { seat: str { constraint exclusive; } }
}
`;

let tdb: TestDatabase;
const schema = buildSchema(SDL);
const vocabulary = schemaVocabulary(schema);

beforeAll(async () => {
  tdb = await createTestDatabase();
  await createDefaultMigrator().migrate(tdb.db, SDL);
});
afterAll(() => tdb.dispose());

/** The error the user sees for what `sql` makes the database raise. */
async function seen(sql: string, params: unknown[] = []): Promise<SvcError> {
  try {
    await tdb.db.query(sql, params);
  } catch (err) {
    return fromDatabaseError(err, vocabulary);
  }
  throw new Error(`expected ${sql} to fail`);
}

function expectNoInternals(err: SvcError): void {
  const text = JSON.stringify(renderError(err).body);
  for (const leak of [
    '"default"',
    'insert into',
    'select',
    'bigint',
    'integer',
    'smallint',
    '.exclusive',
  ])
    expect(text).not.toContain(leak);
}

describe('PostgreSQL errors, mapped through the one SQLSTATE table', () => {
  test('23505 on an exclusive property is ConstraintViolationError with the constraint message', async () => {
    await tdb.db.query(`insert into "default"."User" (name) values ('ann')`);
    const err = await seen(`insert into "default"."User" (name) values ('ann')`);
    expect(err.type).toBe('ConstraintViolationError');
    expect(err.message).toBe('name violates exclusivity constraint');
    expect(renderError(err)).toMatchObject({
      status: 409,
      body: { code: 'CONSTRAINT_VIOLATION', extensions: { sqlState: '23505' } },
    });
    expectNoInternals(err);
  });

  test('23505 on an exclusive link property names the link property', async () => {
    const ids = await tdb.db.query(
      `with u as (insert into "default"."User" (name) values ('reader') returning id),
            p as (insert into "default"."Post" (title) values ('a'), ('b') returning id)
       select u.id as u, p.id as p from u, p`,
    );
    const [a, b] = ids.rows as { u: string; p: string }[];
    const link = `insert into "default"."Post.readers" (source, target, seat) values ($1, $2, 'x')`;
    await tdb.db.query(link, [a?.p, a?.u]);
    const err = await seen(link, [b?.p, b?.u]);
    expect(err.type).toBe('ConstraintViolationError');
    expect(err.message).toBe('seat violates exclusivity constraint');
    expectNoInternals(err);
  });

  test("23505 raised by the statement's own check (no constraint named) keeps the check's message", async () => {
    const err = await seen(
      `select svc_meta.raise(null::text, '23505', 'name violates exclusivity constraint')`,
    );
    expect(err.type).toBe('ConstraintViolationError');
    expect(err.message).toBe('name violates exclusivity constraint');
    expectNoInternals(err);
  });

  test('23514 on a std constraint renders std message with its argument', async () => {
    const err = await seen(`insert into "default"."User" (name, age) values ('old', 200)`);
    expect(err.type).toBe('ConstraintViolationError');
    expect(err.message).toBe('Maximum allowed value for age is 150.');
    expect(err.sqlState).toBe('23514');
  });

  test("a user constraint's errmessage, and a pointer's own errmessage, win", async () => {
    expect(
      (await seen(`insert into "default"."User" (name, code) values ('c', 'abc')`)).message,
    ).toBe('code must have an even length');
    expect(
      (await seen(`insert into "default"."User" (name, nick) values ('n', 'toolong')`)).message,
    ).toBe('nicknames are short');
  });

  test("a custom scalar's constraint names the scalar", async () => {
    const err = await seen(`insert into "default"."User" (name, karma) values ('k', -1)`);
    expect(err.type).toBe('ConstraintViolationError');
    expect(err.message).toBe('Minimum allowed value for Positive is 0.');
  });

  test('23502 is MissingRequiredError naming the property and its type', async () => {
    const err = await seen(`insert into "default"."User" (age) values (3)`);
    expect(err.type).toBe('MissingRequiredError');
    expect(err.message).toBe(
      "missing value for required property 'name' of object type 'default::User'",
    );
    expect(renderError(err).status).toBe(400);
    expect(err.sqlState).toBe('23502');
  });

  test('23503 from either side is ForeignKeyViolationError naming the link', async () => {
    const missing = await seen(
      `insert into "default"."Post" (title, author) values ('t', '00000000-0000-7000-8000-000000000000')`,
    );
    expect(missing.type).toBe('ForeignKeyViolationError');
    expect(missing.message).toBe(
      "link 'author' of object type 'default::Post' refers to an object of type 'default::User' that does not exist",
    );
    const { rows } = await tdb.db.query<{ id: string }>(
      `insert into "default"."User" (name) values ('writer') returning id`,
    );
    await tdb.db.query(`insert into "default"."Post" (title, author) values ('t', $1)`, [
      rows[0]?.id,
    ]);
    const deleting = await seen(`delete from "default"."User" where name = 'writer'`);
    expect(deleting.type).toBe('ForeignKeyViolationError');
    expect(deleting.message).toBe(
      "deletion of an object of type 'default::User' is prohibited: link 'author' of object type 'default::Post' still refers to it",
    );
    expect(deleting.sqlState).toBe('23503');
  });

  test('22P02 is InvalidValueError speaking EdgeQL type names (spec Versioning 10)', async () => {
    const err = await seen(`select $1::text::bigint`, ['abc']);
    expect(err.type).toBe('InvalidValueError');
    expect(err.message).toBe('invalid input syntax for type std::int64: "abc"');
    expect(err.sqlState).toBe('22P02');
    expect((await seen(`select $1::text::uuid`, ['nope'])).message).toBe(
      'invalid input syntax for type std::uuid: "nope"',
    );
    expect((await seen(`select $1::text::timestamptz`, ['soon'])).message).toBe(
      'invalid input syntax for type std::datetime: "soon"',
    );
  });

  test('22003 is NumericOutOfRangeError, 22012 DivisionByZeroError', async () => {
    const range = await seen(`select $1::int4::int2`, [99999]);
    expect(range.type).toBe('NumericOutOfRangeError');
    expect(range.message).toBe('std::int16 out of range');
    const zero = await seen(`select 1 / $1::int4`, [0]);
    expect(zero.type).toBe('DivisionByZeroError');
    expect(renderError(zero).body.extensions?.sqlState).toBe('22012');
  });

  test('21000 is CardinalityViolationError', async () => {
    const err = await seen(`select (select 1 union all select 2)`);
    expect(err.type).toBe('CardinalityViolationError');
    expect(err.sqlState).toBe('21000');
    expectNoInternals(err);
  });

  test('a SQLSTATE raised by a runtime check keeps its class and its own message', async () => {
    const err = await seen(
      `do $$ begin raise exception 'default::User with id ''x'' does not exist' using errcode = '21000'; end $$`,
    );
    expect(err.type).toBe('CardinalityViolationError');
    expect(err.message).toBe("default::User with id 'x' does not exist");
  });

  test.each([
    ['40001', 'TransactionSerializationError'],
    ['40P01', 'TransactionDeadlockError'],
    ['57014', 'QueryTimeoutError'],
    ['22023', 'InvalidValueError'],
    ['23P01', 'ConstraintViolationError'],
  ])('%s maps to %s', async (state, type) => {
    const err = await seen(
      `do $$ begin raise exception 'internal text' using errcode = '${state}'; end $$`,
    );
    expect(err.type).toBe(type);
    expect(err.sqlState).toBe(state);
  });

  test('a connection going away is 503 SERVICE_UNAVAILABLE', async () => {
    const err = await seen(`do $$ begin raise exception 'bye' using errcode = '57P01'; end $$`);
    expect(renderError(err)).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } });
  });

  test('a SQLSTATE the table does not know is INTERNAL_ERROR with no internals', async () => {
    const err = await seen(`select * from "default"."Nowhere"`);
    const rendered = renderError(err);
    expect(rendered.status).toBe(500);
    expect(rendered.body).toEqual({
      code: 'INTERNAL_ERROR',
      error: 'INTERNAL_ERROR: an unexpected error occurred',
    });
    expect(rendered.unexpected).toBe(true);
  });

  test('anything that is not a database error is INTERNAL_ERROR too', () => {
    expect(renderError(fromDatabaseError(new TypeError('x is undefined'))).status).toBe(500);
    expect(renderError(fromDatabaseError('boom')).body.code).toBe('INTERNAL_ERROR');
  });
});
