import fc from 'fast-check';
import { QueryError } from '../../errors';
import { buildSchema } from '../../schema';
import { compileQuery } from '../compile';
import { ELVIS, openIssuesDb, type IssuesDb } from '../__tests__/issues-db';
import { ISSUES_SDL } from '../__tests__/issues-sdl';

/**
 * Mutations never crash the compiler: random insert / update / delete statements over the issues
 * fixture (right and wrong pointer names, values of every kind, nesting, `for`, `unless conflict`,
 * `with`) either compile or fail with a QueryError of their own — never the catch-all "could not
 * be compiled" an internal error becomes (which would be a compiler bug); and what compiles runs on
 * the engine under test (rolled back) without any error but the data's own refusals.
 */

const schema = buildSchema(ISSUES_SDL);

const TYPES = ['User', 'Admin', 'Issue', 'Status', 'Comment', 'LogEntry', 'Named', 'Nope'];
const POINTERS = [
  'name',
  'age',
  'best_friend',
  'friends',
  'todo',
  'nicknames',
  'level',
  'number',
  'status',
  'watchers',
  'owner',
  'body',
  'tags',
  'time_estimate',
  'due_date',
  'num_watchers',
  'id',
  'nope',
];
const VALUES = [
  "'text'",
  '42',
  '<int64>$n',
  '<str>$s',
  '{}',
  "{'a', 'b'}",
  '{1, 2}',
  'true',
  '[1, 2]',
  "<datetime>'2020-01-01T00:00:00Z'",
  '(select User limit 1)',
  '(select User)',
  "(select detached User filter .name = 'Elvis')",
  '(select User { @since := 1 } limit 1)',
  '.name',
  '.age + 1',
  "(insert Status { name := 'S' })",
  'assert_single((select Status))',
  "(select Status filter .name = 'Open')",
  'x',
  '<uuid>$id',
];

const USER = '(select detached User limit 1)';
/** Elements that fit each type (so a fair share of statements compile), by type. */
const GOOD: Record<string, readonly string[]> = {
  User: [
    'name := <str>$s',
    'age := <int64>$n',
    'age := 42',
    `best_friend := ${USER}`,
    'friends := (select detached User)',
    'friends += (select detached User { @since := 1 })',
    'friends -= (select detached User)',
    "nicknames := {'a', 'b'}",
    "nicknames += 'x'",
    'nicknames -= .nicknames',
    'todo := {}',
  ],
  Issue: [
    "name := 'n'",
    "body := 'b'",
    'number := <str>$s',
    `owner := ${USER}`,
    "status := (select Status filter .name = 'Open' limit 1)",
    'watchers += (select detached User)',
    'time_estimate := 42',
    "tags := ['a']",
    'related_to := (select detached Issue limit 2)',
    "owner := (select detached User { @note := 'x' } limit 1)",
  ],
  Status: ["name := 'S'", 'name := <str>$s'],
  Comment: [
    "body := 'c'",
    `owner := ${USER}`,
    'issue := (select Issue limit 1)',
    'parent := (select detached Comment limit 1)',
  ],
  LogEntry: ["body := 'l'", `owner := ${USER}`, 'spent_time := 7'],
};
GOOD.Admin = [...(GOOD.User as string[]), 'level := 3'];
GOOD.Named = ["name := 'x'"];
GOOD.Nope = [];

const anyElement = fc
  .tuple(
    fc.constantFrom(...POINTERS),
    fc.constantFrom(':=', ':=', ':=', '+=', '-='),
    fc.constantFrom(...VALUES),
  )
  .map(([p, op, v]) => `${p} ${op} ${v}`);
