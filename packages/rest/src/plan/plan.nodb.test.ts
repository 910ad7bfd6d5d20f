/**
 * The planner's EdgeQL for a fixture schema that exercises every rule, in one golden file
 * (`__golden__/plans.txt`; `UPDATE_GOLDEN=1` rewrites it, otherwise it must match exactly),
 * and every planned statement compiled by @svc/core's compiler, so a form the compiler refuses
 * fails here rather than over HTTP.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, compileQuery, SvcError } from '@svc/core';
import { restModel } from '../model';
import { parseRequest } from '../request/parse';
import { planRequest, type RestQuery } from '.';

const SDL = `
module default {
  scalar type Mood extending enum<happy, sad, 'so-so'>;
  scalar type Slug extending str { constraint max_len_value(40); }
  abstract type Named { required name: str; }
  type User extending Named {
    email: str { annotation rest::hidden := 'true'; }
    age: int16;
    score: float64;
    big: bigint;
    price: decimal;
    active: bool;
    ref: uuid;
    born: datetime;
    day: cal::local_date;
    at: cal::local_time;
    seen: cal::local_datetime;
    mood: Mood;
    slug: Slug;
    data: json;
    nicknames: array<str>;
    multi aliases: str;
    \`select\`: str;
    multi friends: User;
    best: User { annotation rest::expand := 'true'; }
    multi posts := .<author[is Post];
    shout := str_upper(.name);
  }
  type Tag { required label: str { constraint exclusive; } }
  type Post {
    required title: str;
    author: User { annotation rest::expand := 'true'; }
    multi tags: Tag { annotation rest::expand := 'true'; }
    pinned: Tag | User;
  }
}
module blog { type Note { body: str; } }
`;

const schema = buildSchema(SDL);
const model = restModel(schema);
const ID = '0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b';
const ID2 = '0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5c';

/** [title, method, path, query, body, what the compiler says when it refuses the plan] */
const CASES: [string, string, string, string?, unknown?, string?][] = [
  ['get: the default shape (hidden left out, expand with the cycle guard)', 'GET', `/User/${ID}`],
  ['get: expanded links inline the target shape, recursively', 'GET', `/Post/${ID}`],
  ['get: a type outside default', 'GET', `/blog::Note/${ID}`],
  ['list: no parameters', 'GET', '/Post'],
  ['list: page and order', 'GET', '/User', 'order_by=-age,name&limit=5&offset=10'],
  // The server's defaults are constants (pageText); what a client gives is a variable.
  [
    'list: the default page size given explicitly is the same statement',
    'GET',
    '/Post',
    'limit=100&offset=0',
  ],
  ['list: an offset alone', 'GET', '/Post', 'offset=200'],
  ['list: a page size alone', 'GET', '/Post', 'limit=1000'],
  ['linked: a second page', 'GET', `/Post/${ID}/tags`, 'offset=5&limit=5'],
  ['list: ordering by id explicitly adds no second id term', 'GET', '/User', 'order_by=-id'],
  ['list: a computed orders', 'GET', '/User', 'order_by=shout'],
  ['list: filters AND together', 'GET', '/User', 'name=Ann&age=36&active=TRUE'],
  [
    'list: every scalar kind converts',
    'GET',
    '/User',
    'score=1.5e2&big=12345678901234567890&price=-0.10&ref=0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b&born=2024-05-01T12:00:00Z&day=2024-05-01&at=12:30&seen=2024-05-01T12:00:00.5&mood=so-so&slug=a-b',
  ],
  ['list: __in converts every element', 'GET', '/User', 'age__in=1,2,3&mood__in=happy,sad'],
  [
    'list: __contains on str, a custom str scalar and an enum',
    'GET',
    '/User',
    'name__contains=50%25_off\\&slug__contains=x&mood__contains=SO',
  ],
  ['list: a single link filters by id', 'GET', '/Post', `author=${ID}`],
  ['list: a multi link does not filter', 'GET', '/Post', 'tags__in='],
  ['list: a single link __in', 'GET', '/Post', `author__in=${ID},${ID2}`],
  ['list: a keyword-named property is quoted', 'GET', '/User', 'select=x&order_by=select'],
  ['list: a computed filters', 'GET', '/User', 'shout__contains=AN'],
  ['list: unknown filter', 'GET', '/User', 'nope=1'],
  ['list: hidden filter', 'GET', '/User', 'email=a@b'],
  ['list: unknown order', 'GET', '/User', 'order_by=-nope'],
  ['list: hidden order', 'GET', '/User', 'order_by=email'],
  ['list: order on a link', 'GET', '/Post', 'order_by=author'],
  ['list: order on a multi property', 'GET', '/User', 'order_by=aliases'],
  ['list: filter on a multi link', 'GET', '/User', `friends=${ID}`],
  ['list: filter on a multi property', 'GET', '/User', 'aliases=x'],
  ['list: __contains on a link', 'GET', '/Post', 'author__contains=x'],
  ['list: __contains on a number', 'GET', '/User', 'age__contains=1'],
  ['list: filter on json', 'GET', '/User', 'data=1'],
  ['list: filter on an array', 'GET', '/User', 'nicknames=a'],
  ['list: an int out of range', 'GET', '/User', 'age=40000'],
  ['list: not an int', 'GET', '/User', 'age=1.5'],
  ['list: one __in element does not convert', 'GET', '/User', 'age__in=1,x'],
  ['list: not a bool', 'GET', '/User', 'active=yes'],
  ['list: not a number', 'GET', '/User', 'score=abc'],
  ['list: not a decimal', 'GET', '/User', 'price=1e'],
  [
    'list: a decimal without digits before the point (the binder refuses it)',
    'GET',
    '/User',
    'price=.5',
  ],
  ['list: a bigint with a plus sign (dropped)', 'GET', '/User', 'big=%2B12'],
  ['list: not a uuid', 'GET', '/User', 'ref=abc'],
  ['list: token is the access token, never a filter', 'GET', '/User', 'token=abc'],
  ['list: a datetime without zone', 'GET', '/User', 'born=2024-05-01T12:00:00'],
  ['list: not a local date', 'GET', '/User', 'day=2024-13-01'],
  ['list: not a local time', 'GET', '/User', 'at=25:00'],
  ['list: not a local datetime', 'GET', '/User', 'seen=2024-05-01'],
  ['list: not an enum label', 'GET', '/User', 'mood=angry'],
  ['list: a link id that is not a uuid', 'GET', '/Post', 'author=ann'],
  ['list: unknown type', 'GET', '/Nope'],
  ['list: abstract type', 'GET', '/Named'],
  [
    'insert: properties, links by id, multi property, null',
    'POST',
    '/User',
    '',
    {
      name: 'Ann',
      age: 36,
      best: ID,
      friends: [ID, ID2],
      aliases: ['a', 'b'],
      nicknames: ['x'],
      data: { a: [1] },
      mood: null,
      select: 's',
    },
  ],
  ['insert: links of an expanded type', 'POST', '/Post', '', { title: 't', author: ID, tags: [] }],
  [
    'insert: an empty body (required fields are the compiler’s business)',
    'POST',
    '/Tag',
    '',
    {},
    "missing value for required property 'default::Tag.label'",
  ],
  [
    'insert: id is left to downstream',
    'POST',
    '/Tag',
    '',
    { id: ID, label: 'x' },
    "cannot assign to property 'id'",
  ],
  ['insert: unknown field', 'POST', '/User', '', { name: 'a', nope: 1 }],
  ['insert: hidden field', 'POST', '/User', '', { name: 'a', email: 'a@b' }],
  ['insert: computed field', 'POST', '/User', '', { name: 'a', shout: 'A' }],
  ['insert: computed link', 'POST', '/User', '', { name: 'a', posts: [] }],
  ['insert: required null', 'POST', '/User', '', { name: null }],
  ['insert: wrong JSON kind', 'POST', '/User', '', { name: 'a', age: '36' }],
  ['insert: int out of range', 'POST', '/User', '', { name: 'a', age: 70000 }],
  ['insert: link not an id', 'POST', '/Post', '', { title: 't', author: { id: ID } }],
  ['insert: multi link not an array', 'POST', '/Post', '', { title: 't', tags: ID }],
  ['insert: multi link element not an id', 'POST', '/Post', '', { title: 't', tags: [ID, 3] }],
  ['insert: multi property not an array', 'POST', '/User', '', { name: 'a', aliases: 'x' }],
  ['insert: link to several types', 'POST', '/Post', '', { title: 't', pinned: ID }],
  ['update: link to several types', 'PATCH', `/Post/${ID}`, '', { pinned: null }],
  ['update: set and unset', 'PATCH', `/User/${ID}`, '', { age: 37, best: null, friends: [] }],
  [
    'update: a body field named id gets its own variable',
    'PATCH',
    `/Tag/${ID}`,
    '',
    { id: ID2 },
    "cannot assign to property 'id'",
  ],
  [
    'update: readonly and required are the compiler’s business',
    'PATCH',
    `/Post/${ID}`,
    '',
    { title: 'new' },
  ],
  ['delete', 'DELETE', `/Post/${ID}`],
  ['linked: a multi link with the target shape', 'GET', `/User/${ID}/friends`, 'limit=2&offset=1'],
  ['linked: an expanded link, target shape expanded', 'GET', `/Post/${ID}/tags`],
  ['linked: a computed link', 'GET', `/User/${ID}/posts`],
  ['linked: a single link', 'GET', `/Post/${ID}/author`],
  ['linked: a link to several types reads ids', 'GET', `/Post/${ID}/pinned`],
  ['linked: not a link', 'GET', `/User/${ID}/name`],
  ['linked: hidden or unknown', 'GET', `/User/${ID}/email`],
];

