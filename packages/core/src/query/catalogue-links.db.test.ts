/**
 * Result tests of links into the schema catalogue (`link t -> schema::ObjectType`, as Gel's
 * link_tgt_del schema has): the schema builds and migrates (the link is a uuid the database does
 * not check), an insert links a catalogue object, and paths, shapes and backlinks read it back.
 * The catalogue is read-only: a delete or an insert of its types is refused.
 */
import { createDefaultMigrator, buildSchema } from '../schema';
import { createTestDatabase, type TestDatabase } from '../testing';
import { compileQuery } from './compile';

const SDL = `
module default {
  type Note {
    required title: str;
    about: schema::ObjectType { on target delete restrict; }
    multi mentions: schema::Object;
  }
}
`;

let tdb: TestDatabase;
const schema = buildSchema(SDL);
async function run(query: string): Promise<unknown> {
  const compiled = compileQuery(schema, query);
  const { rows } = await tdb.db.query<{ result: string }>(compiled.sql, []);
  return JSON.parse((rows[0] as { result: string }).result);
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  await createDefaultMigrator().migrate(tdb.db, SDL);
  await run(`insert Note {
    title := 'n1',
    about := (select schema::ObjectType filter .name = 'default::Note' limit 1),
    mentions := (select schema::Object filter .name in {'std::str', 'default::Note'}),
  }`);
}, 120_000);
afterAll(() => tdb?.dispose());

test.each([
  ['select Note.about.name', ['default::Note']],
  [
    'select Note { about: { name, is_abstract } }',
    [{ about: [{ name: 'default::Note', is_abstract: false }] }],
  ],
  [
    'select Note { mentions: { name } order by .name }',
    [{ mentions: [{ name: 'default::Note' }, { name: 'std::str' }] }],
  ],
  ['select Note.mentions[is schema::ScalarType].name', ['std::str']],
  [
    "select schema::ObjectType { name, notes := .<about[is Note].title } filter .name = 'default::Note'",
    [{ name: 'default::Note', notes: ['n1'] }],
  ],
])('%s', async (query, expected) => {
  expect(await run(query)).toEqual(expected);
});

test('the catalogue is read-only', () => {
  expect(() => compileQuery(schema, 'delete schema::ObjectType')).toThrow(/standard library type/);
  expect(() => compileQuery(schema, "insert schema::Module { name := 'x' }")).toThrow(
    /cannot insert/,
  );
  expect(() => buildSchema('module default { type X extending schema::Object; }')).toThrow(
    /cannot extend 'schema::Object'/,
  );
});
