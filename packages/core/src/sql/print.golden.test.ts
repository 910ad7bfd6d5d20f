import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pgArrayOf, pgType, sql, type SqlExpr, type SqlStatement } from './ast';
import { printStatement } from './print';
import { createFixtureDatabase, type FixtureDatabase } from './__tests__/fixture-database';

/**
 * Golden statements: each tree below prints (pretty) to `__golden__/<name>.sql`, and both its
 * pretty and compact text are accepted by PostgreSQL (parsed and analysed against the fixture
 * tables). `UPDATE_GOLDEN=1` rewrites the files; review the diff.
 */

const GOLDEN_DIR = join(__dirname, '__golden__');
const item = (alias: string) => sql.table('app', 'Item', alias);
const tags = (alias: string) => sql.table('app', 'Item.tags', alias);
const int4 = pgType('int4');
const jsonb = pgType('jsonb');
/** `$n::jsonb` decoded as text / int4 / uuid (the compiler's parameter form). */
const textParam = (n: number): SqlExpr =>
  sql.bin(
    '#>>',
    sql.cast(sql.param(n), jsonb),
    sql.cast(sql.text('{}'), pgArrayOf(pgType('text'))),
  );
const intParam = (n: number): SqlExpr => sql.cast(textParam(n), int4);
const uuidParam = (n: number): SqlExpr => sql.cast(textParam(n), pgType('uuid'));
const jsonArray = (rows: SqlExpr, order: SqlExpr[] = []): SqlExpr =>
  sql.func('coalesce', [
    sql.agg('json_agg', [rows], { orderBy: order.map((e) => sql.order(e)) }),
    sql.cast(sql.text('[]'), pgType('json')),
  ]);

