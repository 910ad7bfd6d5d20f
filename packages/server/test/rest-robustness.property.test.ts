/**
 * Bad REST input never gets a 500: random filters, orders, pages, bodies and ids on a schema
 * with every kind of field answer a success or a 4xx in the envelope.
 */
import fc from 'fast-check';
import type { SvcServer } from '../src';
import { build, sharedDatabase } from './helpers';
import { api } from './rest-helpers';

const db = sharedDatabase();
const SDL = `
scalar type Mood extending enum<happy, sad>;
type Thing {
  required name: str;
  n: int16;
  big: bigint;
  price: decimal;
  f: float32;
  ok: bool;
  at: datetime;
  day: cal::local_date;
  d: duration;
  mood: Mood;
  data: json;
  list: array<int32>;
  multi tags: str;
  other: Thing { annotation rest::expand := 'true'; }
  multi others: Thing;
  shout := str_upper(.name);
}
`;
const FIELDS = [
  'id',
  'name',
  'n',
  'big',
  'price',
  'f',
  'ok',
  'at',
  'day',
  'd',
  'mood',
  'data',
  'list',
  'tags',
  'other',
  'others',
  'shout',
  'nope',
];
const ID = '0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b';

let server: SvcServer;
let existing: string;
beforeAll(async () => {
  server = await build(db.get(), { schema: SDL });
  const made = await api(server, 'POST', '/api/Thing', { name: 'seed', n: 1 });
  existing = (made.body as { id: string }).id;
});
afterAll(() => server.close());

const value = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom(
    'true',
    'NaN',
    '',
    '%',
    '_',
    '\\',
    '\u0000',
    ID,
    '2024-01-01T00:00:00Z',
    'PT1H',
    'happy',
    ',',
  ),
);
const key = fc
  .tuple(fc.constantFrom(...FIELDS), fc.constantFrom('', '__in', '__contains', '__gt'))
  .map(([f, op]) => f + op);
const query = fc
  .array(
    fc.oneof(
      fc.tuple(key, value),
      fc.tuple(
        fc.constantFrom('order_by'),
        fc.constantFrom(...FIELDS).map((f) => `-${f}`),
      ),
      fc.tuple(fc.constantFrom('order_by', 'limit', 'offset'), value),
    ),
    { maxLength: 4 },
  )
  .map((pairs) =>
    pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'),
  );
const body = fc.dictionary(
  fc.constantFrom(...FIELDS),
  fc.oneof(fc.jsonValue({ maxDepth: 2 }), value, fc.constantFrom(ID, [ID], null)),
  { maxKeys: 4 },
);

test('no REST request answers 500', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'GET /id', 'GET /link'),
      query,
      body,
      fc.boolean(),
      async (route, q, b, known) => {
        const id = known ? existing : ID;
        const [method, path, sent] =
          route === 'GET'
            ? ['GET', `/api/Thing?${q}`, undefined]
            : route === 'POST'
              ? ['POST', '/api/Thing', b]
              : route === 'PATCH'
                ? ['PATCH', `/api/Thing/${id}`, b]
                : route === 'DELETE'
                  ? ['DELETE', `/api/Thing/${ID}`, undefined]
                  : route === 'GET /id'
                    ? ['GET', `/api/Thing/${id}`, undefined]
                    : ['GET', `/api/Thing/${id}/others?${q}`, undefined];
        const res = await api(server, method, path, sent);
        if (res.status >= 500) {
          throw new Error(`${method} ${path} ${JSON.stringify(sent)} → ${res.status} ${res.text}`);
        }
        if (res.status >= 400) {
          expect(res.body).toEqual(
            expect.objectContaining({ code: expect.any(String), error: expect.any(String) }),
          );
        }
      },
    ),
    { numRuns: 300 },
  );
}, 120_000);
