/**
 * Result tests of the read compiler: EdgeQL over the issues fixture (./__tests__/issues-db) →
 * the JSON PostgreSQL builds, on PGlite or PostgreSQL (SVC_TEST_DB). Each row: the query, its
 * variables, the expected result; `unordered` compares as multisets (no `order by` in the query).
 * Semantics follow Gel's (docs and tests/test_edgeql_select.py), conventions the spec's.
 */
import {
  ANN,
  BUG,
  CLOSED,
  ELVIS,
  OPEN,
  RELEASE,
  YURY,
  id,
  openIssuesDb,
  type IssuesDb,
} from './__tests__/issues-db';

interface Case {
  readonly query: string;
  readonly vars?: Record<string, unknown>;
  readonly expected: unknown;
  readonly unordered?: boolean;
}

let db: IssuesDb;
beforeAll(async () => {
  db = await openIssuesDb();
}, 120_000);
afterAll(() => db?.tdb.dispose());

const sortJson = (v: unknown): unknown =>
  Array.isArray(v) ? [...v].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) : v;

function table(name: string, cases: readonly Case[]): void {
  describe(name, () => {
    test.each(cases.map((c) => [c.query, c] as const))('%s', async (_, c) => {
      const result = await db.run(c.query, c.vars);
      if (c.unordered) expect(sortJson(result)).toEqual(sortJson(c.expected));
      else expect(result).toEqual(c.expected);
    });
  });
}

table('literals, parameters and scalar expressions', [
  { query: 'select 1', expected: [1] },
  { query: "select 'a'", expected: ['a'] },
  { query: 'select true', expected: [true] },
  { query: 'select 1.5', expected: [1.5] },
  { query: 'select 1 + 2 * 3', expected: [7] },
  { query: "select 'a' ++ 'b'", expected: ['ab'] },
  { query: 'select {1, 2, 3}', expected: [1, 2, 3] },
  { query: 'select {}', expected: [] },
  { query: 'select <str>{}', expected: [] },
  { query: "select (1, 'a')", expected: [[1, 'a']] },
  { query: "select (a := 1, b := 'x')", expected: [{ a: 1, b: 'x' }] },
  { query: 'select [1, 2, 3]', expected: [[1, 2, 3]] },
  { query: 'select [1, 2, 3][1]', expected: [2] },
  { query: "select 'abc'[0]", expected: ['a'] },
  { query: "select len('abc')", expected: [3] },
  { query: "select <int64>'42'", expected: [42] },
  { query: 'select <str>42', expected: ['42'] },
  { query: 'select <str>$x', vars: { x: 'hi' }, expected: ['hi'] },
  { query: "select <str>$x ++ <str>$x ++ '!'", vars: { x: 'a' }, expected: ['aa!'] },
  { query: 'select <int64>$n * 2', vars: { n: 21 }, expected: [42] },
  { query: 'select <optional str>$x', vars: {}, expected: [] },
  { query: "select <optional str>$x ?? 'none'", vars: {}, expected: ['none'] },
  { query: "select <optional str>$x ?? 'none'", vars: { x: 'set' }, expected: ['set'] },
  { query: 'select <array<int64>>$xs', vars: { xs: [3, 1] }, expected: [[3, 1]] },
  { query: "select 'a' if true else 'b'", expected: ['a'] },
  { query: "select 'a' if 1 > 2 else 'b'", expected: ['b'] },
  { query: 'select {1, 2} union {3}', expected: [1, 2, 3] },
  { query: 'select {1, 2} = {1, 3}', expected: [true, false, false, false] },
  { query: 'select distinct {1, 1, 2}', expected: [1, 2], unordered: true },
  { query: 'select {1, 2, 3} except {2}', expected: [1, 3], unordered: true },
  { query: 'select {1, 2, 3} intersect {2, 3, 4}', expected: [2, 3], unordered: true },
  { query: 'select 1 in {1, 2}', expected: [true] },
  { query: 'select 3 not in {1, 2}', expected: [true] },
  { query: 'select exists {1}', expected: [true] },
  { query: 'select exists <int64>{}', expected: [false] },
  { query: 'select {} ?? 5', expected: [5] },
]);