function render([title, method, path, query = '', body]: (typeof CASES)[number]): string {
  const head = `=== ${title}\n${method} ${path}${query ? `?${query}` : ''}${body === undefined ? '' : ` ${JSON.stringify(body)}`}\n`;
  try {
    const request = parseRequest({ method, path, query, body });
    if (request.kind === 'openapi') throw new Error('not a data route');
    const plan = planRequest(request, model, schema);
    return `${head}${describePlan(plan)}\n`;
  } catch (err) {
    if (err instanceof SvcError) return `${head}--> ${err.status} ${err.code}: ${err.message}\n`;
    throw err;
  }
}

function describePlan(plan: RestQuery): string {
  const lines = [
    plan.query,
    `-- ${plan.cardinality}, answer ${plan.answer}; variables ${JSON.stringify(plan.variables)}`,
  ];
  if (plan.parent) lines.push(`-- parent: ${plan.parent.query}`);
  return lines.join('\n');
}

test('the golden plans', () => {
  const text = CASES.map(render).join('\n');
  const file = join(__dirname, '__golden__', 'plans.txt');
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
});

describe('every planned statement compiles, with and without access policies', () => {
  const planned = CASES.flatMap((c) => {
    const [title, method, path, query = '', body, refused] = c;
    try {
      const request = parseRequest({ method, path, query, body });
      if (request.kind === 'openapi') return [];
      const plan = planRequest(request, model, schema);
      return [[title, plan, refused] as const];
    } catch {
      return [];
    }
  });
  test.each(planned)('%s', (_title, plan, refused) => {
    if (refused !== undefined) {
      expect(() => compileQuery(schema, plan.query, { cardinality: plan.cardinality })).toThrow(
        refused,
      );
      return;
    }
    for (const policies of [false, true]) {
      const compiled = compileQuery(schema, plan.query, {
        cardinality: plan.cardinality,
        access: { policies },
      });
      expect(
        compiled.params
          .filter((p) => p.source === 'variable')
          .map((p) => p.name)
          .sort(),
      ).toEqual(Object.keys(plan.variables).sort());
      if (plan.parent) compileQuery(schema, plan.parent.query, { cardinality: 'atMostOne' });
    }
  });
});
