/**
 * No EdgeQL statement answers 500 (issue 28): random but grammatical statements over a fixture
 * schema, and mutations of valid ones, sent through the real server's `POST /query` over
 * loopback, answer a 2xx JSON `{"data": [...]}` or an error in the envelope of DECISIONS.md
 * ("One error envelope everywhere") whose `type` is one of svc's query error classes.
 *
 * The generator follows the statement forms: select with shapes (nested, computed, link
 * properties, backlinks `.<`, splats), filter / order by / offset / limit, with bindings,
 * for ... union, group ... using ... by, insert (nested inserts, unless conflict ... else),
 * update ... set (:=, +=, -= on multi pointers), delete, set operators (union, intersect,
 * except, distinct, ??, if/else), casts, tuples, arrays, json, std calls, and variables
 * (`<T>$v`) whose JSON values are of the right kind or not (wrong kinds, huge numbers, nulls,
 * missing, extra). Choices are type-aware where cheap: pointer names come from the fixture
 * schema, and an expression is built for the type its place wants, with a small chance of any
 * other type, so most statements pass the binder and reach the planner and PostgreSQL.
 *
 * Measured once (PGlite, seed 28, the default 600 + 200 runs): of the 600 grammatical statements
 * 228 (38%) answered 200 and 321 (53%) ran in the database (a 200, or an error PostgreSQL raised:
 * InvalidValueError, NumericOutOfRangeError, CardinalityViolationError, MissingRequiredError...);
 * 137 (23%) were refused by the binder (InvalidTypeError, InvalidReferenceError, QueryError,
 * cardinality checks), 141 (23%) for their variables (VALIDATION_ERROR, QueryArgumentError:
 * wrong kinds on purpose), 1 was a syntax error. Of the 200 mutated statements 184 were syntax
 * errors, 13 InvalidReferenceErrors, 3 ran. None was a 500. The 800 requests take 8 s on PGlite
 * (20 s on a loaded 2-core machine; 30 s more for Jest and the schema's migration); PostgreSQL
 * was not at hand to time. SVC_FUZZ_DUMP=<file> writes every request, its time and its answer,
 * one JSON line each, to measure it again.
 *
 * A failure prints fast-check's seed (re-run it with SVC_FUZZ_SEED=<seed>), the request, its
 * answer and the error the server logged; SVC_FUZZ_SHRINK=1 shrinks it first, SVC_FUZZ_RUNS=<n>
 * multiplies the runs for a longer hunt. The statements it found failing are minimised in
 * packages/core/src/query/conformance/cases/i28-fuzz.case.
 */
import { appendFileSync } from 'node:fs';
import * as core from '@svc/core';
import fc from 'fast-check';
import type { SvcServer } from '../src';
import { captureLogger, sharedDatabase, start } from './helpers';

const db = sharedDatabase();

// ---------------------------------------------------------------------------------------------
// The fixture: a schema with every common kind of pointer, described once for the generator.

const SDL = `
scalar type Mood extending enum<happy, sad, calm>;
global tenant: str;
abstract type Named {
  required name: str { constraint exclusive; }
}
type Person extending Named {
  age: int64;
  score: float64;
  nick: str;
  multi tags: str;
  mood: Mood;
  born: cal::local_date;
  data: json;
  best_friend: Person;
  multi friends: Person { since: datetime; strength: int32; }
  friend_count := count(.friends);
  shout := str_upper(.name);
}
type Post extending Named {
  required author: Person { role: str; }
  body: str;
  rating: int16;
  price: decimal;
  big: bigint;
  created: datetime;
  took: duration;
  ok: bool;
  code: uuid;
  nums: array<int32>;
  multi comments: Comment;
  multi likers: Person;
  single top_comment := (select .comments order by .votes desc limit 1);
}
type Misc {
  blob: bytes;
  ldt: cal::local_datetime;
  lt: cal::local_time;
  rd: cal::relative_duration;
  dd: cal::date_duration;
  span: range<int64>;
  pair: tuple<str, int64>;
  named: tuple<a: int64, b: str>;
  f32: float32;
  multi docs: json;
  owner: Named;
}
type Comment {
  required text: str;
  votes: int64 { default := 0; }
  required author: Person;
  parent: Comment;
}
`;

type Scalar =
  | 'str'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'float64'
  | 'bigint'
  | 'decimal'
  | 'bool'
  | 'datetime'
  | 'duration'
  | 'cal::local_date'
  | 'json'
  | 'uuid'
  | 'Mood'
  | 'array<str>'
  | 'array<int32>'
  | 'array<int64>'
  | 'bytes'
  | 'cal::local_datetime'
  | 'cal::local_time'
  | 'cal::relative_duration'
  | 'cal::date_duration'
  | 'range<int64>'
  | 'tuple<str, int64>'
  | 'tuple<a: int64, b: str>'
  | 'float32';
type ObjectName = 'Person' | 'Post' | 'Comment' | 'Named' | 'Misc';

interface Pointer {
  readonly name: string;
  /** A scalar type for a property, an object type for a link. */
  readonly target: Scalar | ObjectName;
  readonly multi?: boolean;
  readonly required?: boolean;
  readonly computed?: boolean;
  readonly linkProps?: readonly { name: string; type: Scalar }[];
}

const NAMED: readonly Pointer[] = [
  { name: 'id', target: 'uuid', required: true, computed: true },
  { name: 'name', target: 'str', required: true },
];
const TYPES: Record<ObjectName, readonly Pointer[]> = {
  Named: NAMED,
  Person: [
    ...NAMED,
    { name: 'age', target: 'int64' },
    { name: 'score', target: 'float64' },
    { name: 'nick', target: 'str' },
    { name: 'tags', target: 'str', multi: true },
    { name: 'mood', target: 'Mood' },
    { name: 'born', target: 'cal::local_date' },
    { name: 'data', target: 'json' },
    { name: 'best_friend', target: 'Person' },
    {
      name: 'friends',
      target: 'Person',
      multi: true,
      linkProps: [
        { name: 'since', type: 'datetime' },
        { name: 'strength', type: 'int32' },
      ],
    },
    { name: 'friend_count', target: 'int64', required: true, computed: true },
    { name: 'shout', target: 'str', required: true, computed: true },
  ],
  Post: [
    ...NAMED,
    {
      name: 'author',
      target: 'Person',
      required: true,
      linkProps: [{ name: 'role', type: 'str' }],
    },
    { name: 'body', target: 'str' },
    { name: 'rating', target: 'int16' },
    { name: 'price', target: 'decimal' },
    { name: 'big', target: 'bigint' },
    { name: 'created', target: 'datetime' },
    { name: 'took', target: 'duration' },
    { name: 'ok', target: 'bool' },
    { name: 'code', target: 'uuid' },
    { name: 'nums', target: 'array<int32>' },
    { name: 'comments', target: 'Comment', multi: true },
    { name: 'likers', target: 'Person', multi: true },
    { name: 'top_comment', target: 'Comment', computed: true },
  ],
  Misc: [
    { name: 'id', target: 'uuid', required: true, computed: true },
    { name: 'blob', target: 'bytes' },
    { name: 'ldt', target: 'cal::local_datetime' },
    { name: 'lt', target: 'cal::local_time' },
    { name: 'rd', target: 'cal::relative_duration' },
    { name: 'dd', target: 'cal::date_duration' },
    { name: 'span', target: 'range<int64>' },
    { name: 'pair', target: 'tuple<str, int64>' },
    { name: 'named', target: 'tuple<a: int64, b: str>' },
    { name: 'f32', target: 'float32' },
    { name: 'docs', target: 'json', multi: true },
    { name: 'owner', target: 'Named' },
  ],
  Comment: [
    { name: 'id', target: 'uuid', required: true, computed: true },
    { name: 'text', target: 'str', required: true },
    { name: 'votes', target: 'int64' },
    { name: 'author', target: 'Person', required: true },
    { name: 'parent', target: 'Comment' },
  ],
};
const OBJECTS = Object.keys(TYPES) as ObjectName[];
const CONCRETE: readonly ObjectName[] = ['Person', 'Post', 'Comment', 'Misc'];
/** Links pointing at each type: `.<name[is Source]` backlinks. */
const BACKLINKS: readonly { target: ObjectName; name: string; source: ObjectName }[] = [
  { target: 'Person', name: 'author', source: 'Post' },
  { target: 'Person', name: 'author', source: 'Comment' },
  { target: 'Person', name: 'friends', source: 'Person' },
  { target: 'Person', name: 'likers', source: 'Post' },
  { target: 'Comment', name: 'comments', source: 'Post' },
  { target: 'Comment', name: 'parent', source: 'Comment' },
  { target: 'Named', name: 'owner', source: 'Misc' },
];
const SCALARS: readonly Scalar[] = [
  'str',
  'int16',
  'int32',
  'int64',
  'float64',
  'bigint',
  'decimal',
  'bool',
  'datetime',
  'duration',
  'cal::local_date',
  'json',
  'uuid',
  'Mood',
  'array<str>',
  'array<int32>',
  'array<int64>',
  'bytes',
  'cal::local_datetime',
  'cal::local_time',
  'cal::relative_duration',
  'cal::date_duration',
  'range<int64>',
  'tuple<str, int64>',
  'tuple<a: int64, b: str>',
  'float32',
];
const NUMERIC: readonly Scalar[] = ['int16', 'int32', 'int64', 'float64', 'bigint', 'decimal'];
const isObject = (t: string): t is ObjectName => t in TYPES;

