/**
 * @svc/client against a real svc server (`createServer` over loopback HTTP, on the engine under
 * test: PGlite, or PostgreSQL with SVC_TEST_DB=postgres): every query method, the decoding of
 * each scalar and collection (int64 extremes, bigint, decimal, bytes, datetime), the error
 * classes, globals, and failures that are not the server's (network, non-JSON answers).
 */
import net from 'node:net';
import * as core from '@svc/core';
import type { SvcServer } from '@svc/server';
import {
  ConstraintViolationError,
  createClient,
  DateDuration,
  Duration,
  LocalDate,
  LocalDateTime,
  LocalTime,
  RelativeDuration,
  IntegrityError,
  InvalidReferenceError,
  NetworkError,
  NoDataError,
  NumericOutOfRangeError,
  ProtocolError,
  QueryError,
  queryErrorTable,
  Range,
  ResultCardinalityMismatchError,
  ServerError,
  SvcError,
  type Client,
  type QueryDescription,
} from '../src';
import { serveForTest, type TestServer } from './serve';

const SDL = `
scalar type Mood extending enum<happy, sad>;
global tenant: str;
type Thing {
  required name: str { constraint exclusive; }
  i16: int16;
  i32: int32;
  i64: int64;
  f64: float64;
  big: bigint;
  dec: decimal;
  flag: bool;
  at: datetime;
  day: cal::local_date;
  took: duration;
  raw: bytes;
  doc: json;
  mood: Mood;
  nums: array<int64>;
  pair: tuple<str, int64>;
  span: range<int64>;
  best: Thing;
  multi others: Thing;
}
`;

let served: TestServer;
let server: SvcServer;
let client: Client;
let bigints: Client;
beforeAll(async () => {
  served = await serveForTest({
    schema: SDL,
  });
  server = served.server;
  client = createClient({ url: server.url });
  bigints = createClient({ url: server.url, int64: 'bigint' });
}, 60_000);
afterAll(async () => {
  await served?.close();
});

const INSERT = `insert Thing {
  name := <str>$name, i16 := <int16>$i16, i32 := <int32>$i32, i64 := <int64>$i64,
  f64 := <float64>$f64, big := <bigint>$big, dec := <decimal>$dec, flag := <bool>$flag,
  at := <datetime>$at, day := <cal::local_date>$day, took := <duration>$took, raw := <bytes>$raw,
  doc := <json>$doc, mood := <Mood>$mood, nums := <array<int64>>$nums,
  pair := <tuple<str, int64>>$pair
}`;
const SHAPE = `{ name, i16, i32, i64, f64, big, dec, flag, at, day, took, raw, doc, mood, nums, pair }`;

