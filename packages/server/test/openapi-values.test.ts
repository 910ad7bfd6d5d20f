/**
 * The document's scalar table against real values, on the test database: a body of every
 * scalar kind (type `Everything` of the fixture schema) validates against `Everything-insert`,
 * is accepted by the binder as the variables of an insert, and what the engine reads back in the
 * default shape (the JSON REST answers: same engine, same conventions) validates against
 * `Everything`; so do an empty row (nulls, `[]`), edge values written as literals (an int64
 * beyond JSON's exact integers, negative and fractional durations) and the `Author` shape (a
 * multi link, a computed backlink, a link read as an id).
 */
import type { SvcServer } from '../src';
import { build, call, readJson, sharedDatabase } from './helpers';
import { FIXTURE_SDL } from './openapi-fixture';
import { type OpenApiValidator, openApiValidator } from '@svc/test-support';

const db = sharedDatabase();
let server: SvcServer;
let validator: OpenApiValidator;
// biome-ignore lint/suspicious/noExplicitAny: a JSON document
let doc: any;

beforeAll(async () => {
  server = await build(db.get(), { schema: FIXTURE_SDL });
  doc = await readJson(await call(server, '/api/openapi.json'));
  validator = openApiValidator(doc);
});
afterAll(() => server.close());

async function query(text: string, variables: Record<string, unknown> = {}): Promise<unknown[]> {
  const res = await call(server, '/query', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: text, variables }),
  });
  const body = await readJson(res);
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}\n${text}`);
  return body.data;
}

/** The default shape of a component as EdgeQL (no expanded links in the types read here). */
function shapeOf(component: string): string {
  return `{ ${Object.keys(doc.components.schemas[component].properties)
    .map((name) => `\`${name}\``)
    .join(', ')} }`;
}

const BODY = {
  s: "it's 100% _x_ \\ ok",
  b: true,
  i16: -32768,
  i32: 2147483647,
  i64: 9007199254740991,
  f32: 1.5,
  f64: -2.25e10,
  big: '123456789012345678901234567890',
  dec: '3.14159265358979323846264338327950288',
  u: '0190c6e4-5b8a-7c3e-9d2f-1a2b3c4d5e6f',
  j: { a: [1, null, 'x'], b: { c: true } },
  raw: Buffer.from([0, 1, 2, 250, 255]).toString('base64'),
  dt: '2024-05-01T12:30:00.123456Z',
  dur: 'PT1H30M',
  ldt: '2024-05-01T12:30:00',
  ld: '2024-02-29',
  lt: '12:30:00.5',
  rd: 'P1Y2M3DT4H',
  dd: 'P1Y2M3D',
  arr: [1, -2, 3],
  tup: [1, 'one'],
  named: { x: 1.5, y: -2 },
  r: { lower: 1, upper: 10, inc_lower: true, inc_upper: false },
  limit: 5,
  a__b: 'x',
};
const TYPES: Record<string, string> = {
  s: 'str',
  b: 'bool',
  i16: 'int16',
  i32: 'int32',
  i64: 'int64',
  f32: 'float32',
  f64: 'float64',
  big: 'bigint',
  dec: 'decimal',
  u: 'uuid',
  j: 'json',
  raw: 'bytes',
  dt: 'datetime',
  dur: 'duration',
  ldt: 'cal::local_datetime',
  ld: 'cal::local_date',
  lt: 'cal::local_time',
  rd: 'cal::relative_duration',
  dd: 'cal::date_duration',
  arr: 'array<int32>',
  tup: 'tuple<int64, str>',
  named: 'tuple<x: float64, y: float64>',
  r: 'range<int64>',
  limit: 'int32',
  a__b: 'str',
};

test('a body of every scalar kind: valid for Everything-insert, bound by the engine, read back valid', async () => {
  validator.checkSchema('Everything-insert', BODY);
  const variables = Object.fromEntries(Object.entries(BODY).map(([k, v]) => [`v_${k}`, v]));
  const set = Object.keys(BODY)
    .map((k) => `\`${k}\` := <${TYPES[k]}>$v_${k}`)
    .join(', ');
  const [row] = await query(
    `select (insert Everything { ${set} }) ${shapeOf('Everything')}`,
    variables,
  );
  validator.checkSchema('Everything', row);
  expect(row).toMatchObject({ s: BODY.s, i64: BODY.i64, dur: 'PT1H30M', ld: '2024-02-29' });
});

test('an empty row reads as nulls and passes', async () => {
  validator.checkSchema('Everything-insert', {});
  const [row] = await query(`select (insert Everything) ${shapeOf('Everything')}`);
  validator.checkSchema('Everything', row);
  expect((row as Record<string, unknown>).s).toBeNull();
});