const SEED = `
insert Person { name := 'ann', age := 31, score := 1.5, nick := 'a', tags := {'x', 'y'},
  mood := Mood.happy, born := <cal::local_date>'1990-02-03', data := to_json('{"k": [1, 2]}') };
insert Person { name := 'bob', age := 45, tags := 'y',
  friends := (select detached Person { @since := <datetime>'2020-01-01T00:00:00Z', @strength := 3 }
    filter .name = 'ann') };
insert Person { name := 'cy', best_friend := (select detached Person filter .name = 'bob' limit 1) };
insert Post { name := 'p1', body := 'hello world', rating := 4, price := 9.99n, big := 12n,
  created := <datetime>'2024-05-06T07:08:09Z', took := <duration>'2 hours', ok := true,
  code := <uuid>'0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b', nums := [1, 2, 3],
  author := (select Person { @role := 'writer' } filter .name = 'ann' limit 1),
  likers := (select Person filter .name in {'bob', 'cy'}),
  comments := {
    (insert Comment { text := 'first', votes := 2, author := (select Person filter .name = 'bob' limit 1) }),
    (insert Comment { text := 'second', author := (select Person filter .name = 'cy' limit 1) }),
  } };
insert Misc { blob := b'\\x00ab', ldt := <cal::local_datetime>'2024-01-02T03:04:05',
  lt := <cal::local_time>'10:11:12', rd := <cal::relative_duration>'1 month 2 days',
  dd := <cal::date_duration>'3 days', span := range(1, 10), pair := ('t', 7),
  named := (a := 1, b := 'b'), f32 := <float32>2.5, docs := {to_json('1'), to_json('[]')},
  owner := (select Post filter .name = 'p1' limit 1) };
insert Post { name := 'p2', author := (select Person filter .name = 'bob' limit 1), ok := false };
`;
const RESET = [
  'delete Misc',
  'delete Post',
  'update Comment set { parent := {} }',
  'delete Comment',
  'update Person set { friends := {}, best_friend := {} }',
  'delete Person',
];

// ---------------------------------------------------------------------------------------------
// The generator: an imperative grammar over fast-check's `gen()`, so that a failure shrinks.

