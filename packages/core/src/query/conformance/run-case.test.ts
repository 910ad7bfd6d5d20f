/**
 * The case runner on a real database (PGlite, or PostgreSQL with SVC_TEST_DB=postgres), driven by
 * a test double of the compiler that takes the query text as SQL (and declares `$1` as variable
 * `x` when the text uses it), so the harness is tested apart from the EdgeQL compiler.
 */
import { createTestDatabase, type TestDatabase } from '../../testing';
import type { CompileQuery } from '../api';
import { parseCaseFile } from './case-file';
import { prepareFixture, runCase, type PreparedFixture } from './run-case';

const sqlAsIs: CompileQuery = (_schema, text) => ({
  sql: text,
  params: text.includes('$1')
    ? [
        {
          source: 'variable',
          name: 'x',
          type: 'std::str',
          valueType: { kind: 'scalar', name: 'std::str' },
          required: true,
        },
      ]
    : [],
  cardinality: 'many',
  resultType: 'json',
  writes: false,
});

const FILE = `
fixture: harness

=== a result, compared unordered
select '[3, 1, 2]'::json as result
--- expect unordered
[1, 2, 3]

=== a variable bound by name as JSON text
select json_build_array($1::jsonb #>> '{}') as result
--- variables
{"x": "hello"}
--- expect
["hello"]

=== a missing variable
select json_build_array($1::jsonb) as result
--- error VALIDATION_ERROR: $x

=== an unknown variable
select '[]'::json as result
--- variables
{"y": 1}
--- error VALIDATION_ERROR: $y

=== a database error matches its class by SQLSTATE, and the next step still runs
select json_build_array(1 / 0) as result
--- error DivisionByZeroError
--- then
select '[1]'::json as result
--- expect
[1]

=== writes of one case are rolled back
with written as (insert into "default"."Thing" (name) values ('x') returning name)
select json_agg(name) as result from written
--- expect
["x"]
--- then
select json_build_array((select count(*) from "default"."Thing")) as result
--- expect
[1]

=== the next case does not see them
select json_build_array((select count(*) from "default"."Thing")) as result
--- expect
[0]

=== a wrong result fails with where it differs
select '[{"a": 1}]'::json as result
--- expect
[{"a": 2}]

=== a schema step builds SDL without the database
--- schema
module default { type A { required name: str; } }
--- ok
`;

describe('runCase', () => {
  let tdb: TestDatabase;
  let fixture: PreparedFixture;
  const cases = parseCaseFile(FILE, 'harness.case').cases;
  const byName = (name: string) => {
    const found = cases.find((c) => c.name === name);
    if (!found) throw new Error(name);
    return found;
  };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    fixture = await prepareFixture(
      tdb.db,
      { name: 'harness', sdl: 'module default { type Thing { name: str; } }', setup: '' },
      sqlAsIs,
    );
  }, 60_000);
  afterAll(() => tdb.dispose());

  test.each(cases.filter((c) => !/wrong result/.test(c.name)).map((c) => [c.name]))(
    '%s',
    async (name) => {
      expect(await runCase(fixture, byName(name))).toBeNull();
    },
  );

  test('a statement without the one result row is reported as the step failure', async () => {
    const [broken] = parseCaseFile(
      'fixture: harness\n=== no row\nselect 1 as result where false\n--- ok',
    ).cases;
    expect(await runCase(fixture, broken as (typeof cases)[number])).toMatch(
      /line 3: .*returned 0 rows/,
    );
  });

  test('a wrong result fails with the path where it differs', async () => {
    expect(await runCase(fixture, byName('a wrong result fails with where it differs'))).toMatch(
      /line \d+: \$\[0\]\.a: expected 2, got 1/,
    );
  });
});