test('edge values written as literals read back valid', async () => {
  const rows = await query(
    `select (for x in {
       (i := 9223372036854775807, d := <duration>'-1 hour 30 minutes', r := <cal::relative_duration>'-1 year 2 months -3 days 0.5 seconds', dd := <cal::date_duration>'0 days', t := <cal::local_time>'23:59:59.999999', e := false),
       (i := -9223372036854775808, d := <duration>'1.5 seconds', r := <cal::relative_duration>'0 seconds', dd := <cal::date_duration>'-2 months', t := <cal::local_time>'00:00', e := true)
     } union (insert Everything { i64 := x.i, dur := x.d, rd := x.r, dd := x.dd, lt := x.t, r := (range(<int64>{}, <int64>{}, empty := true) if x.e else range(<int64>{}, 5)), raw := b'' })) ${shapeOf('Everything')}`,
  );
  expect(rows).toHaveLength(2);
  for (const row of rows) validator.checkSchema('Everything', row);
});

test('the Author shape: a multi link, a backlink computed, a link read as an id', async () => {
  const [a] = (await query(`select (insert Author { name := 'a', mood := Mood.Sad }) { id }`)) as {
    id: string;
  }[];
  await query(
    `insert Author { name := 'b', mentor := (select detached Author filter .id = <uuid>$a), friends := (select detached Author filter .id = <uuid>$a) }`,
    { a: a?.id },
  );
  await query(`insert Post { title := 'p', author := (select Author filter .id = <uuid>$a) }`, {
    a: a?.id,
  });
  const rows = await query(`select Author ${shapeOf('Author')}`);
  expect(rows.length).toBeGreaterThanOrEqual(2);
  for (const row of rows) validator.checkSchema('Author', row);
});

test('the insert schemas refuse what the planner refuses', () => {
  expect(() => validator.checkSchema('Everything-insert', { id: BODY.u })).toThrow(
    /additionalProperty: "id"/,
  );
  expect(() => validator.checkSchema('Everything-insert', { i16: 40000 })).toThrow(
    /i16 must be <= 32767/,
  );
  expect(() => validator.checkSchema('Everything-insert', { big: '1.5' })).toThrow(/big/);
  expect(() => validator.checkSchema('Author-insert', { email: 'x' })).toThrow(
    /additionalProperty: "email"/,
  );
  expect(() => validator.checkSchema('Author-update', {})).toThrow(
    /must NOT have fewer than 1 properties/,
  );
  expect(() => validator.checkSchema('Author-update', { created: BODY.dt })).toThrow(
    /additionalProperty: "created"/,
  );
  expect(() => validator.checkSchema('Author-insert', { mood: 'Angry', name: 'x' })).toThrow(
    /mood/,
  );
  expect(() => validator.checkSchema('Author-insert', { bio: null })).toThrow(
    /missingProperty: "name"/,
  );
});

/**
 * Issue 31: the keywords the document gives constraints (type `Limited` of the fixture) agree
 * with the server: a body at each limit is valid for the document and created; a body one past
 * a limit is invalid for the document and refused by the server (409 `CONSTRAINT_VIOLATION`).
 */
describe('constraints: what the document says is what the server checks', () => {
  const post = (body: unknown) =>
    call(server, '/api/Limited', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const AT_LIMITS = {
    name: 'x'.repeat(40),
    code: 'ABC',
    percent: 50,
    ratio: 1.25,
    size: 'M',
    level: 3,
    words: ['x'.repeat(10)],
    scores: [1, 2, 3],
    delta: -10,
  };

  test('a body at every limit: valid, and created', async () => {
    validator.checkSchema('Limited-insert', AT_LIMITS);
    const res = await post(AT_LIMITS);
    expect(res.status).toBe(201);
    validator.checkSchema('Limited', await readJson(res));
  });

  test.each([
    ['name', 'x'.repeat(41)],
    ['name', ''],
    ['code', 'ABCD'],
    ['code', 'abc'],
    ['percent', 51],
    ['percent', -1],
    ['ratio', 1.5],
    ['size', 'XL'],
    ['level', 4],
    ['words', ['x'.repeat(11)]],
    ['scores', [1, 2, 3, 4]],
    ['delta', -11],
  ])('%s = %j: invalid for the document, refused by the server', async (field, value) => {
    const body = { ...AT_LIMITS, [field]: value };
    expect(() => validator.checkSchema('Limited-insert', body)).toThrow();
    const res = await post(body);
    expect(res.status).toBe(409);
    expect((await readJson(res)).code).toBe('CONSTRAINT_VIOLATION');
  });
});