interface Rand {
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** Integers without fast-check's bias towards the ends (which would make `chance` lie). */
const uniform = (min: number, max: number) => fc.noBias(fc.integer({ min, max }));

function randOf(g: fc.GeneratorValue): Rand {
  return {
    int: (min, max) => g(uniform, min, max),
    pick: (items) => items[g(uniform, 0, items.length - 1)] as (typeof items)[0],
    chance: (p) => g(uniform, 0, 999) < p * 1000,
  };
}

/** The variables a statement declares, with the JSON values the request will send. */
type Vars = Map<string, unknown>;

interface Ctx {
  readonly r: Rand;
  readonly vars: Vars;
  /** The object type `.ptr` refers to here, if any. */
  readonly subject?: ObjectName;
  /** Names bound by `with` / `for` / `group using` and their types. */
  readonly names: readonly { name: string; type: Scalar | ObjectName }[];
  /** The last variable number handed out (shared by the whole statement). */
  readonly counter: { next: number };
  depth: number;
}

const within = (ctx: Ctx, patch: Partial<Ctx>): Ctx => ({ ...ctx, ...patch, depth: ctx.depth + 1 });

const STRINGS = ['', 'a', 'ann', 'p1', 'hello', "it\\'s", '\\n', 'ünï', '%', '_', 'x y'];

function literal(ctx: Ctx, type: Scalar): string {
  const { r } = ctx;
  switch (type) {
    case 'str':
      return `'${r.pick(STRINGS)}'`;
    case 'int16':
      return `(<int16>${r.pick(['0', '1', '-1', '32767', '-32768', '7'])})`;
    case 'int32':
      return `(<int32>${r.pick(['0', '3', '-5', '2147483647'])})`;
    case 'int64':
      return r.pick(['0', '1', '2', '-3', '10', '9223372036854775807', '-9223372036854775807']);
    case 'float64':
      return r.pick([
        '1.5',
        '0.0',
        '-2.25',
        '1e308',
        '3.0e-5',
        "(<float64>'NaN')",
        "(<float64>'inf')",
      ]);
    case 'bigint':
      return r.pick(['1n', '0n', '-12n', '123456789012345678901234567890n']);
    case 'decimal':
      return r.pick(['1.5n', '0.0n', '-9.99n', '1e100n']);
    case 'bool':
      return r.pick(['true', 'false']);
    case 'datetime':
      return `(<datetime>'${r.pick(['2024-05-06T07:08:09Z', '1970-01-01T00:00:00+00:00', '9999-12-31T23:59:59Z'])}')`;
    case 'duration':
      return `(<duration>'${r.pick(['1 hour', '2 hours 3 minutes', '-5 seconds', 'PT1H'])}')`;
    case 'cal::local_date':
      return `(<cal::local_date>'${r.pick(['2024-02-29', '1990-02-03', '0001-01-01'])}')`;
    case 'json':
      return r.pick([
        "to_json('[1, 2]')",
        'to_json(\'{"k": 1}\')',
        '(<json>1)',
        "(<json>'s')",
        "to_json('null')",
      ]);
    case 'uuid':
      return `(<uuid>'${r.pick(['0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b', '00000000-0000-0000-0000-000000000000'])}')`;
    case 'Mood':
      return r.pick(['Mood.happy', 'Mood.sad', "(<Mood>'calm')"]);
    case 'array<str>':
      return r.pick(["['a', 'b']", "['x']", '(<array<str>>[])']);
    case 'array<int32>':
      return r.pick(['[<int32>1, <int32>2]', '(<array<int32>>[])']);
    case 'array<int64>':
      return r.pick(['[1, 2, 3]', '[-1]', '(<array<int64>>[])']);
    case 'bytes':
      return r.pick(["b'abc'", "b''", "b'\\x00\\xff'"]);
    case 'cal::local_datetime':
      return `(<cal::local_datetime>'${r.pick(['2024-01-02T03:04:05', '0001-01-01T00:00:00'])}')`;
    case 'cal::local_time':
      return `(<cal::local_time>'${r.pick(['10:11:12', '00:00', '23:59:59.999999'])}')`;
    case 'cal::relative_duration':
      return `(<cal::relative_duration>'${r.pick(['1 month', '-2 years 3 days', 'PT5M'])}')`;
    case 'cal::date_duration':
      return `(<cal::date_duration>'${r.pick(['3 days', '1 month'])}')`;
    case 'range<int64>':
      return r.pick([
        'range(1, 10)',
        'range(<int64>{}, 3)',
        'range(5, 5)',
        'range(0, 1, inc_upper := true)',
      ]);
    case 'tuple<str, int64>':
      return r.pick(["('t', 7)", "('', -1)"]);
    case 'tuple<a: int64, b: str>':
      return r.pick(["(a := 1, b := 'b')", "(a := 0, b := '')"]);
    case 'float32':
      return r.pick(['(<float32>2.5)', "(<float32>'NaN')", '(<float32>1e38)']);
  }
}

/** A JSON value for a variable of this type: usually of the right kind, sometimes not. */
function variableValue(r: Rand, type: Scalar): unknown {
  if (r.chance(0.12))
    return r.pick([
      null,
      'nope',
      '',
      1e308,
      -1,
      2 ** 63,
      '99999999999999999999999999',
      1.5,
      true,
      [],
      {},
      [1, 'a'],
      { a: { b: [null] } },
      '2024-13-45T99:00:00Z',
      '\u0000',
    ]);
  switch (type) {
    case 'str':
      return r.pick(['ann', 'x', '', 'ünï']);
    case 'int16':
    case 'int32':
    case 'int64':
      return r.pick([0, 3, -7, 40000, 2147483648, 9007199254740991]);
    case 'float64':
    case 'decimal':
      return r.pick([0.5, -1, 1e300, '1.25']);
    case 'bigint':
      return r.pick(['12345678901234567890', 5, '-3']);
    case 'bool':
      return r.pick([true, false]);
    case 'datetime':
      return r.pick(['2024-05-06T07:08:09Z', '2024-05-06T07:08:09']);
    case 'duration':
      return r.pick(['PT1H', '1 hour', 'P1Y']);
    case 'cal::local_date':
      return r.pick(['2024-02-29', '2023-02-29']);
    case 'json':
      return r.pick([{ k: 1 }, [1, 2], 'str', null, 3]);
    case 'uuid':
      return r.pick(['0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b', 'not-a-uuid']);
    case 'Mood':
      return r.pick(['happy', 'angry']);
    case 'array<str>':
      return r.pick([['a', 'b'], [], [null]]);
    case 'array<int32>':
    case 'array<int64>':
      return r.pick([[1, 2], [], ['x'], [2 ** 40]]);
    case 'bytes':
      return r.pick(['YWJj', 'not base64!', '']);
    case 'cal::local_datetime':
      return r.pick(['2024-01-02T03:04:05', '2024-01-02T03:04:05Z']);
    case 'cal::local_time':
      return r.pick(['10:11:12', '25:00']);
    case 'cal::relative_duration':
    case 'cal::date_duration':
      return r.pick(['P1M', '1 month', 'PT1H']);
    case 'range<int64>':
      return r.pick([
        { lower: 1, upper: 3, inc_lower: true, inc_upper: false },
        { empty: true },
        [1, 2],
      ]);
    case 'tuple<str, int64>':
      return r.pick([['a', 1], ['a'], { a: 1 }]);
    case 'tuple<a: int64, b: str>':
      return r.pick([{ a: 1, b: 'x' }, { a: 'x' }, [1, 'x']]);
    case 'float32':
      return r.pick([1.5, 1e39, -0]);
  }
}

function variable(ctx: Ctx, type: Scalar): string {
  const { r, vars } = ctx;
  ctx.counter.next += 1;
  const name = `v${ctx.counter.next}`;
  const optional = r.chance(0.2);
  if (!r.chance(0.02)) vars.set(name, variableValue(r, type));
  const shown = type === 'Mood' ? 'str' : type;
  return `(<${optional ? 'optional ' : ''}${shown}>$${name})`;
}

/** A pointer of the subject whose target is `type`, if one exists. */
function pointersOf(subject: ObjectName | undefined, type: Scalar | ObjectName): Pointer[] {
  if (!subject) return [];
  return TYPES[subject].filter((p) => p.target === type);
}

/** An expression meant to be of `type` (scalar); sometimes of another type, on purpose. */
function expr(ctx: Ctx, type: Scalar): string {
  const { r } = ctx;
  if (r.chance(0.004)) type = r.pick(SCALARS);
  const leaf = ctx.depth > 3 || r.chance(0.35);
  if (leaf) {
    const paths = pointersOf(ctx.subject, type);
    const named = ctx.names.filter((n) => n.type === type);
    const options: (() => string)[] = [() => literal(ctx, type), () => variable(ctx, type)];
    if (paths.length)
      options.push(
        () => `.${r.pick(paths).name}`,
        () => `.${r.pick(paths).name}`,
      );
    if (named.length) options.push(() => r.pick(named).name);
    if (type === 'str') options.push(() => 'global tenant');
    return r.pick(options)();
  }
  const sub = within(ctx, {});
  const generic: (() => string)[] = [
    () => `(${expr(sub, type)} ?? ${expr(sub, type)})`,
    () => `(${expr(sub, type)} if ${expr(sub, 'bool')} else ${expr(sub, type)})`,
    () => `(<${type}>${expr(sub, r.pick(castableTo(type)))})`,
    () => `(select ${expr(sub, type)})`,
    () => `assert_single(${setOf(sub, type)})`,
    () => `(${setOf(sub, type)} ${r.pick(['union', 'intersect', 'except'])} ${setOf(sub, type)})`,
    () => `(distinct ${setOf(sub, type)})`,
    () => `(${expr(sub, type)}, ${expr(sub, r.pick(SCALARS))}).0`,
    () => `[${expr(sub, type)}][0]`,
    () => `(x := ${expr(sub, type)}).x`,
    () => pathThroughLink(sub, type),
    () => `assert_exists(${expr(sub, type)})`,
    () => `assert_single(assert_distinct(${setOf(sub, type)}))`,
    () =>
      `assert_single((select (for q in ${setOf(sub, r.pick(SCALARS))} union ${expr(sub, type)}) limit 1))`,
    () => `(with q := ${expr(sub, type)} select q)`,
    () => `(if ${expr(sub, 'bool')} then ${expr(sub, type)} else ${expr(sub, type)})`,
    () => `(<${type}>${r.pick(["'1'", "'x'", '{}', "to_json('null')", "to_json('[1]')"])})`,
  ];
  const specific = typed(sub, type);
  return r.pick(specific.length && r.chance(0.6) ? specific : generic)();
}

/** Types a cast to `type` accepts (mostly: a value that fails to convert is fine). */
function castableTo(type: Scalar): readonly Scalar[] {
  if (type.startsWith('array<')) return ['json', 'array<str>', 'array<int32>', 'array<int64>'];
  if (type === 'uuid') return ['str', 'json', 'uuid'];
  if (type === 'bool') return ['str', 'json', 'bool'];
  return ['str', 'json', ...NUMERIC, type];
}

/** A set of `type`: a literal set, a path, a subquery, an unpacked array. */
function setOf(ctx: Ctx, type: Scalar): string {
  const { r } = ctx;
  const options: (() => string)[] = [
    () => `{${expr(ctx, type)}, ${expr(ctx, type)}}`,
    () => `(<${type}>{})`,
    () => expr(ctx, type),
  ];
  // Link properties as sets: `.friends@since` from the subject, `Person.friends@strength`.
  for (const owner of CONCRETE)
    for (const link of TYPES[owner])
      for (const lp of link.linkProps ?? [])
        if (lp.type === type) {
          options.push(() => `${owner}.${link.name}@${lp.name}`);
          if (ctx.subject === owner) options.push(() => `.${link.name}@${lp.name}`);
        }
  if (type === 'str') options.push(() => `(introspect typeof ${expr(ctx, r.pick(SCALARS))}).name`);
  const owners = CONCRETE.filter((t) => pointersOf(t, type).length);
  if (owners.length) {
    options.push(() => {
      const owner = r.pick(owners);
      const p = r.pick(pointersOf(owner, type));
      return `${owner}.${p.name}`;
    });
    options.push(() => {
      const owner = r.pick(owners);
      const p = r.pick(pointersOf(owner, type));
      const sub = within(ctx, { subject: owner });
      return `(select ${owner} filter ${expr(sub, 'bool')}).${p.name}`;
    });
  }
  if (type === 'json')
    options.push(
      () => `json_array_unpack(${expr(ctx, 'json')})`,
      () => `json_object_unpack(${expr(ctx, 'json')}).1`,
    );
  if (type === 'int64') options.push(() => `range_unpack(${boundedRange(ctx)})`);
  if (type.startsWith('array<')) options.push(() => `[${setOf(ctx, 'str')}]`);
  else if (SCALARS.includes(`array<${type}>` as Scalar))
    options.push(() => `array_unpack(${expr(ctx, `array<${type}>` as Scalar)})`);
  return r.pick(options)();
}

/**
 * A range of at most 40 integers to unpack: a random one could hold 2^63 (PGlite runs in this
 * process: a statement that long would stall the test, not time out).
 */
function boundedRange(ctx: Ctx): string {
  return `(${expr(ctx, 'range<int64>')} * range(-20, 20))`;
}

/** `.link.ptr` or `.link@prop`, or `.<back[is T].ptr`, of `type`, from the subject. */
function pathThroughLink(ctx: Ctx, type: Scalar): string {
  const { r } = ctx;
  const subject = ctx.subject;
  if (!subject) return literal(ctx, type);
  const links = TYPES[subject].filter((p) => isObject(p.target));
  const backs = BACKLINKS.filter((b) => b.target === subject);
  if (backs.length && r.chance(0.3)) {
    const b = r.pick(backs);
    const ps = pointersOf(b.source, type);
    const tail = ps.length ? r.pick(ps).name : r.pick(TYPES[b.source]).name;
    const filter = r.chance(0.5) ? `[is ${b.source}]` : '';
    return `assert_single((select .<${b.name}${filter} limit 1).${tail})`;
  }
  if (!links.length) return literal(ctx, type);
  const link = r.pick(links);
  const withProp = link.linkProps?.filter((lp) => lp.type === type) ?? [];
  if (withProp.length && r.chance(0.5)) {
    const lp = r.pick(withProp);
    return link.multi
      ? `assert_single((select .${link.name} limit 1)@${lp.name})`
      : `.${link.name}@${lp.name}`;
  }
  const target = link.target as ObjectName;
  const ps = pointersOf(target, type);
  const tail = ps.length ? r.pick(ps).name : r.pick(TYPES[target]).name;
  return link.multi
    ? `assert_single((select .${link.name} limit 1).${tail})`
    : `.${link.name}.${tail}`;
}

/** Operators and std calls whose result is `type`. */
function typed(ctx: Ctx, type: Scalar): (() => string)[] {
  const { r } = ctx;
  const e = (t: Scalar) => expr(ctx, t);
  switch (type) {
    case 'str':
      return [
        () => `(${e('str')} ++ ${e('str')})`,
        () => `${r.pick(['str_upper', 'str_lower', 'str_trim', 'str_reverse'])}(${e('str')})`,
        () =>
          `to_str(${e(r.pick(['int64', 'float64', 'decimal', 'bigint', 'datetime', 'duration', 'json', 'cal::local_date', 'str'] as const))})`,
        () => `${e('str')}[${e('int64')}]`,
        () => `${e('str')}[${e('int64')}:${e('int64')}]`,
        () => `str_repeat(${e('str')}, ${e('int64')})`,
        () => `array_join(${e('array<str>')}, ${e('str')})`,
        () => `str_pad_start(${e('str')}, ${e('int64')}, ${e('str')})`,
        () => `re_replace(${e('str')}, ${e('str')}, ${e('str')})`,
        () => `(<str>${e(r.pick(SCALARS))})`,
        () => `json_typeof(${e('json')})`,
        () => `to_str(${e('datetime')}, ${e('str')})`,
        () => `std::str_split(${e('str')}, ${e('str')})[${e('int64')}]`,
        () => `${objectSet(ctx)}.__type__.name`,
        () => `(<str>${e('json')}['k'])`,
        () => `(json_get(${e('json')}, '0') ?? <json>'')[0]`,
        () => `std::enc::base64_encode(${e('bytes')})`,
        () => `to_str(${e('cal::local_datetime')}, 'YYYY')`,
        () => `(${e('tuple<a: int64, b: str>')}).b`,
        () => `(${e('tuple<str, int64>')}).0`,
        () => `str_trim_start(${e('str')}, ${e('str')})`,
        () => `(${e('str')} ++ <str>${e(r.pick(['int64', 'uuid', 'bool', 'json'] as const))})`,
      ];
    case 'int16':
    case 'int32':
    case 'int64':
    case 'bigint':
    case 'decimal':
    case 'float64':
      return [...arithmetic(ctx, type), ...numericCalls(ctx, type)];
    case 'bool':
      return [
        () => {
          const t = r.pick(SCALARS);
          return `(${e(t)} ${r.pick(['=', '!=', '<', '<=', '>', '>=', '?=', '?!='])} ${e(t)})`;
        },
        () => `(${e('bool')} ${r.pick(['and', 'or'])} ${e('bool')})`,
        () => `(not ${e('bool')})`,
        () => `(exists ${setOf(ctx, r.pick(SCALARS))})`,
        () => {
          const t = r.pick(SCALARS);
          return `(${e(t)} ${r.pick(['in', 'not in'])} ${setOf(ctx, t)})`;
        },
        () => `(${e('str')} ${r.pick(['like', 'ilike', 'not like'])} ${e('str')})`,
        () => `contains(${e('str')}, ${e('str')})`,
        () => `re_test(${e('str')}, ${e('str')})`,
        () => `${r.pick(['all', 'any'])}(${setOf(ctx, 'bool')})`,
        () => `(${objectSet(ctx)} is ${r.pick(OBJECTS)})`,
        () => `contains(${e('array<int64>')}, ${e('int64')})`,
        () => `contains(${e('range<int64>')}, ${e('int64')})`,
        () => `overlaps(${e('range<int64>')}, ${e('range<int64>')})`,
        () => `(${objectSet(ctx)} in ${objectSet(ctx)})`,
        () => `(${objectSet(ctx)} = ${objectSet(ctx)})`,
        () => `(${e('tuple<str, int64>')} = ${e('tuple<str, int64>')})`,
        () => `(${e('json')} ?= ${e('json')})`,
        () => `(<bool>${e('json')})`,
        () => `(exists ${objectSet(ctx)})`,
      ];
    case 'datetime':
      return [
        () => `(${e('datetime')} + ${e('duration')})`,
        () => `(${e('datetime')} - ${e('duration')})`,
        () => `datetime_truncate(${e('datetime')}, ${e('str')})`,
        () => `to_datetime(${e('str')})`,
        () => 'datetime_of_statement()',
      ];
    case 'duration':
      return [
        () => `(${e('datetime')} - ${e('datetime')})`,
        () => `to_duration(hours := ${e('int64')})`,
        () => `(${e('duration')} * 1)`,
        () => `duration_truncate(${e('duration')}, ${e('str')})`,
      ];
    case 'json':
      return [
        () => `to_json(${e('str')})`,
        () => `(<json>${e(r.pick(SCALARS))})`,
        () => `${e('json')}[${e(r.pick(['str', 'int64'] as const))}]`,
        () => `json_get(${e('json')}, ${e('str')})`,
        () => `(<json>(a := ${e('int64')}, b := ${e('str')}))`,
        () => `json_set(${e('json')}, ${e('str')}, value := ${e('json')})`,
        () => `(<json>${objectSet(ctx)} { name })`,
      ];
    case 'array<str>':
      return [
        () => `array_agg(${setOf(ctx, 'str')})`,
        () => `str_split(${e('str')}, ${e('str')})`,
        () => `(${e('array<str>')} ++ ${e('array<str>')})`,
        () => `(<array<str>>${e('json')})`,
        () => `${e('array<str>')}[${e('int64')}:${e('int64')}]`,
        () => `re_match(${e('str')}, ${e('str')})`,
      ];
    case 'array<int64>':
    case 'array<int32>':
      return [
        () => `array_agg(${setOf(ctx, type === 'array<int64>' ? 'int64' : 'int32')})`,
        () => `(${e(type)} ++ ${e(type)})`,
        () => `(<${type}>${e('json')})`,
      ];
    case 'uuid':
      return [
        () => `${objectSet(ctx)}.id`,
        () => 'uuid_generate_v4()',
        () => `(<uuid>${e('str')})`,
      ];
    case 'Mood':
      return [() => `(<Mood>${e('str')})`, () => `max(${setOf(ctx, 'Mood')})`];
    case 'bytes':
      return [
        () => `to_bytes(${e('str')})`,
        () => `(${e('bytes')} ++ ${e('bytes')})`,
        () => `${e('bytes')}[${e('int64')}:${e('int64')}]`,
        () => `std::enc::base64_decode(${e('str')})`,
      ];
    case 'cal::local_datetime':
      return [
        () =>
          `cal::to_local_datetime(${e('datetime')}, ${r.chance(0.7) ? r.pick(["'UTC'", "'Europe/Paris'"]) : e('str')})`,
        () =>
          `(${e('cal::local_datetime')} + ${e(r.pick(['duration', 'cal::relative_duration'] as const))})`,
      ];
    case 'cal::local_time':
      return [
        () => `cal::to_local_time(${e('str')})`,
        () => `(${e('cal::local_time')} - ${e('duration')})`,
      ];
    case 'cal::relative_duration':
      return [
        () => `(${e('cal::local_date')} - ${e('cal::local_date')})`,
        () => `cal::to_relative_duration(months := ${e('int64')})`,
        () => `cal::duration_normalize_hours(${e('cal::relative_duration')})`,
      ];
    case 'cal::date_duration':
      return [() => `cal::to_date_duration(days := ${e('int64')})`];
    case 'range<int64>':
      return [
        () => `range(${e('int64')}, ${e('int64')})`,
        () => `(${e('range<int64>')} + ${e('range<int64>')})`,
        () => `(${e('range<int64>')} * ${e('range<int64>')})`,
      ];
    case 'tuple<str, int64>':
      return [() => `(${e('str')}, ${e('int64')})`, () => `(<tuple<str, int64>>${e('json')})`];
    case 'tuple<a: int64, b: str>':
      return [
        () => `(a := ${e('int64')}, b := ${e('str')})`,
        () => `(<tuple<a: int64, b: str>>${e('json')})`,
      ];
    case 'float32':
      return [() => `(<float32>${e('float64')})`, ...arithmetic(ctx, type)];
    case 'cal::local_date':
      return [
        () => `cal::to_local_date(${e('str')})`,
        () => `cal::to_local_date(${e('int64')}, ${e('int64')}, ${e('int64')})`,
        () => `cal::to_local_date(${e('datetime')}, ${e('str')})`,
      ];
  }
}

/** Operators over one numeric type whose result is of that type (Gel's int `/` is a float). */
function arithmetic(ctx: Ctx, type: Scalar): (() => string)[] {
  const { r } = ctx;
  const e = (t: Scalar) => expr(ctx, t);
  const ops = ['int16', 'int32', 'int64', 'bigint'].includes(type)
    ? ['+', '-', '*', '//', '%']
    : ['+', '-', '*', '/', '//', '%', '^'];
  return [
    () => `(${e(type)} ${r.pick(ops)} ${e(type)})`,
    () => `(-${e(type)})`,
    () => `math::abs(${e(type)})`,
    () => `${r.pick(['sum', 'min', 'max'])}(${setOf(ctx, type)})`,
    () => `(<${type}>${e('json')})`,
    () => `(<${type}>${e('str')})`,
  ];
}

/** std calls answering `type`. */
function numericCalls(ctx: Ctx, type: Scalar): (() => string)[] {
  const { r } = ctx;
  const e = (t: Scalar) => expr(ctx, t);
  switch (type) {
    case 'int64':
      return [
        () => `count(${setOf(ctx, r.pick(SCALARS))})`,
        () => `(select count(${r.pick(CONCRETE)}))`,
        () => `len(${e(r.pick(['str', 'array<int64>', 'array<str>'] as const))})`,
        () => `to_int64(${e('str')})`,
        () => `find(${e('str')}, ${e('str')})`,
        () => `${e('array<int64>')}[${e('int64')}]`,
        () => `bit_and(${e('int64')}, ${e('int64')})`,
        () => `array_get(${e('array<int64>')}, ${e('int64')}) ?? 0`,
        () => `math::floor(${e('int64')})`,
        () => `(${e('tuple<a: int64, b: str>')}).a`,
        () => `(${e('tuple<str, int64>')}).1`,
        () => `assert_single((select enumerate(${setOf(ctx, r.pick(SCALARS))}) limit 1).0)`,
        () => `len(${e('bytes')})`,
        () => `sum(range_unpack(${boundedRange(ctx)}))`,
        () => `(select count(${objectSet(ctx)}))`,
      ];
    case 'int32':
      return [() => `to_int32(${e('str')})`, () => `${e('array<int32>')}[${e('int64')}]`];
    case 'int16':
      return [() => `to_int16(${e('str')})`, () => `bit_or(${e('int16')}, ${e('int16')})`];
    case 'float64':
      return [
        () => `math::mean(${setOf(ctx, r.pick(['int64', 'float64'] as const))})`,
        () =>
          `datetime_get(${e('datetime')}, ${r.chance(0.8) ? `'${r.pick(['year', 'hour', 'epochseconds', 'nope'])}'` : e('str')})`,
        () => `to_float64(${e('str')})`,
        () => `round(${e('float64')})`,
        () => `math::ln(${e('float64')})`,
        () => `math::stddev(${setOf(ctx, 'float64')})`,
        () => `random()`,
      ];
    case 'decimal':
      return [
        () => `to_decimal(${e('str')})`,
        () => `round(${e('decimal')}, ${e('int64')})`,
        () => `math::mean(${setOf(ctx, 'decimal')})`,
      ];
    case 'bigint':
      return [() => `to_bigint(${e('str')})`, () => `round(${e('bigint')})`];
    default:
      return [];
  }
}

/** A set of objects: a type, a filtered subquery, a path, a bound name. */
function objectSet(ctx: Ctx, want?: ObjectName): string {
  const { r } = ctx;
  const type = want ?? r.pick(OBJECTS);
  const options: (() => string)[] = [
    () => type,
    () =>
      `(select ${type} filter ${expr(within(ctx, { subject: type }), 'bool')} limit ${r.int(0, 3)})`,
    () => `(select ${type} order by .id limit 1)`,
  ];
  const named = ctx.names.filter((n) => n.type === type);
  if (named.length) options.push(() => r.pick(named).name);
  const links = ctx.subject ? pointersOf(ctx.subject, type) : [];
  if (links.length) options.push(() => `.${r.pick(links).name}`);
  if (type !== 'Named' && ctx.depth < 4)
    options.push(
      () => `Named[is ${type}]`,
      () => `(${objectSet(within(ctx, {}), type)} union ${objectSet(within(ctx, {}), type)})`,
      () => `(${objectSet(within(ctx, {}), type)} ?? ${objectSet(within(ctx, {}), type)})`,
      () => `(select ${type} filter .id = ${expr(within(ctx, {}), 'uuid')})`,
      () => `(select detached ${type} limit 1)`,
    );
  const backs = BACKLINKS.filter(
    (b) => b.source === type && ctx.subject && b.target === ctx.subject,
  );
  if (backs.length) options.push(() => `.<${r.pick(backs).name}[is ${type}]`);
  return r.pick(options)();
}

// ---- shapes

function shape(ctx: Ctx, type: ObjectName, linkProps: readonly { name: string }[] = []): string {
  const { r } = ctx;
  const sub = within(ctx, { subject: type });
  const pointers = TYPES[type];
  const n = r.int(0, 4);
  const elements: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const choice = r.int(0, 9);
    if (choice <= 3 || sub.depth > 4) {
      elements.push(r.pick(pointers).name);
    } else if (choice === 4 && linkProps.length) {
      elements.push(`@${r.pick(linkProps).name}`);
    } else if (choice === 5) {
      const t = r.pick(SCALARS);
      elements.push(`c${i} := ${expr(sub, t)}`);
    } else if (choice === 6) {
      const backs = BACKLINKS.filter((b) => b.target === type);
      if (backs.length) {
        const b = r.pick(backs);
        const is = r.chance(0.6) ? `[is ${b.source}]` : '';
        const inner = is ? ` ${shape(sub, b.source)}` : '';
        elements.push(`b${i} := .<${b.name}${is}${inner}`);
      } else elements.push('*');
    } else if (choice === 7) {
      if (type === 'Named' && r.chance(0.5)) {
        const sub2 = r.pick(['Person', 'Post'] as const);
        elements.push(`[is ${sub2}].${r.pick(TYPES[sub2]).name}`);
      } else elements.push(r.pick(['*', '**', 'id', '__type__: { name }']));
    } else {
      const links = pointers.filter((p) => isObject(p.target));
      if (!links.length) continue;
      const link = r.pick(links);
      // A pointer named twice is an error (Gel's too): rarely written. Decided before the
      // sub-shape is made, so that no variable it declares goes unused.
      if (elements.some((e) => e.startsWith(`${link.name}:`)) && !r.chance(0.05)) continue;
      const target = link.target as ObjectName;
      const inner = within(sub, { subject: target });
      const clauses = link.multi && r.chance(0.5) ? ` ${clausesFor(inner, target)}` : '';
      elements.push(`${link.name}: ${shape(sub, target, link.linkProps ?? [])}${clauses}`);
    }
  }
  if (!elements.length) elements.push('id');
  // The same for plain names (nothing generated is dropped with them).
  const seen = new Set<string>();
  const unique = elements.filter((e) => {
    const name = /^[@\w]+/.exec(e)?.[0] ?? e;
    if (seen.has(name) && !r.chance(0.05)) return false;
    seen.add(name);
    return true;
  });
  return `{ ${unique.join(', ')} }`;
}

