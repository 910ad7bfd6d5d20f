/**
 * Result tests of union-typed sets: links whose target is `A | B` (object types with no common
 * base), `std::Object` targets, and `[is A | B]`. The data is written through the compiler
 * itself (inserts assigning any member), then read back: paths, shapes, `[is T]` narrowing,
 * polymorphic shape elements, a pointer every member has, `__type__`, backlinks through union
 * links, updates and deletes. Semantics follow Gel's (a union type has its members' shared
 * pointers).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDefaultMigrator, buildSchema } from '../schema';
import { createTestDatabase, type TestDatabase } from '../testing';
import { compileQuery } from './compile';

const SDL = readFileSync(join(__dirname, '__fixtures__/unions.esdl'), 'utf8');

let tdb: TestDatabase;
const schema = buildSchema(SDL);
async function run(query: string, variables: Record<string, unknown> = {}): Promise<unknown> {
  const compiled = compileQuery(schema, query);
  const params = compiled.params.map((p) =>
    variables[p.name] === undefined ? null : JSON.stringify(variables[p.name]),
  );
  const { rows } = await tdb.db.query<{ result: string }>(compiled.sql, params);
  return JSON.parse((rows[0] as { result: string }).result);
}
const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? [...v].map(sorted).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
    : v;

beforeAll(async () => {
  tdb = await createTestDatabase();
  await createDefaultMigrator().migrate(tdb.db, SDL);
  await run(`insert A { name := 'a1', label := 'LA' }`);
  await run(`insert SubA { name := 's1', label := 'LS', extra := 7 }`);
  await run(`insert B { title := 'b1', label := 'LB' }`);
  await run(`insert C {
    cname := 'c1',
    things := (select A filter .name = 'a1') union (select B filter .title = 'b1'),
    one := (select B limit 1),
    any := (select A filter .name = 'a1' limit 1),
  }`);
  await run(
    `insert C { cname := 'c2', things := (select SubA), one := (select A filter .name = 'a1' limit 1) }`,
  );
}, 120_000);
afterAll(() => tdb?.dispose());

test('splats honour splat_strategy: Explicit never listed, an Implicit link listed by *', async () => {
  await run(`insert D {
    dname := 'd', secret := 's', pick := (select A filter .name = 'a1' limit 1),
    other := (select B limit 1), hidden := (select B limit 1)
  }`);
  const [a1] = (await run(`select A { id } filter .name = 'a1'`)) as { id: string }[];
  const [one] = (await run('select D { * }')) as Record<string, unknown>[];
  expect(Object.keys(one ?? {})).toEqual(['id', 'dname', 'pick']);
  expect(one?.pick).toBe(a1?.id);
  const [two] = (await run('select D { ** }')) as Record<string, unknown>[];
  expect(Object.keys(two ?? {})).toEqual(['id', 'dname', 'pick', 'other']);
  expect(two?.pick).toEqual([{ id: a1?.id, name: 'a1', label: 'LA' }]);
  expect(two?.other).toEqual([{ id: expect.any(String), label: 'LB' }]);
  expect(await run('select D { secret, hidden: { title } }')).toEqual([
    { secret: 's', hidden: [{ title: 'b1' }] },
  ]);
  await run('delete D');
});

test.each([
  [
    'select C { cname, n := count(.things) } order by .cname',
    [
      { cname: 'c1', n: 2 },
      { cname: 'c2', n: 1 },
    ],
  ],
  [
    "select C { things: { label } order by .label } filter .cname = 'c1'",
    [{ things: [{ label: 'LA' }, { label: 'LB' }] }],
  ],
  [
    "select C { things: { [is A].name, [is B].title } order by .label } filter .cname = 'c1'",
    [
      {
        things: [
          { name: 'a1', title: null },
          { name: null, title: 'b1' },
        ],
      },
    ],
  ],
  [
    "select C { things: { __type__: { name } } order by .label } filter .cname = 'c1'",
    [{ things: [{ __type__: [{ name: 'default::A' }] }, { __type__: [{ name: 'default::B' }] }] }],
  ],
  [
    'select C { one: { label } } order by .cname',
    [{ one: [{ label: 'LB' }] }, { one: [{ label: 'LA' }] }],
  ],
  ['select C.things.label', ['LA', 'LB', 'LS']],
  ['select C.things[is A].name', ['a1', 's1']],
  ['select C.things[is SubA] { extra }', [{ extra: 7 }]],
  ['select C.one.__type__.name', ['default::A', 'default::B']],
  ['select C.any[is A].name', ['a1']],
  [
    'select A { name, back := .<one[is C].cname } order by .name',
    [
      { name: 'a1', back: ['c2'] },
      { name: 's1', back: [] },
    ],
  ],
  ['select B { title, n := count(.<things) }', [{ title: 'b1', n: 1 }]],
  ['select (C.things[is A | B]) { label }', [{ label: 'LA' }, { label: 'LB' }, { label: 'LS' }]],
  ['select C { cname } filter .one is B', [{ cname: 'c1' }]],
  ["select C { cname } filter .one.label = 'LA'", [{ cname: 'c2' }]],
  ["select C { cname } filter .one[is A].name = 'a1'", [{ cname: 'c2' }]],
  ['select C.one[is SubA]', []],
  ['select C.things[is C]', []],
  [
    'select (A union B) { label, [is A].name }',
    [
      { label: 'LA', name: 'a1' },
      { label: 'LS', name: 's1' },
      { label: 'LB', name: null },
    ],
  ],
  ['select A[is A | B].name', ['a1', 's1']],
  ['select C.things is A', [true, true, false]],
  [
    'select (group C.things { label } by .label) { key: { label }, n := count(.elements) }',
    [
      { key: { label: 'LA' }, n: 1 },
      { key: { label: 'LB' }, n: 1 },
      { key: { label: 'LS' }, n: 1 },
    ],
  ],
  [
    'select C { cname, o := (.one ?? .things) { label } } order by .cname',
    [
      { cname: 'c1', o: [{ label: 'LB' }] },
      { cname: 'c2', o: [{ label: 'LA' }] },
    ],
  ],
  ['select count(Object) > 0', [true]],
])('%s', async (query, expected) => {
  expect(sorted(await run(query))).toEqual(sorted(expected));
});

test('the direct form of a union link: ids, or null', async () => {
  const [a1] = (await run(`select A { id } filter .name = 'a1'`)) as { id: string }[];
  const rows = (await run(`select C { cname, one, things } order by .cname`)) as {
    one: string;
    things: string[];
  }[];
  expect(rows[1]?.one).toBe(a1?.id);
  expect(rows[0]?.things).toHaveLength(2);
});

test('a pointer not every member has is not readable on the union', async () => {
  await expect(run('select C.things.name')).rejects.toMatchObject({
    message: expect.stringMatching(/has no link or property 'name'/),
    hint: expect.stringMatching(/\[is default::A\]\.name/),
  });
});

test('updates assign any member; a non-member is refused', async () => {
  await run(
    `update C filter .cname = 'c2' set { one := (select B limit 1), things += (select B limit 1) }`,
  );
  expect(
    await run(`select C { one: { label }, n := count(.things) } filter .cname = 'c2'`),
  ).toEqual([{ one: [{ label: 'LB' }], n: 2 }]);
  await expect(run(`update C set { one := (select C limit 1) }`)).rejects.toThrow(
    /A \| default::B/,
  );
});

test('inserts of each member through a union link; update and delete through a union set', async () => {
  await run(`insert C { cname := 'f1', one := (insert SubA { name := 'f-a', label := 'f', extra := 1 }),
    things := {(insert A { name := 'f-b', label := 'f' }), (insert B { title := 'f-c', label := 'f' })} }`);
  expect(
    sorted(
      await run(`select C { one: { __type__: { name } }, things: { label } } filter .cname = 'f1'`),
    ),
  ).toEqual([
    { one: [{ __type__: [{ name: 'default::SubA' }] }], things: [{ label: 'f' }, { label: 'f' }] },
  ]);
  await run(`update (select C filter .cname = 'f1').things set { label := 'g' }`);
  expect(sorted(await run(`select (A union B) { label } filter .label in {'f', 'g'}`))).toEqual([
    { label: 'f' },
    { label: 'g' },
    { label: 'g' },
  ]);
  // Still linked: the link's `on target delete restrict` (the default) refuses.
  await expect(run(`delete (select C filter .cname = 'f1').things[is B]`)).rejects.toThrow(
    /link target policy/,
  );
  await run(`update C filter .cname = 'f1' set { things := .things[is A], one := {} }`);
  expect(await run(`select C { one, things: { [is A].name } } filter .cname = 'f1'`)).toEqual([
    { one: null, things: [{ name: 'f-b' }] },
  ]);
  await run(`delete C filter .cname = 'f1'`);
  await run(`delete (A union B) filter .label in {'f', 'g'}`);
  expect(await run(`select count((A union B) filter .label in {'f', 'g'})`)).toEqual([0]);
});

test('link properties of a union link; a shape element narrowed to a member; member splats', async () => {
  await run(
    `insert C { cname := 'w1', weighted := (select A { @weight := 2 } filter .name = 'a1' limit 1) }`,
  );
  await run(
    `update C filter .cname = 'w1' set { weighted += (select B { @weight := 5 } limit 1) }`,
  );
  expect(
    await run(`select C { weighted: { label, @weight } order by @weight } filter .cname = 'w1'`),
  ).toEqual([
    {
      weighted: [
        { label: 'LA', '@weight': 2 },
        { label: 'LB', '@weight': 5 },
      ],
    },
  ]);
  expect(await run(`select C { weighted[is B]: { title, @weight } } filter .cname = 'w1'`)).toEqual(
    [{ weighted: [{ title: 'b1', '@weight': 5 }] }],
  );
  expect(await run(`select sum(C.weighted@weight)`)).toEqual([7]);
  expect(
    await run(
      `select C { weighted: { [is A].*, [is B].title } order by @weight } filter .cname = 'w1'`,
    ),
  ).toEqual([
    {
      weighted: [
        { id: expect.any(String), name: 'a1', label: 'LA', title: null },
        { id: expect.any(String), name: null, label: null, title: 'b1' },
      ],
    },
  ]);
  // Splats of related types meet on one element; of unrelated types sharing a name, an error.
  expect(
    await run(
      `select C { weighted: { [is SubA].*, [is A].* } order by @weight } filter .cname = 'w1'`,
    ),
  ).toEqual([
    {
      weighted: [
        { id: expect.any(String), name: 'a1', label: 'LA', extra: null },
        { id: expect.any(String), name: null, label: null, extra: null },
      ],
    },
  ]);
  await expect(run(`select C { weighted: { [is A].*, [is B].* } }`)).rejects.toThrow(
    /'label' appears in splats for unrelated types default::A and default::B/,
  );
  await run(`delete C filter .cname = 'w1'`);
});

test('on source delete through a union link: targets go, shared ones stay while linked', async () => {
  await run(`insert B { title := 'owned', label := 'x' }`);
  await run(`insert A { name := 'shared', label := 'x' }`);
  await run(
    `insert C { cname := 'd1', owned := (select B filter .title = 'owned' limit 1), shared := (select A filter .name = 'shared' limit 1) }`,
  );
  await run(`insert C { cname := 'd2', shared := (select A filter .name = 'shared' limit 1) }`);
  await run(`delete C filter .cname = 'd1'`);
  expect(await run(`select count(B filter .title = 'owned')`)).toEqual([0]);
  expect(await run(`select count(A filter .name = 'shared')`)).toEqual([1]);
  await run(`delete C filter .cname = 'd2'`);
  expect(await run(`select count(A filter .name = 'shared')`)).toEqual([0]);
});

test('on source delete if orphan through a multi union link', async () => {
  await run(`insert B { title := 'k1', label := 'k' }`);
  await run(`insert A { name := 'k2', label := 'k' }`);
  await run(
    `insert C { cname := 'e1', kept := (select B filter .title = 'k1') union (select A filter .name = 'k2') }`,
  );
  await run(`insert C { cname := 'e2', kept := (select A filter .name = 'k2') }`);
  await run(`delete C filter .cname = 'e1'`);
  expect(sorted(await run(`select (A union B) { label } filter .label = 'k'`))).toEqual([
    { label: 'k' },
  ]);
  expect(await run(`select C { kept: { [is A].name } } filter .cname = 'e2'`)).toEqual([
    { kept: [{ name: 'k2' }] },
  ]);
  await run(`delete C filter .cname = 'e2'`);
  expect(await run(`select count((A union B) filter .label = 'k')`)).toEqual([0]);
});
