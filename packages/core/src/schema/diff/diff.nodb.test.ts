import { buildSchema } from '../build';
import type { MigrationHints, MigrationPlan } from '../../model/migration';
import { planMigration } from './plan';
import { typeChangeWanting } from './pointers';

const plan = (a: string | null, b: string): MigrationPlan =>
  planMigration(a === null ? null : buildSchema(a), buildSchema(b));
const kinds = (p: MigrationPlan) => p.steps.map((s) => `${s.kind} ${s.subject}`);
const allSql = (p: MigrationPlan) => p.steps.flatMap((s) => s.sql).join('\n');

const BASE = `type User { required name: str; email: str; }`;

describe('planMigration', () => {
  it('creates from empty: schema, table, columns', () => {
    const p = plan(null, BASE);
    expect(kinds(p)).toEqual(['create type default::User']);
    expect(p.steps[0]?.sql).toEqual([
      'create schema if not exists "default"',
      'create table "default"."User" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "email" text)',
    ]);
    expect(p.checks).toEqual([]);
  });

  it('is empty for the same schema, and deterministic', () => {
    expect(plan(BASE, BASE)).toEqual({ steps: [], checks: [] });
    const sdl = `type A { multi b: B; x: int64 { default := 1 + 2; constraint max_value(9); } index on (.x); } type B { required n: str { constraint exclusive; } }`;
    expect(JSON.stringify(plan(null, sdl))).toBe(JSON.stringify(plan(null, sdl)));
  });

  it('drops a type with a data-loss check', () => {
    const p = plan(`${BASE} type Post { title: str; }`, BASE);
    expect(kinds(p)).toEqual(['drop type default::Post']);
    expect(p.steps[0]?.sql).toEqual(['drop table "default"."Post"']);
    expect(p.checks).toEqual([
      expect.objectContaining({
        kind: 'data-loss',
        subject: 'default::Post',
        sql: expect.stringContaining('from "default"."Post" having count(*) > 0'),
      }),
    ]);
  });

  it('drops a property and a multi link with data-loss checks', () => {
    const p = plan(`type User { name: str; multi friends: User; }`, `type User { }`);
    expect(kinds(p).sort()).toEqual([
      'drop link default::User.friends',
      'drop property default::User.name',
    ]);
    expect(p.checks.map((c) => `${c.kind} ${c.subject}`).sort()).toEqual([
      'data-loss default::User.friends',
      'data-loss default::User.name',
    ]);
  });

  it('adds a required property with a default in one statement, without checks', () => {
    const p = plan(
      BASE,
      `type User { required name: str; email: str; required active: bool { default := true; } }`,
    );
    expect(allSql(p)).toBe(
      'alter table "default"."User" add column "active" boolean not null default true',
    );
    expect(p.checks).toEqual([]);
  });

  it('refuses (violation check) a new required property without a default when rows exist', () => {
    const p = plan(BASE, `type User { required name: str; email: str; required age: int64; }`);
    expect(p.checks).toEqual([
      expect.objectContaining({
        kind: 'violation',
        subject: 'default::User.age',
        sql: expect.stringMatching(/limit 20$/),
      }),
    ]);
  });

  it('makes a property required: backfills with the default, or checks for nulls', () => {
    const withDefault = plan(
      BASE,
      `type User { required name: str; required email: str { default := 'x'; } }`,
    );
    expect(withDefault.steps[0]?.sql).toEqual([
      `alter table "default"."User" alter column "email" set default 'x'::text`,
      `update "default"."User" set "email" = 'x'::text where "email" is null`,
      'alter table "default"."User" alter column "email" set not null',
    ]);
    expect(withDefault.checks).toEqual([]);
    const without = plan(BASE, `type User { required name: str; required email: str; }`);
    expect(without.checks[0]).toMatchObject({
      kind: 'violation',
      sql: 'select "id" from "default"."User" where "email" is null order by "id" limit 20',
    });
    const optional = plan(BASE, `type User { name: str; email: str; }`);
    expect(allSql(optional)).toBe('alter table "default"."User" alter column "name" drop not null');
  });

  it('changes a type with a cast, or refuses with MigrationError', () => {
    const p = plan(`type T { n: int32; }`, `type T { n: int64; }`);
    expect(allSql(p)).toBe(
      'alter table "default"."T" alter column "n" type bigint using "n"::bigint',
    );
    expect(() => plan(`type T { n: bool; }`, `type T { n: datetime; }`)).toThrow(
      expect.objectContaining({
        type: 'MigrationError',
        message: expect.stringMatching(/std::bool to std::datetime/),
      }),
    );
  });

  it('changes and drops a default', () => {
    expect(
      allSql(
        plan(`type T { n: int64 { default := 1; } }`, `type T { n: int64 { default := 2; } }`),
      ),
    ).toBe('alter table "default"."T" alter column "n" set default 2::bigint');
    expect(allSql(plan(`type T { n: int64 { default := 1; } }`, `type T { n: int64; }`))).toBe(
      'alter table "default"."T" alter column "n" drop default',
    );
  });

  it('adds an exclusive constraint with a duplicates check (values and counts, at most 20)', () => {
    const p = plan(
      `type T { a: str; b: int64; }`,
      `type T { a: str; b: int64; constraint exclusive on ((.a, .b)); }`,
    );
    expect(kinds(p)).toEqual(['create constraint default::T']);
    expect(p.steps[0]?.sql[0]).toMatch(
      /^create unique index "T\.exclusive\.[0-9a-f]{8}" on "default"\."T" \("a", "b"\)$/,
    );
    expect(p.checks).toEqual([
      expect.objectContaining({
        kind: 'violation',
        sql: 'select "a" as "value1", "b" as "value2", count(*) as "count" from "default"."T" where "a" is not null and "b" is not null group by "a", "b" having count(*) > 1 order by count(*) desc, "a", "b" limit 20',
      }),
    ]);
  });

  it('adds a CHECK with a check listing the rows that break it', () => {
    const p = plan(`type T { n: int64; }`, `type T { n: int64 { constraint min_value(0); } }`);
    expect(allSql(p)).toBe(
      'alter table "default"."T" add constraint "T.n.min_value" check ("n" >= (0::bigint))',
    );
    expect(p.checks[0]?.sql).toBe(
      'select "id" from "default"."T" where not ("n" >= (0::bigint)) order by "id" limit 20',
    );
  });

  it('drops a constraint and an index', () => {
    const p = plan(
      `type T { n: int64 { constraint exclusive; } index on (.n); }`,
      `type T { n: int64; }`,
    );
    expect(allSql(p).split('\n').sort()).toEqual([
      'drop index "default"."T.n.exclusive"',
      'drop index "default"."T.n.index"',
    ]);
  });

  it('skips an index on a single link alone (the link has its index)', () => {
    const p = plan(null, `type A { b: B; index on (.b); } type B;`);
    expect(allSql(p).match(/create index/g)).toHaveLength(1);
  });

  it('moves data between single and multi', () => {
    const toMulti = plan(`type T { tag: str; }`, `type T { multi tag: str; }`);
    expect(toMulti.steps[0]?.sql).toEqual([
      'create table "default"."T.tag" ("source" uuid not null, "value" text not null)',
      'insert into "default"."T.tag" ("source", "value") select "id", "tag" from "default"."T" where "tag" is not null',
      'alter table "default"."T.tag" add constraint "T.tag.source.fk" foreign key ("source") references "default"."T" ("id") on delete cascade',
      'create index "T.tag.source.index" on "default"."T.tag" ("source")',
      'alter table "default"."T" drop column "tag"',
    ]);
    const toSingle = plan(`type T { multi tag: str; }`, `type T { tag: str; }`);
    expect(toSingle.checks[0]).toMatchObject({
      kind: 'violation',
      sql: expect.stringContaining('having count(*) > 1'),
    });
    expect(toSingle.steps[0]?.sql.at(-1)).toBe('drop table "default"."T.tag"');
  });

  it('follows on target delete in foreign keys; no FK to a type with subtypes', () => {
    const sql = allSql(
      plan(
        null,
        `type A { b1: B { on target delete allow; } b2: B { on target delete delete source; } b3: B { on target delete deferred restrict; } b4: B; c: C; } type B; type C; type D extending C;`,
      ),
    );
    expect(sql).toContain('foreign key ("b1") references "default"."B" ("id") on delete set null');
    expect(sql).toContain('foreign key ("b2") references "default"."B" ("id") on delete cascade');
    expect(sql).toContain(
      'foreign key ("b3") references "default"."B" ("id") on delete no action deferrable initially deferred',
    );
    expect(sql).toContain('foreign key ("b4") references "default"."B" ("id") on delete no action');
    expect(sql).not.toContain('foreign key ("c")');
  });

  it('recreates the view of an abstract type when a descendant appears', () => {
    const a = `abstract type Named { required name: str; } type A extending Named;`;
    const p = plan(a, `${a} type B extending Named;`);
    expect(kinds(p)).toEqual([
      'drop view default::Named',
      'create type default::B',
      'create view default::Named',
    ]);
    expect(p.steps[2]?.sql[0]).toBe(
      `create view "default"."Named" as select "id", "name", 'default::A'::text as "__type__" from "default"."A" union all select "id", "name", 'default::B'::text as "__type__" from "default"."B"`,
    );
  });

  it('changes an enum domain in place, checking stored values', () => {
    const p = plan(
      `scalar type C extending enum<A, B>; type T { c: C; }`,
      `scalar type C extending enum<A>; type T { c: C; }`,
    );
    expect(p.steps[0]?.sql).toEqual([
      'alter domain "default"."C" drop constraint "C.enum"',
      `alter domain "default"."C" add constraint "C.enum" check (VALUE in ('A'))`,
    ]);
    expect(p.checks[0]?.sql).toBe(
      `select 'default::T.c' as "subject", "c"::text as "value" from "default"."T" where not ("c" in ('A')) limit 20`,
    );
  });

  it('has steps without SQL for policies, globals, functions and computeds', () => {
    const a = `global g: str; function f(x: int64) -> int64 using (x); type T { n: int64; m := .n + 1; access policy p allow all; }`;
    const b = `global g: int64; function f(x: int64) -> int64 using (x + 1); type T { n: int64; m := .n + 2; access policy p allow select; access policy q deny delete; }`;
    const p = plan(a, b);
    expect(kinds(p).sort()).toEqual([
      'alter function default::f',
      'alter global default::g',
      'alter policy default::T.p',
      'alter property default::T.m',
      'create policy default::T.q',
    ]);
    expect(allSql(p)).toBe('');
  });

  it('re-plans defaults that inline a changed function', () => {
    const p = plan(
      `function f() -> int64 using (1); type T { n: int64 { default := f(); } }`,
      `function f() -> int64 using (2); type T { n: int64 { default := f(); } }`,
    );
    expect(allSql(p)).toBe('alter table "default"."T" alter column "n" set default 2::bigint');
  });

  it('overloaded functions are told apart by signature: the same schema plans nothing', () => {
    const sdl = `function f(x: int64) -> int64 using (x); function f(x: str) -> str using (x);`;
    expect(plan(sdl, sdl)).toEqual({ steps: [], checks: [] });
    const p = plan(
      sdl,
      `function f(x: int64) -> int64 using (x + 1); function f(x: str) -> str using (x);`,
    );
    expect(p.steps.map((s) => s.description)).toEqual(['alter function default::f(std::int64)']);
  });

  it('creates and drops the integrity triggers of a polymorphic link', () => {
    const poly = `abstract type A; type B extending A; type C { l: A; }`;
    const created = plan(null, poly);
    expect(kinds(created)).toContain('create trigger default::C');
    expect(kinds(created)).toContain('create trigger default::B');
    expect(allSql(created)).toContain(
      'create trigger "default::C.l.target" after insert or update of "l" on "default"."C"',
    );
    const dropped = plan(poly, `abstract type A; type B extending A; type C { l: B; }`);
    expect(
      kinds(dropped)
        .filter((k) => k.startsWith('drop trigger'))
        .sort(),
    ).toEqual(['drop trigger default::B', 'drop trigger default::C']);
    expect(allSql(dropped)).toContain('drop function if exists "default"."default::C.l.target"()');
  });

  it('going A → B → C touches what going A → C touches', () => {
    const A = `type T { a: str; }`;
    const B = `type T { a: str; b: int64; } type U { x: str; }`;
    const C = `type T { b: int64 { default := 0; } multi c: str; } type U { x: str { constraint exclusive; } }`;
    const stepwise = new Set(
      [...kinds(plan(A, B)), ...kinds(plan(B, C))].map((k) => k.split(' ').pop()),
    );
    const direct = new Set(kinds(plan(A, C)).map((k) => k.split(' ').pop()));
    for (const subject of direct) expect(stepwise).toContain(subject);
  });
});