function clausesFor(ctx: Ctx, type: ObjectName): string {
  const { r } = ctx;
  const sub = within(ctx, { subject: type });
  const parts: string[] = [];
  if (r.chance(0.5)) parts.push(`filter ${expr(sub, 'bool')}`);
  if (r.chance(0.4)) {
    const keys = [expr(sub, r.pick(SCALARS))];
    if (r.chance(0.3)) keys.push(`.${r.pick(TYPES[type]).name}`);
    parts.push(
      `order by ${keys.map((k) => `${k} ${r.pick(['', 'asc', 'desc', 'desc empty first', 'asc empty last'])}`).join(' then ')}`,
    );
  }
  // (Each choice is made before its text: a variable in text thrown away would go unused.)
  const count = () => (r.chance(0.5) ? r.int(0, 3).toString() : expr(sub, 'int64'));
  if (r.chance(0.3)) parts.push(`offset ${count()}`);
  if (r.chance(0.4)) parts.push(`limit ${count()}`);
  return parts.join(' ');
}

// ---- statements

function selectStatement(ctx: Ctx): string {
  const { r } = ctx;
  const type = r.pick(OBJECTS);
  if (r.chance(0.25)) {
    // a scalar statement
    const t = r.pick(SCALARS);
    return `select ${r.chance(0.5) ? expr(ctx, t) : setOf(ctx, t)}`;
  }
  if (r.chance(0.1)) {
    const t = r.pick(SCALARS);
    return r.chance(0.5)
      ? `select (${expr(ctx, t)}, ${expr(ctx, r.pick(SCALARS))})`
      : `select (k := ${expr(ctx, t)}, l := ${expr(ctx, r.pick(SCALARS))})`;
  }
  if (r.chance(0.08)) {
    return `select { a := ${expr(ctx, r.pick(SCALARS))}, o := ${objectSet(ctx)} ${shape(ctx, type)} }`;
  }
  const source = r.chance(0.8) ? type : objectSet(ctx, type);
  const alias = r.chance(0.2) ? 'x := ' : '';
  const bound = alias ? within(ctx, { names: [...ctx.names, { name: 'x', type }] }) : ctx;
  return `select ${alias}${source} ${shape(ctx, type)} ${clausesFor(bound, type)}`;
}