describe('values round trip through the client', () => {
  test.each([
    ['the largest values', 9223372036854775807n, 32767, 2147483647],
    ['the smallest values', -9223372036854775808n, -32768, -2147483648],
    ['small values', 42n, 0, -1],
  ])('%s', async (what, i64, i16, i32) => {
    const name = `rt ${what}`;
    const values = {
      name,
      i16,
      i32,
      i64,
      f64: 1.5,
      big: 123456789012345678901234567890n,
      dec: '12345678901234567890.123456789',
      flag: true,
      at: new Date('2024-05-06T07:08:09.123Z'),
      day: new LocalDate(2024, 2, 29),
      took: new Duration(1, 30),
      raw: new Uint8Array([0, 1, 254, 255]),
      doc: { a: [1, 'x', null] },
      mood: 'sad',
      nums: [1, 2, 3],
      pair: ['p', 7],
    };
    await client.execute(INSERT, values);
    // Every int64 as a bigint: the extremes do not fit a number (below).
    const got = await bigints.queryRequiredSingle<Record<string, unknown>>(
      `select Thing ${SHAPE} filter .name = <str>$name`,
      { name },
    );
    expect(got).toEqual({
      ...values,
      nums: [1n, 2n, 3n],
      pair: ['p', 7n],
      at: new Date('2024-05-06T07:08:09.123Z'),
    });
    expect(got.raw).toBeInstanceOf(Uint8Array);
    expect(got.at).toBeInstanceOf(Date);
  });

  test('int64: "bigint" decodes every int64 as a bigint', async () => {
    expect(await bigints.query('select {1, <int64>$n}', { n: -5n })).toEqual([1n, -5n]);
  });

  test('an int64 a number cannot hold is refused, as gel-js refuses it, never rounded', async () => {
    const edge = BigInt(Number.MAX_SAFE_INTEGER);
    expect(await client.query('select {<int64>$a, <int64>$b}', { a: edge, b: -edge })).toEqual([
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
    ]);
    const refused = client.query('select <int64>$n', { n: edge + 1n });
    await expect(refused).rejects.toBeInstanceOf(NumericOutOfRangeError);
    await expect(refused).rejects.toMatchObject({
      message: expect.stringContaining("<std::int64>'9007199254740992'"),
      hint: expect.stringContaining("int64: 'bigint'"),
    });
    expect(await bigints.query('select <int64>$n', { n: edge + 1n })).toEqual([edge + 1n]);
  });

  test('links: a sub-shape is the object (or null), without one the id; multi links arrays', async () => {
    await client.execute(
      "insert Thing { name := 'link a', best := (insert Thing { name := 'link b' }), others := (insert Thing { name := 'link c' }) }",
    );
    const got = await client.querySingle<Record<string, unknown>>(
      "select Thing { name, best: { name }, others, empty := (select detached Thing filter .i16 = -99) { name } } filter .name = 'link a'",
    );
    expect(got).toEqual({
      name: 'link a',
      best: { name: 'link b' },
      others: [expect.stringMatching(/^[0-9a-f-]{36}$/)],
      empty: [],
    });
    const none = await client.querySingle<Record<string, unknown>>(
      "select Thing { best: { name } } filter .name = 'link b'",
    );
    expect(none).toEqual({ best: null });
  });

  test('dates, times and durations come as their classes and go back as variables unchanged', async () => {
    const values = await client.queryRequiredSingle<unknown[]>(
      "select (<cal::local_date>'2024-02-29', <cal::local_time>'10:20:30.123456', <cal::local_datetime>'2024-02-29T10:20:30.5', <duration>'-1h 20m 0.5s', <cal::relative_duration>'1 year 2 months -3 days 4 hours 0.25s', <cal::date_duration>'1 year 2 months 3 days')",
    );
    expect(values.map((v) => (v as object).constructor)).toEqual([
      LocalDate,
      LocalTime,
      LocalDateTime,
      Duration,
      RelativeDuration,
      DateDuration,
    ]);
    const [d, t, dt, dur, rel, dd] = values;
    expect(
      await client.queryRequiredSingle(
        "select (<cal::local_date>$d = <cal::local_date>'2024-02-29', <cal::local_time>$t = <cal::local_time>'10:20:30.123456', <cal::local_datetime>$dt = <cal::local_datetime>'2024-02-29T10:20:30.5', <duration>$dur = <duration>'-1h 20m 0.5s', <cal::relative_duration>$rel = <cal::relative_duration>'1 year 2 months -3 days 4 hours 0.25s', <cal::date_duration>$dd = <cal::date_duration>'1 year 2 months 3 days')",
        { d, t, dt, dur, rel, dd },
      ),
    ).toEqual([true, true, true, true, true, true]);
  });

  test('ranges come as Range and go back as variables; free objects as plain objects', async () => {
    const got = await client.queryRequiredSingle<{
      r: Range<number>;
      e: Range<number>;
      n: boolean;
    }>('select { r := range(<int64>$lo, 10), e := range(1, 1), n := count(Thing) > -1 }', {
      lo: 2n,
    });
    expect(got).toEqual({ r: new Range(2, 10, true, false), e: Range.empty(), n: true });
    expect(
      await client.queryRequiredSingle(
        'select (<range<int64>>$r = range(2, 10), <range<int64>>$e = range(1, 1))',
        {
          r: got.r,
          e: got.e,
        },
      ),
    ).toEqual([true, true]);
  });
});

describe('the query methods', () => {
  test('query, querySingle, queryRequiredSingle and their JSON forms', async () => {
    expect(await client.query('select {1, 2, 3}')).toEqual([1, 2, 3]);
    expect(await client.querySingle('select <str>{}')).toBeNull();
    expect(await client.querySingle("select 'one'")).toBe('one');
    expect(await client.queryRequiredSingle('select 2 + 2')).toBe(4);
    expect(await client.queryJSON('select {1, 2}')).toBe('[1, 2]');
    expect(await client.querySingleJSON('select <str>{}')).toBe('null');
    expect(await client.querySingleJSON("select 'a'")).toBe('"a"');
    expect(await client.queryRequiredSingleJSON('select [1, 2]')).toBe('[1,2]');
    // As the server wrote it: no digit of a decimal or a bigint lost, none added.
    expect(await client.querySingleJSON("select <decimal>'1.50'")).toBe('1.50');
    expect(
      await client.queryRequiredSingleJSON("select <bigint>'123456789012345678901234567890'"),
    ).toBe('123456789012345678901234567890');
  });

  test('querySingle of a query that may return more is refused before it runs', async () => {
    await expect(
      client.querySingle("select (insert Thing { name := 'not written' }) union Thing"),
    ).rejects.toBeInstanceOf(ResultCardinalityMismatchError);
    expect(await client.query("select Thing filter .name = 'not written'")).toEqual([]);
  });

  test('queryRequiredSingle of nothing is a NoDataError, for both forms', async () => {
    await expect(client.queryRequiredSingle('select <int64>{}')).rejects.toBeInstanceOf(
      NoDataError,
    );
    await expect(client.queryRequiredSingleJSON('select <int64>{}')).rejects.toBeInstanceOf(
      NoDataError,
    );
  });

  test('describe answers the types, nothing run', async () => {
    const d: QueryDescription = await client.describe(
      'select Thing { name } filter .name = <str>$n',
    );
    expect(d.input.arguments).toEqual([
      { name: 'n', type: { kind: 'scalar', name: 'std::str' }, required: true },
    ]);
    expect(d.cardinality).toBe('atMostOne');
  });

  test('withGlobals sends the globals with every query; the first client is unchanged', async () => {
    const tenant = client.withGlobals({ 'default::tenant': 'acme' });
    expect(await tenant.querySingle('select global tenant')).toBe('acme');
    expect(await client.querySingle('select global tenant')).toBeNull();
  });
});