table('aggregates and asserts', [
  { query: 'select count(User)', expected: [3] },
  { query: 'select count(Named)', expected: [8] },
  { query: 'select count(<int64>{})', expected: [0] },
  { query: 'select sum({1, 2, 3})', expected: [6] },
  { query: 'select max(User.age)', expected: [30] },
  { query: 'select min(User.age)', expected: [25] },
  { query: "select count(User filter .name = 'Elvis')", expected: [1] },
  { query: 'select array_agg(User.name)', expected: [['Ann', 'Elvis', 'Yury']], unordered: false },
  { query: "select assert_single((select User filter .name = 'Elvis')).name", expected: ['Elvis'] },
  { query: "select assert_exists((select User filter .name = 'Yury')).name", expected: ['Yury'] },
  { query: 'select assert_distinct({1, 2})', expected: [1, 2] },
  {
    query: 'select array_agg((select User { name } order by .name))',
    expected: [[{ name: 'Ann' }, { name: 'Elvis' }, { name: 'Yury' }]],
  },
  { query: "select [(select User { name } filter .name = 'Ann')]", expected: [[{ name: 'Ann' }]] },
]);

table('select and shapes', [
  {
    query: 'select User { name } order by .name',
    expected: [{ name: 'Ann' }, { name: 'Elvis' }, { name: 'Yury' }],
  },
  { query: 'select User order by .name', expected: [{ id: ANN }, { id: ELVIS }, { id: YURY }] },
  { query: 'select User.name', expected: ['Ann', 'Elvis', 'Yury'], unordered: true },
  { query: "select User { name } filter .name = 'Elvis'", expected: [{ name: 'Elvis' }] },
  {
    query: 'select User { name } filter .id = <uuid>$id',
    vars: { id: YURY },
    expected: [{ name: 'Yury' }],
  },
  {
    query: 'select User { name, age } order by .age',
    expected: [
      { name: 'Ann', age: null },
      { name: 'Yury', age: 25 },
      { name: 'Elvis', age: 30 },
    ],
  },
  {
    query: 'select User { name, age } order by .age desc',
    expected: [
      { name: 'Elvis', age: 30 },
      { name: 'Yury', age: 25 },
      { name: 'Ann', age: null },
    ],
  },
  {
    query: 'select User { name } order by .age empty last',
    expected: [{ name: 'Yury' }, { name: 'Elvis' }, { name: 'Ann' }],
  },
  {
    query: 'select Issue { name } order by .owner.name then .name desc',
    expected: [{ name: 'Release' }, { name: 'Docs' }, { name: 'Bug' }],
  },
  {
    query: 'select User { name } order by .name offset 1',
    expected: [{ name: 'Elvis' }, { name: 'Yury' }],
  },
  { query: 'select User { name } order by .name limit 1', expected: [{ name: 'Ann' }] },
  { query: 'select User { name } order by .name offset 1 limit 1', expected: [{ name: 'Elvis' }] },
  {
    query: 'select User { name } order by .name limit <int64>$n',
    vars: { n: 2 },
    expected: [{ name: 'Ann' }, { name: 'Elvis' }],
  },
  {
    query: 'select User { name, friends: { name, @since } } order by .name',
    expected: [
      { name: 'Ann', friends: [{ name: 'Elvis', '@since': null }] },
      { name: 'Elvis', friends: [{ name: 'Yury', '@since': 2020 }] },
      { name: 'Yury', friends: [{ name: 'Elvis', '@since': 2021 }] },
    ],
  },
  {
    query: "select User { name, friends } filter .name = 'Elvis'",
    expected: [{ name: 'Elvis', friends: [YURY] }],
  },
  {
    query: 'select User { name, best_friend } order by .name',
    expected: [
      { name: 'Ann', best_friend: YURY },
      { name: 'Elvis', best_friend: null },
      { name: 'Yury', best_friend: ELVIS },
    ],
  },
  {
    query: 'select User { name, best_friend: { name } } order by .name',
    expected: [
      { name: 'Ann', best_friend: [{ name: 'Yury' }] },
      { name: 'Elvis', best_friend: null },
      { name: 'Yury', best_friend: [{ name: 'Elvis' }] },
    ],
  },
  {
    query: 'select User { name, todo: { name, @rank } order by @rank desc } order by .name',
    expected: [
      { name: 'Ann', todo: [] },
      {
        name: 'Elvis',
        todo: [
          { name: 'Docs', '@rank': 2 },
          { name: 'Release', '@rank': 1 },
        ],
      },
      { name: 'Yury', todo: [] },
    ],
  },
  {
    query: "select User { name, friends: { name } filter .name != 'Yury' limit 1 } order by .name",
    expected: [
      { name: 'Ann', friends: [{ name: 'Elvis' }] },
      { name: 'Elvis', friends: [] },
      { name: 'Yury', friends: [{ name: 'Elvis' }] },
    ],
  },
  {
    query: 'select Issue { name, watchers: { name } order by .name } order by .number',
    expected: [
      { name: 'Release', watchers: [{ name: 'Yury' }] },
      { name: 'Bug', watchers: [{ name: 'Ann' }, { name: 'Elvis' }] },
      { name: 'Docs', watchers: [] },
    ],
  },
  {
    query: 'select Issue { name, owner: { name, @note } } order by .number',
    expected: [
      { name: 'Release', owner: [{ name: 'Elvis', '@note': 'lead' }] },
      { name: 'Bug', owner: [{ name: 'Yury', '@note': null }] },
      { name: 'Docs', owner: [{ name: 'Elvis', '@note': null }] },
    ],
  },
  {
    query: "select Issue { name, tags, time_estimate, due_date } filter .number = '1'",
    expected: [
      {
        name: 'Release',
        tags: ['a', 'b'],
        time_estimate: 3000,
        due_date: '2020-01-15T10:00:00+00:00',
      },
    ],
  },
  {
    query: "select User { name, nicknames } filter .name = 'Elvis'",
    expected: [{ name: 'Elvis', nicknames: ['King', 'E'] }],
  },
  {
    query: 'select User { name, n := count(.friends), upper := str_upper(.name) } order by .name',
    expected: [
      { name: 'Ann', n: 1, upper: 'ANN' },
      { name: 'Elvis', n: 1, upper: 'ELVIS' },
      { name: 'Yury', n: 1, upper: 'YURY' },
    ],
  },
  {
    query: 'select User { name, friend_names := .friends.name } order by .name',
    expected: [
      { name: 'Ann', friend_names: ['Elvis'] },
      { name: 'Elvis', friend_names: ['Yury'] },
      { name: 'Yury', friend_names: ['Elvis'] },
    ],
  },
  {
    query: 'select User { name, bf := .best_friend { name } } order by .name',
    expected: [
      { name: 'Ann', bf: [{ name: 'Yury' }] },
      { name: 'Elvis', bf: null },
      { name: 'Yury', bf: [{ name: 'Elvis' }] },
    ],
  },
  {
    query: 'select User { name, bf := .best_friend } order by .name',
    expected: [
      { name: 'Ann', bf: YURY },
      { name: 'Elvis', bf: null },
      { name: 'Yury', bf: ELVIS },
    ],
  },
  {
    query: 'select Issue { name, num_watchers } order by .number',
    expected: [
      { name: 'Release', num_watchers: 1 },
      { name: 'Bug', num_watchers: 2 },
      { name: 'Docs', num_watchers: 0 },
    ],
  },
  {
    query: 'select User { * } order by .name',
    expected: [
      { id: ANN, name: 'Ann', age: null, nicknames: [] },
      { id: ELVIS, name: 'Elvis', age: 30, nicknames: ['King', 'E'] },
      { id: YURY, name: 'Yury', age: 25, nicknames: [] },
    ],
  },
  {
    query: "select Status { ** } filter .name = 'Open'",
    expected: [{ id: OPEN, name: 'Open' }],
  },
  {
    query: 'select Comment { body, parent: { body } } order by .body',
    expected: [
      { body: 'Nice', parent: null },
      { body: 'Thanks', parent: [{ body: 'Nice' }] },
    ],
  },
  { query: "select {a := 1, b := 'x'}", expected: [{ a: 1, b: 'x' }] },
  {
    query: 'select { users := (select User.name order by User.name) }',
    expected: [{ users: ['Ann', 'Elvis', 'Yury'] }],
  },
]);