function insertStatement(ctx: Ctx, type: ObjectName = r0(ctx)): string {
  const { r } = ctx;
  const sub = within(ctx, { subject: undefined });
  const elements: string[] = [];
  for (const p of TYPES[type]) {
    if (p.computed) continue;
    if (!p.required && !r.chance(0.4)) continue;
    if (p.required && r.chance(0.05)) continue; // a missing required pointer
    if (isObject(p.target)) {
      const target = p.target;
      const value =
        sub.depth < 3 && r.chance(0.3) && target !== 'Named'
          ? p.multi && r.chance(0.4)
            ? `{(${insertStatement(within(sub, {}), target)}), (${insertStatement(within(sub, {}), target)})}`
            : `(${insertStatement(within(sub, {}), target)})`
          : `(select ${target === type || r.chance(0.3) ? 'detached ' : ''}${target} ${p.linkProps && r.chance(0.5) ? `{ @${p.linkProps[0]?.name} := ${expr(sub, p.linkProps[0]?.type ?? 'str')} } ` : ''}filter ${expr(within(sub, { subject: target }), 'bool')} limit ${p.multi ? r.int(0, 3) : 1})`;
      elements.push(`${p.name} := ${value}`);
    } else {
      const v =
        p.name === 'name' && r.chance(0.7)
          ? `'${r.pick(['ann', 'new', 'n1', 'n2', 'p1'])}'`
          : p.multi
            ? setOf(sub, p.target)
            : expr(sub, p.target);
      elements.push(`${p.name} := ${v}`);
    }
  }
  let text = `insert ${type} { ${elements.join(', ')} }`;
  if (r.chance(0.3) && (type === 'Person' || type === 'Post')) {
    text += ' unless conflict';
    if (r.chance(0.8)) text += ' on .name';
    if (text.endsWith('.name') && r.chance(0.6))
      text += ` else (${r.chance(0.5) ? `select ${type}` : `update ${type} set { name := .name ++ '!' }`})`;
  }
  return text;
}