describe('planMigration with renames', () => {
  const renamePlan = (a: string, b: string, hints: MigrationHints) =>
    planMigration(buildSchema(a), buildSchema(b), hints);

  it('renames a property in place: one statement, no drop, no data-loss check', () => {
    const p = renamePlan(`type User { bio: str; }`, `type User { about: str; }`, {
      renames: [{ kind: 'pointer', type: 'User', from: 'bio', to: 'about' }],
    });
    expect(kinds(p)).toEqual(['alter property default::User.about']);
    expect(allSql(p)).toBe('alter table "default"."User" rename column "bio" to "about"');
    expect(p.checks).toEqual([]);
  });

  it('without the rename the same change is a drop and an add, with a data-loss check', () => {
    const p = plan(`type User { bio: str; }`, `type User { about: str; }`);
    expect(kinds(p).sort()).toEqual([
      'create property default::User.about',
      'drop property default::User.bio',
    ]);
    expect(p.checks.map((c) => c.kind)).toEqual(['data-loss']);
  });

  it('renames a type with its multi link table and keeps the FK pointing at it', () => {
    const a = `type User { multi friends: User; name: str; } type Post { author: User; }`;
    const b = `type Person { multi friends: Person; name: str; } type Post { author: Person; }`;
    const p = renamePlan(a, b, { renames: [{ kind: 'type', from: 'User', to: 'Person' }] });
    const sql = allSql(p);
    expect(sql).toContain('alter table "default"."User" rename to "Person"');
    expect(sql).toContain('alter table "default"."User.friends" rename to "Person.friends"');
    expect(sql).not.toMatch(/drop table|create table/);
    expect(p.checks.filter((c) => c.kind === 'data-loss')).toEqual([]);
    expect(kinds(p)[0]).toBe('alter type default::Person');
  });

  it('renames a type and one of its pointers together (the pointer named by either type name); derived names follow', () => {
    const a = `type User { bio: str; multi tags: str; }`;
    const b = `type Person { about: str; multi labels: str; }`;
    for (const type of ['User', 'Person']) {
      const p = renamePlan(a, b, {
        renames: [
          { kind: 'type', from: 'User', to: 'Person' },
          { kind: 'pointer', type, from: 'bio', to: 'about' },
          { kind: 'pointer', type, from: 'tags', to: 'labels' },
        ],
      });
      expect(p.steps.flatMap((s) => s.sql)).toEqual([
        'alter table "default"."User" rename to "Person"',
        'alter table "default"."Person" rename column "bio" to "about"',
        'alter table "default"."User.tags" rename to "Person.labels"',
        'alter table "default"."Person.labels" rename constraint "User.tags.source.fk" to "Person.labels.source.fk"',
        'alter index "default"."User.tags.source.index" rename to "Person.labels.source.index"',
      ]);
    }
  });

  it('a pointer of an abstract type is renamed in every table that stores it', () => {
    const a = `abstract type Named { title: str; } type A extending Named; type B extending Named;`;
    const b = `abstract type Named { name: str; } type A extending Named; type B extending Named;`;
    const p = renamePlan(a, b, {
      renames: [{ kind: 'pointer', type: 'Named', from: 'title', to: 'name' }],
    });
    const sql = p.steps.flatMap((s) => s.sql);
    expect(sql).toContain('alter table "default"."A" rename column "title" to "name"');
    expect(sql).toContain('alter table "default"."B" rename column "title" to "name"');
    expect(sql.some((s) => /drop column|add column/.test(s))).toBe(false);
    expect(p.checks.filter((c) => c.kind === 'data-loss')).toEqual([]);
  });

  it("renames a single link's link property columns with it", () => {
    const p = renamePlan(
      `type T { owner: T { since: datetime; }; }`,
      `type T { holder: T { since: datetime; }; }`,
      { renames: [{ kind: 'pointer', type: 'T', from: 'owner', to: 'holder' }] },
    );
    const sql = p.steps.flatMap((s) => s.sql);
    expect(sql).toContain('alter table "default"."T" rename column "owner" to "holder"');
    expect(sql).toContain(
      'alter table "default"."T" rename column "owner@since" to "holder@since"',
    );
    expect(sql.some((s) => /drop column|add column/.test(s))).toBe(false);
  });

  it('an index on a renamed column is kept by PostgreSQL: only its derived name may change', () => {
    const p = renamePlan(
      `type User { bio: str; index on (.bio); }`,
      `type User { about: str; index on (.about); }`,
      { renames: [{ kind: 'pointer', type: 'User', from: 'bio', to: 'about' }] },
    );
    expect(p.checks.filter((c) => c.kind === 'data-loss')).toEqual([]);
    expect(allSql(p)).not.toMatch(/drop column|add column/);
  });

  it('refuses renames the schemas do not bear out, with the reason', () => {
    const a = `type User { bio: str; }`;
    const cases: [string, MigrationHints, RegExp][] = [
      [
        `type User { about: str; }`,
        { renames: [{ kind: 'pointer', type: 'User', from: 'nope', to: 'about' }] },
        /has no nope/,
      ],
      [
        `type User { about: str; }`,
        { renames: [{ kind: 'pointer', type: 'User', from: 'bio', to: 'other' }] },
        /has no other/,
      ],
      [
        `type User { bio: str; about: str; }`,
        { renames: [{ kind: 'pointer', type: 'User', from: 'bio', to: 'about' }] },
        /still has bio/,
      ],
      [
        `type Person { bio: str; }`,
        { renames: [{ kind: 'type', from: 'Nobody', to: 'Person' }] },
        /no such type/,
      ],
      [
        `type User { bio: str; } type Person { bio: str; }`,
        { renames: [{ kind: 'type', from: 'User', to: 'Person' }] },
        /still has default::User/,
      ],
      [
        `module other { type Person { bio: str; } }`,
        { renames: [{ kind: 'type', from: 'User', to: 'other::Person' }] },
        /another module/,
      ],
    ];
    for (const [b, hints, message] of cases) {
      expect(() => renamePlan(a, b, hints)).toThrow(message);
    }
    expect(() =>
      planMigration(null, buildSchema(a), { renames: [{ kind: 'type', from: 'A', to: 'B' }] }),
    ).toThrow(/no schema yet/);
  });
});

