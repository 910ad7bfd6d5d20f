import { createTestDatabase, type TestDatabase } from '../testing';
import {
  jsonArrayAgg,
  jsonAsText,
  jsonBuild,
  jsonFromText,
  jsonObject,
  MAX_FUNCTION_ARGS,
  pgType,
  type SqlExpr,
  sql,
} from './ast';
import { printSql } from './print';

/**
 * `jsonBuild` (sql/ast): JSON constructors of any size. PostgreSQL passes at most 100 arguments
 * to a function, so past that the call is split into chunks and joined: objects keep their key
 * order (json) and arrays their element order, whatever the chunk boundaries.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.dispose();
});

const pairs = (n: number): SqlExpr[] =>
  Array.from({ length: n }, (_, i) => [
    sql.text(`k${i}`),
    // A nested object: its own key order must survive too (jsonb would sort it).
    i % 7 === 0
      ? sql.func('json_build_object', [sql.text('z'), sql.num(i), sql.text('a'), sql.text('}{')])
      : sql.cast(sql.num(i), pgType('bigint')),
  ]).flat();
const items = (n: number): SqlExpr[] => Array.from({ length: n }, (_, i) => sql.num(i));

/** The expression's value as PostgreSQL prints it, and its type. */
async function evaluate(expr: SqlExpr): Promise<{ text: string; type: string }> {
  const { rows } = await db.db.query(
    `select (${printSql(expr)})::text as text, pg_typeof(${printSql(expr)})::text as type`,
  );
  return rows[0] as { text: string; type: string };
}

/** The argument counts of every call in `expr`. */
const argCounts = (expr: SqlExpr): number[] => {
  const found: number[] = [];
  const walk = (e: SqlExpr): void => {
    if (e.kind === 'FuncCall') {
      found.push(e.args.length);
      e.args.forEach(walk);
    } else if (e.kind === 'BinOp') {
      walk(e.left);
      walk(e.right);
    } else if (e.kind === 'Cast') walk(e.expr);
  };
  walk(expr);
  return found;
};

test('up to the limit it is one plain call', () => {
  expect(jsonBuild('json_build_object', pairs(50))).toEqual(
    sql.func('json_build_object', pairs(50)),
  );
  expect(jsonBuild('jsonb_build_array', items(100))).toEqual(
    sql.func('jsonb_build_array', items(100)),
  );
});

test('no call passes more than the limit', () => {
  for (const expr of [
    jsonBuild('json_build_object', pairs(51)),
    jsonBuild('jsonb_build_object', pairs(160)),
    jsonBuild('json_build_array', items(101)),
    jsonBuild('jsonb_build_array', items(250)),
  ]) {
    const counts = argCounts(expr);
    expect(counts.length).toBeGreaterThan(1);
    for (const n of counts) expect(n).toBeLessThanOrEqual(MAX_FUNCTION_ARGS);
  }
});

describe.each([49, 50, 51, 100, 101, 160])('objects of %i pairs', (n) => {
  test('json: the same text, key order and type as one call', async () => {
    const got = await evaluate(jsonBuild('json_build_object', pairs(n)));
    expect(got.type).toBe('json');
    const parsed = JSON.parse(got.text) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(Array.from({ length: n }, (_, i) => `k${i}`));
    expect(got.text).toContain('{"z" : 0, "a" : "}{"}');
    if (n <= 50) {
      // One call: compare to PostgreSQL's own text (past 50 pairs one call does not run).
      const one = await db.db.query(
        `select json_build_object(${pairs(n)
          .map((a) => printSql(a))
          .join(', ')})::text as text`,
      );
      expect(got.text).toBe((one.rows[0] as { text: string }).text);
    }
  });
  test('jsonb: the same value', async () => {
    const got = await evaluate(jsonBuild('jsonb_build_object', pairs(n)));
    expect(got.type).toBe('jsonb');
    expect(Object.keys(JSON.parse(got.text) as object)).toHaveLength(n);
  });
});