function r0(ctx: Ctx): ObjectName {
  return ctx.r.pick(CONCRETE);
}

function updateStatement(ctx: Ctx, type: ObjectName = ctx.r.pick(OBJECTS)): string {
  const { r } = ctx;
  const sub = within(ctx, { subject: type });
  const writable = TYPES[type].filter((p) => !p.computed);
  const sets: string[] = [];
  const n = r.int(1, 3);
  for (let i = 0; i < n; i += 1) {
    const p = r.pick(writable);
    const op = p.multi ? r.pick([':=', '+=', '-=']) : r.chance(0.05) ? '+=' : ':=';
    const lp = p.linkProps && r.chance(0.4) ? p.linkProps : undefined;
    const lpShape = lp
      ? ` { ${lp.map((x) => `@${x.name} := ${expr(sub, x.type)}`).join(', ')} }`
      : '';
    const value = isObject(p.target)
      ? r.chance(0.15) && lp
        ? `.${p.name}${lpShape}`
        : `(select ${r.chance(0.5) ? 'detached ' : ''}${p.target}${lpShape} filter ${expr(within(sub, { subject: p.target }), 'bool')} limit ${r.int(0, 2)})`
      : p.multi
        ? setOf(sub, p.target)
        : expr(sub, p.target);
    sets.push(`${p.name} ${op} ${value}`);
  }
  const filter = r.chance(0.8) ? ` filter ${expr(sub, 'bool')}` : '';
  return `update ${type}${filter} set { ${sets.join(', ')} }`;
}