describe('errors', () => {
  test('a query error is its Gel class, with position and SQLSTATE', async () => {
    const error = await client.query('select Thing { nope }').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidReferenceError);
    expect(error).toBeInstanceOf(QueryError);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({
      name: 'InvalidReferenceError',
      code: 'QUERY_ERROR',
      status: 400,
      position: { line: 1, column: expect.any(Number) },
    });
    expect((error as Error).message).toContain("has no link or property 'nope'");
  });

  test('an exclusive violation is a ConstraintViolationError, an IntegrityError', async () => {
    await client.execute("insert Thing { name := 'twice' }");
    const error = await client.execute("insert Thing { name := 'twice' }").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConstraintViolationError);
    expect(error).toBeInstanceOf(IntegrityError);
    expect(error).toMatchObject({ status: 409, sqlState: '23505' });
  });

  test('a refusal without a query class is a ServerError with its code', async () => {
    const error = await client.query('select <str>$missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
  });

  test('an unreachable server is a NetworkError; an answer that is not JSON a ProtocolError', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const gone = createClient({ url: `http://127.0.0.1:${port}` });
    await expect(gone.query('select 1')).rejects.toBeInstanceOf(NetworkError);
    const html = createClient({
      url: server.url,
      fetch: async () => new Response('<html>bad gateway</html>', { status: 502 }),
    });
    await expect(html.query('select 1')).rejects.toBeInstanceOf(ProtocolError);
    const odd = createClient({
      url: server.url,
      fetch: async () => new Response('{"rows": []}', { status: 200 }),
    });
    await expect(odd.queryJSON('select 1')).rejects.toBeInstanceOf(ProtocolError);
  });

  test("the client's error classes are the server's, with the same parents", () => {
    const table = queryErrorTable();
    const serverClasses = Object.entries(core).filter(
      ([, value]) =>
        typeof value === 'function' &&
        (value === core.QueryError || value.prototype instanceof core.QueryError),
    );
    expect(serverClasses.length).toBeGreaterThan(30);
    for (const [name, cls] of serverClasses) {
      expect([name, table.has(name)]).toEqual([name, true]);
      const parent = cls === core.QueryError ? null : Object.getPrototypeOf(cls).name;
      expect([name, table.get(name)]).toEqual([name, parent]);
    }
  });
});

// The client's descriptor types are the server's: a core description is a client description.
const sameShape = (d: core.QueryDescription): QueryDescription => d;
void sameShape;

describe('descriptions follow the schema version', () => {
  test('after a migration changes a query type, the result is decoded by the new one', async () => {
    const v1 = 'type Box { required v: int64; w := .v + 1; }';
    const v2 = "type Box { required v: int64; w := <str>.v ++ '!'; }";
    const boxServer = await serveForTest({ schema: v1 });
    try {
      const boxes = createClient({ url: boxServer.url });
      await boxes.execute('insert Box { v := 5 }');
      expect(await boxes.query('select Box.w')).toEqual([6]);
      const migrated = await fetch(`${boxServer.url}/migrations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ schema: v2 }),
      });
      expect(migrated.status).toBe(200);
      expect(await boxes.query('select Box.w')).toEqual(['5!']);
      expect((await boxes.describe('select Box.w')).output).toEqual({
        kind: 'scalar',
        name: 'std::str',
      });
    } finally {
      await boxServer.close();
    }
  });
});

describe('the descriptions a client keeps', () => {
  test('are bounded: past 500 query texts the oldest is described again', async () => {
    const describes: string[] = [];
    const counting = createClient({
      url: server.url,
      fetch: async (input, init) => {
        const body = JSON.parse(String(init?.body)) as { query: string; describe?: boolean };
        if (body.describe) describes.push(body.query);
        return fetch(input, init);
      },
    });
    const texts = Array.from({ length: 501 }, (_, i) => `select ${i}`);
    for (const text of texts) await counting.describe(text);
    expect(describes).toHaveLength(501);
    await counting.describe(texts[500] as string); // kept
    expect(describes).toHaveLength(501);
    await counting.describe(texts[0] as string); // dropped when the 501st came
    expect(describes).toHaveLength(502);
  }, 60_000);
});