table('paths, links, backlinks, intersections', [
  { query: 'select Issue.owner.name', expected: ['Elvis', 'Yury'], unordered: true },
  {
    query: 'select Issue.owner { name } order by .name',
    expected: [{ name: 'Elvis' }, { name: 'Yury' }],
  },
  { query: 'select Issue.watchers.name', expected: ['Yury', 'Elvis', 'Ann'], unordered: true },
  { query: "select (select Issue filter .number = '2').related_to.name", expected: ['Release'] },
  {
    query: 'select User.<owner[is Issue].name',
    expected: ['Release', 'Bug', 'Docs'],
    unordered: true,
  },
  {
    query:
      'select User { name, issues := (select .<owner[is Issue] { name } order by .name) } order by .name',
    expected: [
      { name: 'Ann', issues: [] },
      { name: 'Elvis', issues: [{ name: 'Docs' }, { name: 'Release' }] },
      { name: 'Yury', issues: [{ name: 'Bug' }] },
    ],
  },
  { query: 'select User[is Admin] { name, level }', expected: [{ name: 'Ann', level: 3 }] },
  { query: 'select count(Owned[is Comment])', expected: [2] },
  {
    query: 'select Named { name, [is Issue].number, [is User].age } order by .name limit 3',
    expected: [
      { name: 'Ann', number: null, age: null },
      { name: 'Bug', number: '2', age: null },
      { name: 'Closed', number: null, age: null },
    ],
  },
  {
    query: 'select User { name, admin := User is Admin } order by .name',
    expected: [
      { name: 'Ann', admin: true },
      { name: 'Elvis', admin: false },
      { name: 'Yury', admin: false },
    ],
  },
  {
    query: 'select (introspect Issue) { name, abstract }',
    expected: [{ name: 'default::Issue', abstract: false }],
  },
  { query: 'select (introspect Named).abstract', expected: [true] },
  {
    query: "select Issue { same := .__type__ = introspect Issue } filter .number = '1'",
    expected: [{ same: true }],
  },
  {
    query: "select Issue { __type__: { name } } filter .number = '1'",
    expected: [{ __type__: [{ name: 'default::Issue' }] }],
  },
  {
    query: 'select distinct User.__type__.name',
    expected: ['default::Admin', 'default::User'],
    unordered: true,
  },
  { query: "select (select Issue filter .number = '1').status.name", expected: ['Open'] },
  { query: "select Issue { name } filter .status.name = 'Closed'", expected: [{ name: 'Bug' }] },
  {
    query:
      "select Issue { name } filter .owner = (select User filter .name = 'Elvis') order by .name",
    expected: [{ name: 'Docs' }, { name: 'Release' }],
  },
  { query: "select User { name } filter 'King' in .nicknames", expected: [{ name: 'Elvis' }] },
  {
    query: 'select User { name } filter exists .best_friend order by .name',
    expected: [{ name: 'Ann' }, { name: 'Yury' }],
  },
  // Per element of a `for` (Gel's simple scoping: `(User.name, User.age)` would be a cross product).
  {
    query: 'for u in User union (u.name, u.age)',
    expected: [
      ['Elvis', 30],
      ['Yury', 25],
    ],
    unordered: true,
  },
  {
    query: 'for u in User union (u.name, count(u.friends))',
    expected: [
      ['Ann', 1],
      ['Elvis', 1],
      ['Yury', 1],
    ],
    unordered: true,
  },
  // The branches and `exists` are fences (SET OF): their `User`s are not the same set.
  {
    query: "select User.name if exists User.age else 'x'",
    expected: ['Ann', 'Elvis', 'Yury'],
    unordered: true,
  },
  {
    query: "for u in User union (u.name if exists u.age else 'x')",
    expected: ['x', 'Elvis', 'Yury'],
    unordered: true,
  },
  { query: 'select (count(User), count(User))', expected: [[3, 3]] },
  {
    query: "select User { name } filter .friends.name = 'Elvis' order by .name",
    expected: [{ name: 'Ann' }, { name: 'Yury' }],
  },
  { query: 'select count(User.friends)', expected: [2] },
  { query: "select User { name } filter .name like 'E%'", expected: [{ name: 'Elvis' }] },
  { query: 'select {1, 2} if true else {3}', expected: [1, 2] },
  {
    query: "select (select User filter .name = 'Nobody').name ?? {'a', 'b'}",
    expected: ['a', 'b'],
  },
  {
    query: "select User { name, label := .name ++ '!' if exists .age else 'none' } order by .name",
    expected: [
      { name: 'Ann', label: 'none' },
      { name: 'Elvis', label: 'Elvis!' },
      { name: 'Yury', label: 'Yury!' },
    ],
  },
]);