function deleteStatement(ctx: Ctx, type: ObjectName = ctx.r.pick(OBJECTS)): string {
  const { r } = ctx;
  const sub = within(ctx, { subject: type });
  const order = r.chance(0.2) ? ` order by ${expr(sub, r.pick(SCALARS))}` : '';
  return `delete ${type} filter ${expr(sub, 'bool')}${order}${r.chance(0.3) ? ` limit ${r.int(0, 2)}` : ''}`;
}

function groupStatement(ctx: Ctx): string {
  const { r } = ctx;
  const type = r.pick(CONCRETE);
  const sub = within(ctx, { subject: type });
  const scalars = TYPES[type].filter((p) => !isObject(p.target) && !p.multi && p.name !== 'id');
  const keys: string[] = [];
  let using = '';
  if (r.chance(0.5)) {
    using = ` using k := ${expr(sub, r.pick(SCALARS))}`;
    keys.push('k');
  }
  if (r.chance(0.7) || !keys.length) keys.push(`.${r.pick(scalars).name}`);
  const by = r.chance(0.2) ? `{${keys.join(', ')}}` : keys.join(', ');
  const g = `group ${type} ${r.chance(0.5) ? shape(ctx, type) : ''}${using} by ${by}`;
  if (r.chance(0.5)) return g;
  const keyShape = keys.map((k) => k.replace(/^\./, '')).join(', ');
  return `select (${g}) { key: { ${keyShape} }, grouping, n := count(.elements) } ${r.chance(0.5) ? 'order by .n' : ''}`;
}

function forStatement(ctx: Ctx): string {
  const { r } = ctx;
  const t: Scalar | ObjectName = r.chance(0.5) ? r.pick(SCALARS) : r.pick(CONCRETE);
  const iter = isObject(t) ? objectSet(ctx, t) : setOf(ctx, t);
  const sub = within(ctx, { names: [...ctx.names, { name: 'it', type: t }] });
  const body = r.pick([
    () => `(select ${expr(sub, r.pick(SCALARS))})`,
    () => `(${statement(sub)})`,
    () => `(insert ${insertStatement(sub).slice('insert '.length)})`,
  ])();
  return `for it in ${iter} union ${body}`;
}

function withStatement(ctx: Ctx): string {
  const { r } = ctx;
  const bindings: string[] = [];
  const names = [...ctx.names];
  const n = r.int(1, 3);
  for (let i = 0; i < n; i += 1) {
    const name = `w${i}`;
    const inner = within(ctx, { names });
    if (r.chance(0.5)) {
      const t = r.pick(SCALARS);
      bindings.push(`${name} := ${r.chance(0.5) ? expr(inner, t) : setOf(inner, t)}`);
      names.push({ name, type: t });
    } else {
      const t = r.pick(CONCRETE);
      const v = r.chance(0.2) ? `(${insertStatement(inner, t)})` : objectSet(inner, t);
      bindings.push(`${name} := ${v}`);
      names.push({ name, type: t });
    }
  }
  const mod = r.chance(0.1) ? 'module default, ' : '';
  const body = statement(within(ctx, { names }));
  return `with ${mod}${bindings.join(', ')} ${body.startsWith('with ') ? `select (${body})` : body}`;
}

function statement(ctx: Ctx): string {
  const { r } = ctx;
  if (ctx.depth > 3) return selectStatement(ctx);
  const forms: [number, () => string][] = [
    [30, () => selectStatement(ctx)],
    [8, () => insertStatement(ctx)],
    [8, () => updateStatement(ctx)],
    [4, () => deleteStatement(ctx)],
    [8, () => groupStatement(ctx)],
    [8, () => forStatement(ctx)],
    [10, () => withStatement(ctx)],
    [
      6,
      () => {
        const t = r.pick(SCALARS);
        return `select ${setOf(ctx, t)} ${r.pick(['union', 'intersect', 'except'])} ${setOf(ctx, t)}`;
      },
    ],
    [4, () => `select distinct ${setOf(ctx, r.pick(SCALARS))}`],
    [4, () => `select ${objectSet(ctx)} ?? ${objectSet(ctx)}`],
    [
      4,
      () => {
        const t = r.pick(OBJECTS);
        return `select (${objectSet(ctx, t)} if ${expr(ctx, 'bool')} else ${objectSet(ctx, t)}) ${shape(ctx, t)}`;
      },
    ],
    // a mutation's result through a shape, and a conditional mutation
    [
      6,
      () => {
        const t = r.pick(CONCRETE);
        const m = r.pick([
          () => insertStatement(within(ctx, {}), t),
          () => updateStatement(within(ctx, {}), t),
          () => deleteStatement(within(ctx, {}), t),
        ])();
        return `select (${m}) ${shape(ctx, t)}`;
      },
    ],
    [
      3,
      () => {
        const t = r.pick(CONCRETE);
        return `select (if ${expr(ctx, 'bool')} then (${insertStatement(within(ctx, {}), t)}) else (${r.chance(0.5) ? `select ${t} limit 1` : updateStatement(within(ctx, {}), t)})) ${shape(ctx, t)}`;
      },
    ],
    [3, () => `select <json>${objectSet(ctx)} ${shape(ctx, 'Named')}`],
    [3, () => `select (${objectSet(ctx)}, ${expr(ctx, r.pick(SCALARS))})`],
    [3, () => `select [${objectSet(ctx, 'Person')}.name, ${expr(ctx, 'str')}]`],
  ];
  const total = forms.reduce((s, [w]) => s + w, 0);
  let k = r.int(0, total - 1);
  for (const [w, f] of forms) {
    if (k < w) return f();
    k -= w;
  }
  return selectStatement(ctx);
}

interface Request {
  query: string;
  variables?: Record<string, unknown>;
  globals?: Record<string, unknown>;
  cardinality?: string;
}

function request(g: fc.GeneratorValue): Request {
  const r = randOf(g);
  const vars: Vars = new Map();
  const ctx: Ctx = { r, vars, names: [], counter: { next: -1 }, depth: 0 };
  let query = statement(ctx);
  if (r.chance(0.02)) query = `${query}; ${statement({ ...ctx, depth: 0 })}`;
  const req: Request = { query };
  const variables = Object.fromEntries(vars);
  if (r.chance(0.03)) variables.extra = 1;
  if (Object.keys(variables).length || r.chance(0.1)) req.variables = variables;
  if (r.chance(0.05))
    req.globals = r.pick([{ tenant: 'a' }, { tenant: 5 }, { nope: 1 }, { tenant: null }]);
  if (r.chance(0.1)) req.cardinality = r.pick(['many', 'many', 'atMostOne', 'one', 'two']);
  // The request's own shape, wrong now and then.
  if (r.chance(0.02))
    Object.assign(req, { variables: r.pick([[], 'x', null, 5, [req.variables]]) });
  if (r.chance(0.01)) Object.assign(req, { globals: r.pick([[], 'x', 7]) });
  return req;
}