const CASES: Record<string, SqlStatement> = {
  // select Item order by true then 'x' (EdgeQL): keys that are non-integer constants are values
  // (printed cast, which PostgreSQL accepts); a number is an output column's position
  constant_order_and_group_keys: sql.select({
    targets: [sql.target(sql.col('n', 'i')), sql.target(sql.agg('count', [sql.star()]))],
    from: [item('i')],
    groupBy: [sql.col('n', 'i'), sql.text('x'), sql.bool(false)],
    orderBy: [
      sql.order(sql.bool(true)),
      sql.order(sql.text('x'), 'desc'),
      sql.order(sql.null()),
      sql.order(sql.num(2)),
    ],
  }),
  // select Item { id, name } filter .name = <str>$0 order by .n desc empty first limit 2 offset 1
  select_shape_filter_order: sql.select({
    targets: [sql.target(jsonArray(sql.col('v', 'q'), [sql.col('ord', 'q')]), 'result')],
    from: [
      sql.subquery(
        sql.select({
          targets: [
            sql.target(
              sql.func('json_build_object', [
                sql.text('id'),
                sql.col('id', 'i'),
                sql.text('name'),
                sql.col('name', 'i'),
              ]),
              'v',
            ),
            sql.target(
              sql.agg('row_number', [], {
                over: { partitionBy: [], orderBy: [sql.order(sql.col('n', 'i'), 'desc', 'first')] },
              }),
              'ord',
            ),
          ],
          from: [item('i')],
          where: sql.bin('=', sql.col('name', 'i'), textParam(1)),
          orderBy: [sql.order(sql.col('n', 'i'), 'desc', 'first'), sql.order(sql.col('id', 'i'))],
          limit: sql.num(2),
          offset: sql.num(1),
        }),
        'q',
      ),
    ],
  }),

  // A multi link with a sub-shape: a correlated ARRAY / scalar sublink per row, link properties.
  select_nested_link_sublinks: sql.select({
    targets: [
      sql.target(
        sql.func('json_build_object', [
          sql.text('name'),
          sql.col('name', 'i'),
          sql.text('tags'),
          sql.scalar(
            sql.select({
              targets: [
                sql.target(
                  jsonArray(
                    sql.func('json_build_object', [
                      sql.text('name'),
                      sql.col('name', 't'),
                      sql.text('@weight'),
                      sql.col('weight', 'l'),
                    ]),
                    [sql.col('weight', 'l')],
                  ),
                ),
              ],
              from: [
                sql.join(
                  'inner',
                  tags('l'),
                  item('t'),
                  sql.bin('=', sql.col('id', 't'), sql.col('target', 'l')),
                ),
              ],
              where: sql.bin('=', sql.col('source', 'l'), sql.col('id', 'i')),
            }),
          ),
          sql.text('tag_ids'),
          sql.array(
            sql.select({
              targets: [sql.target(sql.col('target', 'l2'))],
              from: [tags('l2')],
              where: sql.bin('=', sql.col('source', 'l2'), sql.col('id', 'i')),
            }),
          ),
        ]),
        'v',
      ),
    ],
    from: [item('i')],
    where: sql.and(
      sql.exists(
        sql.select({
          targets: [sql.target(sql.num(1))],
          from: [tags('l3')],
          where: sql.bin('=', sql.col('source', 'l3'), sql.col('id', 'i')),
        }),
      ),
      sql.anySub(
        sql.col('owner', 'i'),
        '=',
        sql.select({ targets: [sql.target(sql.col('id', 'o'))], from: [item('o')] }),
      ),
      sql.bin('is distinct from', sql.col('n', 'i'), sql.null()),
    ),
  }),

  // for x in json_array_unpack(<json>$0) union (...): a FROM function with ordinality, LATERAL.
  from_functions_lateral: sql.select({
    targets: [
      sql.target(sql.col('ordinality', 'x')),
      sql.target(sql.col('n', 'c')),
      sql.target(sql.col('u', 'u')),
    ],
    from: [
      sql.fromFunction(sql.func('jsonb_array_elements', [sql.cast(sql.param(1), jsonb)]), 'x', {
        withOrdinality: true,
        columns: [
          { name: 'value', type: null },
          { name: 'ordinality', type: null },
        ],
      }),
      sql.join(
        'left',
        sql.subquery(
          sql.select({
            targets: [
              sql.target(sql.cast(sql.bin('->>', sql.col('value', 'x'), sql.text('n')), int4), 'n'),
            ],
          }),
          'c',
          { lateral: true },
        ),
        sql.fromFunction(sql.func('unnest', [sql.cast(sql.param(2), pgType('int4', 1))]), 'u', {
          columns: [{ name: 'u', type: null }],
          lateral: true,
        }),
        sql.bin('=', sql.col('u', 'u'), sql.col('n', 'c')),
      ),
      sql.fromFunction(sql.func('jsonb_to_record', [sql.cast(sql.param(3), jsonb)]), 'r', {
        columns: [{ name: 'a', type: int4 }],
      }),
    ],
  }),

  // group by / having, aggregates with distinct, order by and filter, distinct on.
  aggregates_group_distinct_on: sql.select({
    distinct: [sql.col('owner', 'i')],
    targets: [
      sql.target(sql.col('owner', 'i'), 'owner'),
      sql.target(sql.func('count', [sql.star()]), 'all'),
      sql.target(sql.agg('count', [sql.col('n', 'i')], { distinct: true }), 'distinct_n'),
      sql.target(
        sql.agg('array_agg', [sql.col('name', 'i')], {
          orderBy: [sql.order(sql.col('name', 'i'), 'asc', 'last')],
          filter: sql.bin('>', sql.col('n', 'i'), intParam(1)),
        }),
        'names',
      ),
    ],
    from: [item('i')],
    groupBy: [sql.col('owner', 'i')],
    having: sql.bin('>', sql.func('count', [sql.star()]), sql.num(1)),
    orderBy: [sql.order(sql.col('owner', 'i'), null, 'last'), sql.order(sql.num(2), 'desc')],
  }),

  // set operations over VALUES and SELECT, with order by / limit on the whole.
  set_operations_values: sql.setOp(
    'union',
    true,
    sql.values([
      [sql.num(1), sql.text("it's")],
      [sql.num(-2), sql.null()],
    ]),
    sql.setOp(
      'except',
      false,
      sql.select({
        targets: [sql.target(sql.col('n', 'i')), sql.target(sql.col('name', 'i'))],
        from: [item('i')],
      }),
      sql.select({ targets: [sql.target(intParam(1)), sql.target(textParam(2))] }),
    ),
    { orderBy: [sql.order(sql.num(1))], limit: sql.cast(textParam(3), pgType('int8')) },
  ),

  // insert Item { name := <str>$0, tags := (select Item filter .n > 1) } — one statement: the new
  // row in a CTE, the link rows from it, then the result JSON from the CTE.
  insert_nested_through_ctes: sql.select({
    with: sql.with([
      sql.cte(
        'ins',
        sql.insert({
          table: { schema: 'app', name: 'Item' },
          columns: ['id', 'name', 'n'],
          source: sql.values([[sql.func('gen_random_uuid', []), textParam(1), sql.default()]]),
          returning: [sql.target(sql.star())],
        }),
      ),
      sql.cte(
        'ins_tags',
        sql.insert({
          table: { schema: 'app', name: 'Item.tags' },
          columns: ['source', 'target', 'weight'],
          source: sql.select({
            targets: [
              sql.target(sql.col('id', 'ins')),
              sql.target(sql.col('id', 't')),
              sql.target(sql.null()),
            ],
            from: [sql.table(null, 'ins', null), item('t')],
            where: sql.bin('>', sql.col('n', 't'), sql.num(1)),
          }),
          returning: [sql.target(sql.col('source')), sql.target(sql.col('target'))],
        }),
        { materialized: true },
      ),
    ]),
    targets: [
      sql.target(
        jsonArray(
          sql.func('json_build_object', [
            sql.text('id'),
            sql.col('id', 'ins'),
            sql.text('tags'),
            sql.array(
              sql.select({
                targets: [sql.target(sql.col('target', 'x'))],
                from: [sql.table(null, 'ins_tags', 'x')],
                where: sql.bin('=', sql.col('source', 'x'), sql.col('id', 'ins')),
              }),
            ),
          ]),
        ),
        'result',
      ),
    ],
    from: [sql.table(null, 'ins', null)],
  }),

  // insert ... unless conflict on .name else (update ...).
  insert_on_conflict: sql.insert({
    table: { schema: 'app', name: 'Item.tags' },
    alias: 'old',
    columns: ['source', 'target', 'weight'],
    source: sql.values([[uuidParam(1), uuidParam(2), intParam(3)]]),
    onConflict: {
      target: { kind: 'columns', columns: ['source', 'target'], where: null },
      action: {
        kind: 'update',
        set: [
          {
            column: 'weight',
            value: sql.func('coalesce', [sql.col('weight', 'old'), sql.num(0)]),
          },
        ],
        where: sql.bin('is distinct from', sql.col('weight', 'old'), sql.col('weight', 'excluded')),
      },
    },
    returning: [sql.target(sql.col('source', 'old'), 'id')],
  }),

  insert_default_values_on_constraint: sql.insert({
    with: sql.with([
      sql.cte(
        'gone',
        sql.delete({
          table: { schema: 'app', name: 'Item.tags' },
          returning: [sql.target(sql.col('source'))],
        }),
        {
          materialized: false,
        },
      ),
    ]),
    table: { schema: 'Mod ule', name: 'T"1' },
    columns: [],
    source: null,
    onConflict: { target: { kind: 'constraint', name: 'T"1_pkey' }, action: { kind: 'nothing' } },
    returning: [sql.target(sql.star())],
  }),

  // update Item filter .name = $0 set { n := .n + 1, owner := (select Item limit 1) }
  update_from_returning: sql.update({
    table: { schema: 'app', name: 'Item' },
    alias: 'i',
    set: [
      { column: 'n', value: sql.bin('+', sql.col('n', 'i'), sql.num(1)) },
      { column: 'owner', value: sql.col('id', 'src') },
    ],
    from: [
      sql.subquery(
        sql.select({
          targets: [sql.target(sql.col('id', 'o'))],
          from: [item('o')],
          limit: sql.num(1),
        }),
        'src',
      ),
    ],
    where: sql.bin('=', sql.col('name', 'i'), textParam(1)),
    returning: [sql.target(sql.col('id', 'i')), sql.target(sql.col('n', 'i'), 'new n')],
  }),

  // delete Item filter exists .tags: the link rows first (on source delete), through CTEs.
  delete_using_chained: sql.delete({
    with: sql.with([
      sql.cte(
        'del_links',
        sql.delete({
          table: { schema: 'app', name: 'Item.tags' },
          alias: 'l',
          using: [item('i')],
          where: sql.and(
            sql.bin('=', sql.col('source', 'l'), sql.col('id', 'i')),
            sql.isNull(sql.col('n', 'i')),
          ),
          returning: [sql.target(sql.col('source', 'l'))],
        }),
      ),
    ]),
    table: { schema: 'app', name: 'Item' },
    alias: 'i',
    using: [sql.table(null, 'del_links', 'd')],
    where: sql.or(
      sql.bin('=', sql.col('id', 'i'), sql.col('source', 'd')),
      sql.not(sql.bool(true)),
    ),
    returning: [sql.target(sql.col('id', 'i'))],
  }),

  // A recursive CTE (the printer writes what it is given; PostgreSQL checks the recursion shape).
  recursive_cte: sql.select({
    with: sql.with(
      [
        sql.cte(
          'walk',
          sql.setOp(
            'union',
            true,
            sql.select({
              targets: [sql.target(sql.col('id', 'i')), sql.target(sql.col('owner', 'i'))],
              from: [item('i')],
              where: sql.bin('=', sql.col('id', 'i'), uuidParam(1)),
            }),
            sql.select({
              targets: [sql.target(sql.col('id', 'o')), sql.target(sql.col('owner', 'o'))],
              from: [
                sql.join(
                  'inner',
                  sql.table(null, 'walk', 'w'),
                  item('o'),
                  sql.bin('=', sql.col('id', 'o'), sql.col('owner', 'w')),
                ),
              ],
            }),
          ),
          { columns: ['id', 'owner'] },
        ),
      ],
      true,
    ),
    targets: [sql.target(sql.func('count', [sql.star()]))],
    from: [sql.table(null, 'walk', null)],
  }),

  // Quoting: identifiers and text with quotes, a field of a composite, an aliased cross join.
  quoting_and_fields: sql.select({
    with: sql.with(
      [
        sql.cte(
          'we"ird',
          sql.select({
            targets: [
              sql.target(
                sql.func('row', [sql.num(1), sql.cast(sql.text("O'Brien"), pgType('text'))]),
                'r',
              ),
            ],
          }),
          { columns: ['Col"1'] },
        ),
      ],
      false,
    ),
    targets: [
      sql.target(sql.col('Col"1', 'w'), 'select'),
      sql.target(sql.field(sql.col('Col"1', 'w'), 'f2')),
      sql.target(sql.text('a "quoted" \\ text'), "it's"),
      sql.target(sql.col('B b', 't')),
    ],
    from: [sql.crossJoin(sql.table(null, 'we"ird', 'w'), sql.table('Mod ule', 'T"1', 't'))],
    where: sql.bin('<>', sql.col('B b', 't'), sql.cast(sql.param(1), int4)),
  }),
};

let db: FixtureDatabase;
beforeAll(async () => {
  db = await createFixtureDatabase();
});
afterAll(async () => {
  await db.dispose();
});

describe('SQL statement printer (golden files)', () => {
  for (const [name, tree] of Object.entries(CASES)) {
    test(name, async () => {
      const pretty = printStatement(tree, { pretty: true });
      const file = join(GOLDEN_DIR, `${name}.sql`);
      if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
        if (process.env.CI) throw new Error(`golden file ${name}.sql is missing (UPDATE_GOLDEN=1)`);
        mkdirSync(GOLDEN_DIR, { recursive: true });
        writeFileSync(file, `${pretty}\n`);
      }
      expect(`${pretty}\n`).toBe(readFileSync(file, 'utf8'));
      await db.analyzes(pretty);
      await db.analyzes(printStatement(tree));
    });
  }
});