table('unions of object types (Gel: a union type has the pointers all its members share)', [
  {
    query: 'select (User union Status) { name, [is User].age } order by .name',
    expected: [
      { name: 'Ann', age: null },
      { name: 'Closed', age: null },
      { name: 'Elvis', age: 30 },
      { name: 'Open', age: null },
      { name: 'Yury', age: 25 },
    ],
  },
  {
    query:
      "select (Issue union LogEntry) { body, owner: { name, @note } } filter .owner.name = 'Elvis' order by .body",
    expected: [
      { body: 'Did it', owner: [{ name: 'Elvis', '@note': null }] },
      { body: 'Ship it', owner: [{ name: 'Elvis', '@note': 'lead' }] },
      { body: 'Write them', owner: [{ name: 'Elvis', '@note': null }] },
    ],
  },
  {
    query:
      "select User { name, texts := (select .<owner[is Issue | LogEntry] { body } order by .body) } filter .name = 'Elvis'",
    expected: [
      { name: 'Elvis', texts: [{ body: 'Did it' }, { body: 'Ship it' }, { body: 'Write them' }] },
    ],
  },
  {
    query: 'select (Issue union LogEntry).__type__.name',
    expected: ['default::Issue', 'default::LogEntry'],
    unordered: true,
  },
  { query: 'select count(User[is Admin | Status])', expected: [1] },
  {
    query: "select Text[is Issue | Comment] { body } filter .body like 'N%'",
    expected: [{ body: 'Nice' }],
  },
]);