// ---- mutated statements: a valid statement with a slice replaced (core's robustness test)

const VALID = [
  'select Person { name, friends: { name, @since } filter @strength > 1 order by .name } filter .age > 30',
  'select Post { name, author: { name, @role }, comments: { text, votes } order by .votes desc limit 2 }',
  "with p := (select Person filter .name = 'ann') select p { b := .<author[is Post] { name } }",
  'for x in {1, 2, 3} union (select x * 2)',
  'group Person { name } using a := .age > 30 by a',
  "insert Person { name := 'zed', tags := {'q'} } unless conflict on .name else (select Person)",
  "update Person filter .name = 'bob' set { tags += 'z', friends -= (select Person filter .name = 'ann') }",
  'delete Comment filter .votes < 0',
  "select <json>(a := 1, b := [1, 2], c := ('x', true))",
  'select {1, 2} union {3} except {2} intersect {1, 3}',
  'select (Person.age ?? 0) if exists Person else -1',
  'select <int64>$n + len(<str>$s)',
];

const mutated = fc
  .tuple(
    fc.constantFrom(...VALID),
    fc.nat(),
    fc.nat(),
    fc.constantFrom(
      '',
      '{',
      '}',
      ';',
      '(',
      ')',
      ':=',
      '.<',
      '[is ',
      "'",
      '$',
      '<',
      '>',
      '@',
      '::',
      'select',
      'limit',
      'filter',
      ',',
      '\\',
      '\u0000',
      '.',
      '[',
      ']',
      '++',
      'detached',
      '<int64>',
    ),
  )
  .map(([text, a, b, token]) => {
    const i = a % (text.length + 1);
    const j = Math.min(text.length, i + (b % 30));
    const query = text.slice(0, i) + token + text.slice(j);
    // The variables the text still names (an unused one is refused before compiling).
    const variables = Object.fromEntries(
      Object.entries({ n: 1, s: 'x' }).filter(([k]) => query.includes(`$${k}`)),
    );
    return { query, variables };
  });

// ---------------------------------------------------------------------------------------------
// The property

const CLASSES: ReadonlySet<string> = new Set(
  Object.values(core)
    .filter(
      (v): v is typeof core.QueryError =>
        typeof v === 'function' &&
        (v === core.QueryError || v.prototype instanceof core.QueryError),
    )
    .map((c) => c.name),
);
/** SQLSTATEs of PostgreSQL refusing a statement's types: undefined function or operator, datatype
 * mismatch, indeterminate type. */
const COMPILED_SQL_REFUSED = new Set(['42883', '42804', '42P18']);
const ENVELOPE_KEYS = new Set(['code', 'error', 'type', 'hint', 'extensions']);

const { logger, lines } = captureLogger();
let server: SvcServer;
let sent = 0;

beforeAll(async () => {
  server = await start(db.get(), { schema: SDL, logger });
  await reset();
});
afterAll(async () => {
  await server?.close();
});

async function post(body: Request): Promise<{ status: number; text: string; type: string | null }> {
  const res = await fetch(`${server.url}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}

async function reset(): Promise<void> {
  for (const q of [
    ...RESET,
    ...SEED.split(';\n')
      .map((s) => s.trim())
      .filter(Boolean),
  ]) {
    const res = await post({ query: q });
    if (res.status !== 200) throw new Error(`fixture statement failed: ${q}\n${res.text}`);
  }
}

/** Asserts the answer's contract; returns the error class, or 'ok'. */
function check(req: Request, res: { status: number; text: string; type: string | null }): string {
  const fail = (why: string): never => {
    const logged = lines.find((l) => l.includes('unexpected error')) ?? '';
    throw new Error(
      `${why}\nrequest: ${JSON.stringify(req)}\nanswer: ${res.status} ${res.text.slice(0, 2000)}\nlogged: ${logged.slice(0, 4000)}`,
    );
  };
  if (res.status >= 500) fail(`status ${res.status}`);
  if (!res.type?.startsWith('application/json')) fail(`content-type ${res.type}`);
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    fail('the body is not JSON');
  }
  const b = body as Record<string, unknown>;
  if (res.status < 300) {
    if (!Array.isArray(b.data)) fail('a success without a data array');
    return 'ok';
  }
  if (res.status < 400) fail(`status ${res.status}`);
  for (const k of Object.keys(b)) if (!ENVELOPE_KEYS.has(k)) fail(`envelope key ${k}`);
  if (typeof b.code !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(b.code)) fail('envelope code');
  if (typeof b.error !== 'string' || !b.error.startsWith(`${b.code}: `)) fail('envelope error');
  if (b.type !== undefined && !CLASSES.has(b.type as string)) fail(`unknown type ${b.type}`);
  // compile.ts answers a compiler crash (a TypeError in the binder or planner) as a QueryError
  // rather than a 500: still a bug this test is here to find.
  if (b.type === 'QueryError' && (b.error as string).includes('could not be compiled'))
    fail('a compiler crash');
  // PostgreSQL refusing the types of the SQL svc compiled (no such operator or function: the
  // table's UnsupportedFeatureError) is a compiler bug too, whatever the class says.
  const sqlState = (b.extensions as { sqlState?: string } | undefined)?.sqlState;
  if (sqlState && COMPILED_SQL_REFUSED.has(sqlState)) fail(`PostgreSQL refused the compiled SQL`);
  if ((b.code === 'QUERY_ERROR' || b.code === 'CONSTRAINT_VIOLATION') && b.type === undefined)
    fail('a query error without its class');
  return (b.type as string | undefined) ?? (b.code as string);
}

async function exchange(req: Request): Promise<void> {
  // Deletes and updates wear the fixture away: it is laid again every 60 statements.
  sent += 1;
  if (sent % 60 === 0) await reset();
  lines.length = 0; // the server's log lines of this request only
  const started = Date.now();
  const res = await post(req);
  check(req, res);
  if (process.env.SVC_FUZZ_DUMP) {
    const ms = Date.now() - started;
    const line = { req, ms, status: res.status, text: res.text.slice(0, 300) };
    appendFileSync(process.env.SVC_FUZZ_DUMP, `${JSON.stringify(line)}\n`);
  }
}

/** The seed CI runs (the one whose shares the file's opening comment gives). */
const FIXED_SEED = 28;
/**
 * CI runs one fixed seed, so a run fails only for a change of svc's, not for a new corner the
 * generator happened to reach that day. SVC_FUZZ_SEED=<n> replays a seed, SVC_FUZZ_SEED=random
 * hunts (what a hunt finds is minimised into the corpus file named in the opening comment).
 */
const seed =
  process.env.SVC_FUZZ_SEED === 'random'
    ? undefined
    : Number(process.env.SVC_FUZZ_SEED ?? FIXED_SEED);
/** SVC_FUZZ_RUNS=<n> multiplies the runs, for a longer hunt by hand. */
const scale = Number(process.env.SVC_FUZZ_RUNS ?? 1);

test(
  'no generated statement answers 500',
  async () => {
    await fc.assert(
      fc.asyncProperty(fc.gen(), (g) => exchange(request(g))),
      { numRuns: 600 * scale, seed, endOnFailure: !process.env.SVC_FUZZ_SHRINK },
    );
  },
  240_000 * scale,
);

test(
  'no mutated statement answers 500',
  async () => {
    await fc.assert(
      fc.asyncProperty(mutated, (req) => exchange(req)),
      {
        numRuns: 200 * scale,
        seed,
        endOnFailure: !process.env.SVC_FUZZ_SHRINK,
      },
    );
  },
  120_000 * scale,
);