describe.each([99, 100, 101, 200, 250])('arrays of %i elements', (n) => {
  test.each(['json_build_array', 'jsonb_build_array'] as const)('%s keeps order', async (name) => {
    const got = await evaluate(jsonBuild(name, items(n)));
    expect(got.type).toBe(name.startsWith('jsonb') ? 'jsonb' : 'json');
    expect(JSON.parse(got.text)).toEqual(Array.from({ length: n }, (_, i) => i));
  });
});

test('json text joins like one call would write it', async () => {
  // 120 pairs: three chunks; the text equals the one-call pattern `{"k" : v, ...}`.
  const got = await evaluate(jsonBuild('json_build_object', pairs(120)));
  const one = Array.from({ length: 120 }, (_, i) =>
    i % 7 === 0 ? `"k${i}" : {"z" : ${i}, "a" : "}{"}` : `"k${i}" : ${i}`,
  ).join(', ');
  expect(got.text).toBe(`{${one}}`);
  const array = await evaluate(jsonBuild('json_build_array', items(150)));
  expect(array.text).toBe(
    `[${items(150)
      .map((_, i) => i)
      .join(', ')}]`,
  );
});

test('an odd argument count for an object is refused', () => {
  expect(() => jsonBuild('json_build_object', items(101))).toThrow(/odd/);
});

describe('a value converted by to_json/to_jsonb is passed as it is', () => {
  const values: SqlExpr[] = [
    sql.cast(sql.text('a "quoted"\ntext'), pgType('text')),
    sql.cast(sql.text('1.5e300'), pgType('double precision')),
    sql.cast(sql.text('NaN'), pgType('double precision')),
    sql.cast(sql.text('12345678901234567890.5'), pgType('numeric')),
    sql.cast(sql.text('2024-06-01T00:00:00Z'), pgType('timestamptz')),
    sql.cast(sql.text('{1,2,NULL}'), pgType('bigint', 1)),
    sql.cast(sql.text('{"b": 1, "a": [true, null]}'), pgType('json')),
    sql.cast(sql.null(), pgType('text')),
  ];
  test.each([
    ['json_build_object', 'to_json'],
    ['json_build_array', 'to_json'],
    ['jsonb_build_object', 'to_jsonb'],
    ['jsonb_build_array', 'to_jsonb'],
  ] as const)('%s: no %s call left, the same text', async (name, convert) => {
    const object = name.endsWith('_object');
    const wrapped = values.flatMap((v, i) => [
      ...(object ? [sql.text(`k${i}`)] : []),
      sql.func(convert, [v]),
    ]);
    const built = jsonBuild(name, wrapped);
    expect(printSql(built)).not.toContain(convert);
    const oneCall = await db.db.query(
      `select ${name}(${wrapped.map((a) => printSql(a)).join(', ')})::text as text`,
    );
    expect((await evaluate(built)).text).toBe((oneCall.rows[0] as { text: string }).text);
  });
  test('keys, aggregates and other functions are left alone', () => {
    const key = sql.func('to_json', [sql.text('k')]);
    const agg = sql.agg('to_json', [sql.col('x')], { orderBy: [sql.order(sql.col('x'))] });
    const other = sql.func('to_jsonb', [sql.col('x')]);
    expect(jsonBuild('json_build_object', [key, agg, sql.text('b'), other])).toEqual(
      sql.func('json_build_object', [key, agg, sql.text('b'), other]),
    );
  });
});

/**
 * `jsonObject`: an object written as JSON text (`'{"k":' || text || ...`), byte for byte what
 * PostgreSQL writes for `to_json` of a row with those columns (compact `{"k":v}`), with the keys
 * of `json_build_object` in the same order and the same values, for any key.
 */
