import fs from 'node:fs';
import path from 'node:path';
import * as ql from '../../syntax';
import type { MigrationHints } from '../../model/migration';
import { buildSchema } from '../build';
import { planMigration } from '../diff';
import { applyDdl, generateDdl, pointerKindsOf } from '.';

/**
 * DDL from `from` to `to`: printed, parsed back to the same text, applied to `from`; the schema
 * it makes plans no step against `to`. Returns the text and the hints the DDL carries.
 */
function roundTrip(from: string, to: string, hints: MigrationHints = {}) {
  const target = buildSchema(to);
  const commands = generateDdl(
    ql.parseSchema(from),
    ql.parseSchema(to),
    hints,
    pointerKindsOf(target),
  );
  const text = ql.printDdl(commands);
  const parsed = ql.parseDdl(text);
  expect(ql.printDdl(parsed)).toBe(text);
  const applied = applyDdl(ql.parseSchema(from), parsed);
  const made = ql.printSchema(applied.schema);
  const plan = planMigration(buildSchema(made), target);
  expect({ text, steps: plan.steps.map((s) => s.description) }).toEqual({ text, steps: [] });
  return { text, hints: applied.hints, made };
}

const BLOG = `
module default {
  scalar type Status extending enum<Draft, Published>;
  abstract type Named { required name: str { constraint max_len_value(100); } }
  type User extending Named {
    bio: str;
    multi link follows: User { since: datetime; }
    index on (.name);
  }
  type Post {
    required title: str { default := 'untitled'; }
    required author: User { on target delete delete source; }
    status: Status;
    access policy own allow all using (.author.name = 'x');
    constraint exclusive on ((.title, .author));
  }
  alias Published := (select Post filter .status = Status.Published);
  function title_of(p: Post) -> str using (p.title);
  global me: uuid;
}
`;

describe('DDL between two schemas', () => {
  test('from nothing: every declaration is created, in Gel spelling', () => {
    const { text } = roundTrip('', BLOG);
    expect(text).toContain('create module default;');
    expect(text).toContain('create type default::User extending Named {');
    expect(text).toContain('    create property bio: str;');
    expect(text).toContain("        set default := 'untitled';");
    expect(text).toContain('create scalar type default::Status extending enum<Draft, Published>;');
    expect(text).toContain('create function default::title_of(p: Post) -> str using (p.title);');
  });

  test('to nothing: every declaration is dropped, then the module', () => {
    const { text } = roundTrip(BLOG, '');
    expect(text).toContain('drop type default::Post;');
    expect(text.trim().split('\n').at(-1)).toBe('drop module default;');
  });

  test('a rename is `rename to`, and the hint is read back from it', () => {
    const to = BLOG.replace('bio: str', 'about: str').replace(/\bPost\b/g, 'Article');
    const hints: MigrationHints = {
      renames: [
        { kind: 'type', from: 'default::Post', to: 'default::Article' },
        { kind: 'pointer', type: 'default::User', from: 'bio', to: 'about' },
      ],
    };
    const { text, hints: back } = roundTrip(BLOG, to, hints);
    expect(text).toContain('alter type default::Post {\n    rename to default::Article;');
    expect(text).toContain('alter property bio {\n        rename to about;\n    };');
    expect(back.renames).toEqual(expect.arrayContaining([...(hints.renames ?? [])]));
    expect(back.renames).toHaveLength(2);
  });

  test('a new required property with a fill is created, then made required using it', () => {
    const to = BLOG.replace('bio: str;', 'bio: str;\n    required handle: str;');
    const { text, hints } = roundTrip(BLOG, to, { fills: { 'User.handle': 'str_lower(.name)' } });
    expect(text).toContain('create property handle: str;');
    expect(text).toContain(
      'alter property handle {\n        set required using (str_lower(.name));',
    );
    expect(hints.fills).toEqual({ 'default::User.handle': 'str_lower(.name)' });
  });

  test('a type change with its conversion, and a property made required', () => {
    const from = 'type T { n: str; m: str; }';
    const to = 'type T { n: int64; required m: str; }';
    const { text, hints } = roundTrip(from, to, {
      fills: { 'T.n': '<int64>.n', 'T.m': "''" },
    });
    expect(text).toContain('set type int64 using (<int64>.n);');
    expect(text).toContain("set required using ('');");
    expect(hints.fills).toEqual({ 'default::T.n': '<int64>.n', 'default::T.m': "''" });
  });

  test('members that have no alter are dropped and created; fields set and reset', () => {
    const to = BLOG.replace("default := 'untitled';", "default := 'new';")
      .replace('index on (.name);', 'index on (.bio);')
      .replace("using (.author.name = 'x')", "using (.author.name = 'y')")
      .replace('enum<Draft, Published>', 'enum<Draft, Published, Archived>');
    const { text } = roundTrip(BLOG, to);
    expect(text).toContain("set default := 'new';");
    expect(text).toContain('drop index on (.name);');
    expect(text).toContain('create index on (.bio);');
    expect(text).toContain('drop access policy own;');
    expect(text).toContain('extending enum<Draft, Published, Archived>;');
  });

  test('link properties, computeds, cardinality, optionality and on-delete are altered in place', () => {
    const from =
      'type U { multi f: U { since: datetime; } c := 1; x: str; l: U { on target delete allow; } }';
    const to =
      'type U { multi f: U { since: str; note: str; } c := 2; required multi x: str; l: U; }';
    const { text } = roundTrip(from, to);
    expect(text).toContain('alter property since {\n            set type str;');
    expect(text).toContain('using (2);');
    expect(text).toContain('set multi;');
    expect(text).toContain('reset on target delete;');
  });

  test('modules, extensions, futures and nested modules', () => {
    const from = 'using future simple_scoping;\nmodule a { type X; }';
    const to = 'using extension pgvector;\nmodule a { module b { type Y; } }\ntype c::Z;';
    roundTrip(from, to);
  });

  test('each pair of the conformance schemas, both ways', () => {
    const dir = path.join(__dirname, '../../query/conformance/fixtures');
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.esdl'))
      .sort();
    const texts = files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
    let pairs = 0;
    for (let i = 0; i + 1 < texts.length; i++) {
      roundTrip('', texts[i] as string);
      roundTrip(texts[i] as string, texts[i + 1] as string);
      roundTrip(texts[i + 1] as string, texts[i] as string);
      pairs++;
    }
    expect(pairs).toBeGreaterThan(5);
  });
});