describe('planMigration with fills', () => {
  const fillPlan = (a: string, b: string, fills: Record<string, string>) =>
    planMigration(buildSchema(a), buildSchema(b), { fills });

  it('a new required property without a default: added, filled from the row, then made required', () => {
    const p = fillPlan(
      `type User { required name: str; }`,
      `type User { required name: str; required handle: str; }`,
      { 'default::User.handle': `str_lower(.name) ++ '!'` },
    );
    expect(p.checks).toEqual([]);
    const sql = p.steps.flatMap((s) => s.sql);
    expect(sql[0]).toBe('alter table "default"."User" add column "handle" text');
    expect(sql[1]).toMatch(
      /^update "default"\."User" set "handle" = .*"name".* where "handle" is null$/,
    );
    expect(sql[2]).toBe('alter table "default"."User" alter column "handle" set not null');
  });

  it('without a fill the same change is refused on a populated table (a violation check)', () => {
    const p = plan(
      `type User { required name: str; }`,
      `type User { required name: str; required handle: str; }`,
    );
    expect(p.checks.map((c) => c.kind)).toEqual(['violation']);
    expect(p.checks[0]?.message).toMatch(/fill expression/);
    expect(p.fillsWanted).toEqual(['default::User.handle']);
  });

  it('a type change no cast makes is refused, and says which change wants a fill', () => {
    const from = buildSchema('type Task { done: bool; title: str; }');
    const to = buildSchema('type Task { done: int64; title: str; }');
    let refused: unknown;
    try {
      planMigration(from, to);
    } catch (err) {
      refused = err;
    }
    expect((refused as Error).message).toMatch(/^cannot change the type of default::Task\.done/);
    expect(typeChangeWanting(refused)).toEqual({
      subject: 'default::Task.done',
      from: 'std::bool',
      to: 'std::int64',
    });
    expect(
      planMigration(from, to, { fills: { 'Task.done': '1 if .done else 0' } }).steps,
    ).toHaveLength(1);
    expect(typeChangeWanting(new Error('cannot change the type of default::Task.done'))).toBe(
      undefined,
    );
  });

  it('an optional property made required is filled where empty', () => {
    const p = fillPlan(`type User { n: int64; }`, `type User { required n: int64; }`, {
      'default::User.n': '0',
    });
    expect(p.checks).toEqual([]);
    expect(p.steps.flatMap((s) => s.sql)).toEqual([
      'update "default"."User" set "n" = 0::bigint where "n" is null',
      'alter table "default"."User" alter column "n" set not null',
    ]);
  });

  it('a type change uses the fill over the stored value as its USING expression', () => {
    const p = fillPlan(`type User { age: str; }`, `type User { age: int64; }`, {
      'default::User.age': '<int64>.age * 2',
    });
    expect(allSql(p)).toMatch(
      /alter column "age" type bigint using \("age"::bigint\) \* \(2::bigint\)/,
    );
  });

  it('refuses a fill of the wrong type, one that does not parse, and one nothing needs', () => {
    const a = `type User { required name: str; }`;
    const b = `type User { required name: str; required n: int64; }`;
    expect(() => fillPlan(a, b, { 'default::User.n': `'x'` })).toThrow(
      /gives std::str.*std::int64/,
    );
    expect(() => fillPlan(a, b, { 'default::User.n': `1 +` })).toThrow(/does not parse/);
    expect(() => fillPlan(a, b, { 'default::User.n': '1', 'default::User.name': `'x'` })).toThrow(
      /needs a fill for default::User.name/,
    );
  });
});