/** Required pointers' elements, which an insert needs. */
const REQUIRED: Record<string, readonly string[]> = {
  User: ["name := 'u'"],
  Admin: ["name := 'a'"],
  Issue: [
    "name := 'n'",
    "body := 'b'",
    'number := <str>$s',
    `owner := ${USER}`,
    "status := (select Status filter .name = 'Open' limit 1)",
  ],
  Status: ["name := 'S'"],
  Comment: ["body := 'c'", `owner := ${USER}`, 'issue := (select Issue limit 1)'],
  LogEntry: ["body := 'l'", `owner := ${USER}`, 'spent_time := 7'],
};
const pointerOf = (el: string) => el.split(' ')[0];
const shapeFor = (t: string, insert: boolean) => {
  const required = insert ? (REQUIRED[t] ?? []) : [];
  const optional = (GOOD[t] ?? []).filter(
    (el) => !required.some((r) => pointerOf(r) === pointerOf(el)),
  );
  return fc
    .tuple(
      fc.subarray([...optional], { maxLength: Math.min(4, optional.length) }),
      fc.option(anyElement, { freq: 6 }),
    )
    .map(([good, bad]) => {
      const els = [...required, ...good];
      return `{ ${[...els, ...(bad === null ? [] : [bad])].join(', ')} }`;
    });
};
const filter = fc.constantFrom(
  '',
  " filter .name = 'Elvis'",
  ' filter .id = <uuid>$id',
  ' filter exists .nope',
);
const type = fc.constantFrom(...TYPES);

const insert = type.chain((t) =>
  fc
    .tuple(
      shapeFor(t, true),
      fc.constantFrom(
        '',
        '',
        ' unless conflict',
        ' unless conflict on .number',
        ' unless conflict on .number else (select Issue)',
      ),
    )
    .map(([s, c]) => `insert ${t} ${s}${c}`),
);
const update = type.chain((t) =>
  fc.tuple(filter, shapeFor(t, false)).map(([f, s]) => `update ${t}${f} set ${s}`),
);
const remove = fc
  .tuple(type, filter, fc.constantFrom('', ' order by .name limit 1', ' limit <int64>$n'))
  .map(([t, f, tail]) => `delete ${t}${f}${tail}`);
const mutation = fc.oneof(insert, update, remove);
const statement = fc.oneof(
  mutation,
  mutation.map((m) => `select (${m}) { id }`),
  mutation.map((m) => `with x := (select User limit 1) select (${m})`),
  mutation.map((m) => `for x in {'a', 'b'} union (${m})`),
  mutation.map((m) => `select (${m}) if true else (select Issue)`),
  fc.tuple(mutation, mutation).map(([a, b]) => `with a := (${a}) select (${b})`),
);

test('mutations compile or fail with a QueryError of their own', () => {
  fc.assert(
    fc.property(statement, (text) => {
      try {
        compileQuery(schema, text);
      } catch (error) {
        expect(error).toBeInstanceOf(QueryError);
        expect((error as Error).message).not.toMatch(/could not be compiled/);
      }
    }),
    { numRuns: 1500 },
  );
});

class Rollback extends Error {}

describe('on the database', () => {
  let db: IssuesDb;
  beforeAll(async () => {
    db = await openIssuesDb();
  }, 60_000);
  afterAll(async () => {
    await db.tdb.dispose();
  });

  test('what compiles, PostgreSQL runs (in a transaction rolled back)', async () => {
    let ran = 0;
    const values: Record<string, unknown> = { n: 1, s: 'x', id: ELVIS };
    await fc.assert(
      fc.asyncProperty(statement, async (text) => {
        let compiled: ReturnType<typeof compileQuery>;
        try {
          compiled = compileQuery(db.schema, text);
        } catch {
          return;
        }
        ran += 1;
        const params = compiled.params.map((p) => JSON.stringify(values[p.name] ?? null));
        await db.tdb.db
          .transaction(async (tx) => {
            await tx.query(compiled.sql, params);
            throw new Rollback();
          })
          .catch((error: Error & { code?: string }) => {
            if (error instanceof Rollback) return;
            // The data's own refusals (integrity 23xxx, invalid values 22xxx, a checked
            // cardinality 21000 raised by the compiled SQL) are answers; anything else (a
            // scalar subquery with two rows, an unknown column, ...) is a compiler bug.
            const code = error.code ?? '';
            if (/^2[23]/.test(code) || (code === '21000' && !/subquery/.test(error.message)))
              return;
            throw new Error(`${code} ${error.message}\n${text}\n${compiled.sql}`);
          });
      }),
      { numRuns: 300 },
    );
    // The generator is useful only if a fair share of its statements compile.
    expect(ran).toBeGreaterThan(20);
  }, 120_000);
});