describe('applying DDL that does not fit the schema', () => {
  test.each([
    [
      'alter type default::Nope { create property x: str; };',
      'line 1: type default::Nope: there is no such type',
    ],
    ['create type default::U;\ncreate type default::U;', 'line 2: type default::U already exists'],
    ['alter type default::T { drop property y; };', 'there is no property y'],
    ['create type nope::T;', 'there is no module nope'],
  ])('%s', (ddl, message) => {
    const base = ql.parseSchema('type T { x: str; }');
    expect(() => applyDdl(base, ql.parseDdl(ddl))).toThrow(message);
  });

  test('a syntax error names its line and column', () => {
    expect(() => ql.parseDdl('create module a;\nalter type default::T { frobnicate; };')).toThrow(
      expect.objectContaining({ position: { line: 2, column: 25 } }),
    );
  });
});

describe('a function body changing its kind', () => {
  test('EdgeQL to SQL and back is `using sql ...` / `using (...)`', () => {
    const edgeql = 'function f(a: int64) -> int64 using (a + 1);';
    const sql = 'function f(a: int64) -> int64 using sql $$select a + 1$$;';
    const there = ql.printDdl(generateDdl(ql.parseSchema(edgeql), ql.parseSchema(sql)));
    expect(there).toContain("using sql 'select a + 1';");
    const back = ql.printDdl(generateDdl(ql.parseSchema(sql), ql.parseSchema(edgeql)));
    expect(back).toContain('using (a + 1);');
    for (const [from, to] of [
      [edgeql, sql],
      [sql, edgeql],
    ] as const) {
      const made = applyDdl(
        ql.parseSchema(from),
        generateDdl(ql.parseSchema(from), ql.parseSchema(to)),
      );
      expect(ql.printSchema(made.schema)).toContain(
        to.includes('sql') ? 'using sql' : 'using (a + 1)',
      );
    }
  });
});