table('with, for, group, detached, aliases, functions', [
  { query: 'with x := {1, 2, 3} select x filter x > 1', expected: [2, 3] },
  {
    query: 'with X := {1, 2}, Y := X + 1 select (X, Y)',
    expected: [
      [1, 2],
      [1, 3],
      [2, 2],
      [2, 3],
    ],
    unordered: true,
  },
  {
    query: 'with module default select Status.name',
    expected: ['Open', 'Closed'],
    unordered: true,
  },
  {
    query: 'with u := (select User filter .age > 26) select u { name }',
    expected: [{ name: 'Elvis' }],
  },
  { query: 'for x in {1, 2, 3} union (x * 10)', expected: [10, 20, 30] },
  {
    query: "for x in {1, 2} union (select User { name, n := x } filter .name = 'Ann')",
    expected: [
      { name: 'Ann', n: 1 },
      { name: 'Ann', n: 2 },
    ],
  },
  {
    query: 'with X := (for x in {1, 2} union (select User { m := x })) select sum(X.m)',
    expected: [9],
  },
  {
    query: 'for u in User union (u.name, count(User))',
    expected: [
      ['Ann', 3],
      ['Elvis', 3],
      ['Yury', 3],
    ],
    unordered: true,
  },
  {
    query: "for optional u in (select User filter .name = 'Nobody') union (u.name ?? 'none')",
    expected: ['none'],
  },
  {
    query:
      "with G := (for x in {'a', 'b'} union { key := { v := x } }) select G { key: { v } } order by .key.v",
    expected: [{ key: { v: 'a' } }, { key: { v: 'b' } }],
  },
  {
    query: "for name in {'Ann', 'Yury'} union (select User filter .name = name).age",
    expected: [25],
  },
  { query: 'select count(detached User)', expected: [3] },
  {
    query: 'select User { name, total := count(detached User) } order by .name limit 1',
    expected: [{ name: 'Ann', total: 3 }],
  },
  {
    query: 'select OpenIssues { name } order by .name',
    expected: [{ name: 'Docs' }, { name: 'Release' }],
  },
  { query: 'select plus_one(41)', expected: [42] },
  { query: 'select plus_one({1, 2})', expected: [2, 3] },
  {
    query: 'select User { name, next := plus_one(.age) } order by .name',
    expected: [
      { name: 'Ann', next: null },
      { name: 'Elvis', next: 31 },
      { name: 'Yury', next: 26 },
    ],
  },
  {
    query: 'group Issue { name } using st := .status.name by st',
    expected: [
      { key: { st: 'Closed' }, grouping: ['st'], elements: [{ name: 'Bug' }] },
      { key: { st: 'Open' }, grouping: ['st'], elements: [{ name: 'Release' }, { name: 'Docs' }] },
    ],
  },
]);