describe('jsonObject', () => {
  const values: [string, SqlExpr][] = [
    ['text', sql.cast(sql.text('a "quoted"\ntext \\ \u0001'), pgType('text'))],
    ['float', sql.cast(sql.text('NaN'), pgType('double precision'))],
    ['big', sql.cast(sql.text('12345678901234567890.5'), pgType('numeric'))],
    ['at', sql.cast(sql.text('2024-06-01T00:00:00Z'), pgType('timestamptz'))],
    ['uuid', sql.cast(sql.text('01a20efe-6923-700a-80f8-9b05fba92db4'), pgType('uuid'))],
    ['array', sql.cast(sql.text('{1,2,NULL}'), pgType('bigint', 1))],
    ['json', sql.cast(sql.text('{"b": 1, "a": [true, null]}'), pgType('json'))],
    ['converted', sql.func('to_json', [sql.cast(sql.text('x'), pgType('text'))])],
    ['none', sql.cast(sql.null(), pgType('text'))],
    ['json none', sql.cast(sql.null(), pgType('json'))],
    ['literal', sql.text('plain')],
    ['bare null', sql.null()],
    ['"quoted key"', sql.num(1)],
    ['ключ', sql.bool(true)],
    ['text json', jsonFromText(sql.text('[1, {"x":2}]'))],
    ['text json none', jsonFromText(sql.cast(sql.null(), pgType('text')))],
    [
      'a case',
      {
        kind: 'Case',
        whens: [{ when: sql.bool(false), then: jsonFromText(sql.text('1')) }],
        else: sql.cast(sql.null(), pgType('json')),
      },
    ],
  ];
  /** The same columns as one row, as PostgreSQL's `to_json` writes it (keys up to 63 bytes). */
  const asRow = async (entries: [string, SqlExpr][]) => {
    const targets = entries.map(([, v], i) => {
      let value = v;
      if (v.kind === 'Literal' && v.type === 'text') value = sql.cast(v, pgType('text'));
      return `${printSql(value)} as c${i}`;
    });
    const names = entries.map(([k]) => `"${k.replaceAll('"', '""')}"`).join(', ');
    const { rows } = await db.db.query(
      `select to_json(r)::text as text from (select ${targets.join(', ')}) as r(${names})`,
    );
    return (rows[0] as { text: string }).text;
  };
  const asBuilt = async (entries: [string, SqlExpr][]) =>
    (
      await evaluate(
        sql.func(
          'json_build_object',
          entries.flatMap(([k, v]) => [sql.text(k), v]),
        ),
      )
    ).text;

  test("PostgreSQL's row text, byte for byte; json_build_object's keys, order and values", async () => {
    const expr = jsonObject(values);
    expect(printSql(expr)).not.toContain('json_build_object');
    const got = await evaluate(expr);
    expect(got.type).toBe('json');
    expect(got.text).toBe(await asRow(values));
    expect(Object.keys(JSON.parse(got.text))).toEqual(values.map(([k]) => k));
    expect(JSON.parse(got.text)).toEqual(JSON.parse(await asBuilt(values)));
    expect(got.text.startsWith('{"text":"a \\"quoted\\"\\ntext \\\\ \\u0001","float":"NaN"')).toBe(
      true,
    );
  });

  test('any key: long, multi-byte, repeated, control characters; no entries', async () => {
    const cases: [string, SqlExpr][][] = [
      [],
      [
        ['k'.repeat(64), sql.num(1)],
        ['b', sql.num(2)],
      ],
      [['я'.repeat(32), sql.num(1)]],
      [
        ['a', sql.num(1)],
        ['a', sql.num(2)],
      ],
      [
        ['\u0001\b\f\n\r\t\u001f"\\/\u007f\u2028', sql.num(1)],
        ['~row', sql.num(2)],
        ['*', sql.num(3)],
      ],
    ];
    for (const entries of cases) {
      const text = (await evaluate(jsonObject(entries))).text;
      // json_build_object writes `{"k" : v, ...}`: the same text, compact.
      expect(text).toBe(
        (await asBuilt(entries))
          .replace(/^\{\}$|" : /g, (m) => (m === '{}' ? m : '":'))
          .replaceAll(', "', ',"'),
      );
      expect(text).toBe(
        `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${printSql(v)}`).join(',')}}`,
      );
    }
  });

  test("the build_object form: json_build_object's text byte for byte, for any key and value", async () => {
    const cases: [string, SqlExpr][][] = [
      [],
      values,
      [
        ['\u0001\b\f\n\r\t\u001f"\\/\u007f\u2028', sql.num(1)],
        ['я'.repeat(8), sql.null()],
        ['a', sql.num(2)],
        ['a', sql.text('x')],
      ],
    ];
    for (const entries of cases) {
      const expr = jsonObject(entries, 'build_object');
      expect(printSql(expr)).not.toContain('json_build_object');
      const got = await evaluate(expr);
      expect(got.type).toBe('json');
      expect(got.text).toBe(await asBuilt(entries));
    }
  });

  test('many entries nest as a balanced tree of ||', async () => {
    const entries = Array.from({ length: 2000 }, (_, i): [string, SqlExpr] => [
      `k${i}`,
      sql.cast(sql.num(i), pgType('bigint')),
    ]);
    let depth = 0;
    const walk = (e: SqlExpr, d: number): void => {
      depth = Math.max(depth, d);
      if (e.kind === 'BinOp') {
        walk(e.left, d + 1);
        walk(e.right, d + 1);
      } else if (e.kind === 'Cast') walk(e.expr, d + 1);
    };
    const expr = jsonObject(entries);
    walk(expr, 0);
    expect(depth).toBeLessThan(20);
    const parsed = JSON.parse((await evaluate(expr)).text) as Record<string, number>;
    expect(Object.keys(parsed)).toHaveLength(2000);
    expect(parsed.k1999).toBe(1999);
  });
});

/**
 * JSON text (`jsonFromText`): a json value consumers of text take back without a parse
 * (`jsonAsText`, `sql.cast` to text or jsonb); arrays of it aggregate as text with the bytes
 * `json_agg` writes.
 */
describe('JSON text', () => {
  const object = (i: SqlExpr) =>
    jsonObject([
      ['i', i],
      ['s', sql.func('repeat', [sql.text('"'), i])],
    ]);

  test('jsonArrayAgg of JSON text: the bytes of json_agg, NULL or [] for no rows', async () => {
    for (const n of [0, 1, 5]) {
      const from = `from generate_series(1, ${n}) as g(i)`;
      const i = sql.col('i', 'g');
      const order = [sql.order(i, 'desc')];
      const asText = sql.cast(
        jsonArrayAgg(object(i), { orderBy: order, orEmpty: false }),
        pgType('text'),
      );
      const orEmpty = sql.cast(
        jsonArrayAgg(object(i), { orderBy: order, orEmpty: true }),
        pgType('text'),
      );
      const parsed = sql.agg(
        'json_agg',
        [sql.cast(sql.cast(object(i), pgType('text')), pgType('json'))],
        {
          orderBy: order,
        },
      );
      const { rows } = await db.db.query(
        `select ${printSql(asText)} as a, ${printSql(orEmpty)} as b, (${printSql(parsed)})::text as c ${from}`,
      );
      const row = rows[0] as { a: string | null; b: string; c: string | null };
      expect(printSql(asText)).toContain('string_agg');
      expect(row.a).toBe(row.c);
      expect(row.b).toBe(row.c ?? '[]');
    }
  });

  test('a JSON text value is json; to text and to jsonb it skips the json parse', async () => {
    const value = jsonFromText(sql.text('{"b": 1, "a": 2}'));
    expect(printSql(value)).toBe(`'{"b": 1, "a": 2}'::json`);
    expect(printSql(sql.cast(value, pgType('text')))).toBe(`'{"b": 1, "a": 2}'`);
    expect(printSql(sql.cast(value, pgType('jsonb')))).toBe(`'{"b": 1, "a": 2}'::jsonb`);
    const got = await evaluate(value);
    expect(got).toEqual({ text: '{"b": 1, "a": 2}', type: 'json' });
    const none = jsonFromText(sql.cast(sql.null(), pgType('text')));
    const { rows } = await db.db.query(
      `select ${printSql(none)} is null as a, ${printSql(sql.cast(none, pgType('text')))} is null as b, ${printSql(jsonAsText(none))} as c`,
    );
    expect(rows[0]).toEqual({ a: true, b: true, c: 'null' });
  });
});