table('views and group results', [
  {
    query:
      "with F := User { name, friends := (select User.friends order by .name limit 1) } select F { friends: { name, @since } } filter .name = 'Elvis'",
    expected: [{ friends: [{ name: 'Yury', '@since': 2020 }] }],
  },
  {
    query: 'with U := User { n := count(.friends) } select U { name, n } order by .name',
    expected: [
      { name: 'Ann', n: 1 },
      { name: 'Elvis', n: 1 },
      { name: 'Yury', n: 1 },
    ],
  },
  {
    query: "select (select User { up := str_upper(.name) } filter .name = 'Ann').up",
    expected: ['ANN'],
  },
  { query: "select User { name := 'X' } filter .name = 'Ann'", expected: [] },
  {
    query: 'select User { label := .name ++ "!" } order by .label desc limit 1',
    expected: [{ label: 'Yury!' }],
  },
  {
    query:
      'select (group Issue using st := .status.name by st) { st := .key.st, n := count(.elements) } order by .st',
    expected: [
      { st: 'Closed', n: 1 },
      { st: 'Open', n: 2 },
    ],
  },
  {
    query: 'select (group Issue using st := .status.name by st).key.st',
    expected: ['Closed', 'Open'],
    unordered: true,
  },
  { query: 'select (group User by .age).grouping', expected: ['age', 'age', 'age'] },
  {
    query:
      'select (group Issue using st := .status.name by (st, .owner)) { k := (.key.st, count(.elements)) } order by .k',
    expected: [{ k: ['Closed', 1] }, { k: ['Open', 2] }],
  },
  {
    query:
      'for g in (group Issue using st := .status.name by st) union (g.key.st, count(g.elements))',
    expected: [
      ['Closed', 1],
      ['Open', 2],
    ],
    unordered: true,
  },
  {
    query:
      'with g := (group Issue { name } using st := .status.name by st) select g { key: { st }, elements: { name } order by .name } order by .key.st',
    expected: [
      { key: { st: 'Closed' }, elements: [{ name: 'Bug' }] },
      { key: { st: 'Open' }, elements: [{ name: 'Docs' }, { name: 'Release' }] },
    ],
  },
]);

table('object casts (item 12)', [
  {
    query: 'select (<User><uuid>$id) { name }',
    vars: { id: ELVIS },
    expected: [{ name: 'Elvis' }],
  },
  {
    query: 'select Issue { name } filter .owner = <User><uuid>$id order by .name',
    vars: { id: YURY },
    expected: [{ name: 'Bug' }],
  },
  { query: 'select count(<Issue><uuid>$id)', vars: { id: BUG }, expected: [1] },
]);

// A page (`order by ... offset ... limit`) aggregated straight from its sorted subquery carries
// no second ORDER BY (plan/planner aggregateOrder): its rows must still come in order. The values
// arrive shuffled, so an order kept by accident would not pass.
const SHUFFLED = Array.from({ length: 400 }, (_, i) => (i * 7919) % 400);
const sortedDesc = [...SHUFFLED].sort((a, b) => b - a);
table('pages keep their order', [
  {
    query: 'with x := array_unpack(<array<int64>>$a) select x order by x desc offset 7 limit 300',
    vars: { a: SHUFFLED },
    expected: sortedDesc.slice(7, 307),
  },
  {
    query: 'with x := array_unpack(<array<int64>>$a) select x order by x % 10 then x limit 50',
    vars: { a: SHUFFLED },
    expected: [...SHUFFLED].sort((a, b) => (a % 10) - (b % 10) || a - b).slice(0, 50),
  },
  {
    query:
      'select (for x in array_unpack(<array<int64>>$a) union (v := x, s := <str>x)) order by .s desc limit 5',
    vars: { a: SHUFFLED },
    expected: SHUFFLED.map(String)
      .sort()
      .reverse()
      .slice(0, 5)
      .map((s) => ({ v: Number(s), s })),
  },
  {
    query: 'select User { name } order by .name desc offset 1 limit 2',
    expected: [{ name: 'Elvis' }, { name: 'Ann' }],
  },
]);

describe('runtime errors', () => {
  const sqlState = async (query: string, vars: Record<string, unknown> = {}): Promise<string> => {
    try {
      await db.run(query, vars);
    } catch (err) {
      return (err as { code?: string }).code ?? String(err);
    }
    return 'no error';
  };
  test('an object cast of a missing id is a cardinality violation (21000)', async () => {
    expect(await sqlState('select (<User><uuid>$id) { name }', { id: id(99) })).toBe('21000');
    expect(await sqlState('select count(<Issue><uuid>$id)', { id: CLOSED })).toBe('21000');
  });
  // Gel's classes: CardinalityViolationError (21000); assert_distinct ConstraintViolationError.
  test('assert_single and assert_exists raise 21000, assert_distinct 23514', async () => {
    expect(await sqlState('select assert_single(User)')).toBe('21000');
    expect(await sqlState("select assert_exists((select User filter .name = 'Nobody'))")).toBe(
      '21000',
    );
    expect(await sqlState('select assert_distinct({1, 1})')).toBe('23514');
    // Raised even when nothing reads the checked value but its JSON, or the set is empty.
    expect(await sqlState('select assert_single({1, 2})')).toBe('21000');
    expect(await sqlState('select assert_exists(<str>{})')).toBe('21000');
    expect(await sqlState('select User { name, x := assert_exists(.todo) }')).toBe('21000');
  });
  test('the object cast of an existing id of another type fails', async () => {
    expect(await sqlState('select (<Issue><uuid>$id) { name }', { id: RELEASE })).toBe('no error');
    expect(await sqlState('select (<Status><uuid>$id) { name }', { id: RELEASE })).toBe('21000');
  });
});
