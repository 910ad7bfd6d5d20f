/**
 * Result tests over the cards fixture (./__tests__/cards-db: Gel's card game data): link
 * properties, computed links (a backlink, a filtered link, a single link by order), schema
 * aliases with shapes, globals, views and grouping by a link property.
 */
import { openCardsDb } from './__tests__/cards-db';
import type { IssuesDb } from './__tests__/issues-db';

let db: IssuesDb;
beforeAll(async () => {
  db = await openCardsDb();
}, 120_000);
afterAll(() => db?.tdb.dispose());

const sorted = (v: unknown): unknown =>
  Array.isArray(v) ? [...v].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) : v;

test.each([
  [
    "select User { name, deck: { name, @count } order by @count desc then .name limit 2 } filter .name = 'Carol'",
    [
      {
        name: 'Carol',
        deck: [
          { name: 'Dwarf', '@count': 4 },
          { name: 'Sprite', '@count': 4 },
        ],
      },
    ],
  ],
  [
    "select Card { name, owners: { name } order by .name } filter .name = 'Dragon'",
    [{ name: 'Dragon', owners: [{ name: 'Alice' }, { name: 'Dave' }] }],
  ],
  [
    "select Card { good_awards: { name }, best_award: { name } } filter .name = 'Dragon'",
    [{ good_awards: [{ name: '1st' }], best_award: [{ name: '1st' }] }],
  ],
  [
    'select User { name, deck_cost } order by .name',
    [
      { name: 'Alice', deck_cost: 11 },
      { name: 'Bob', deck_cost: 9 },
      { name: 'Carol', deck_cost: 16 },
      { name: 'Dave', deck_cost: 20 },
    ],
  ],
  ["select Card { elemental_cost } filter .name = 'Imp'", [{ elemental_cost: '1 Fire' }]],
  [
    'select User { name, avatar: { name, @text } } filter exists .avatar order by .name',
    [
      { name: 'Alice', avatar: [{ name: 'Dragon', '@text': 'Best' }] },
      { name: 'Dave', avatar: [{ name: 'Djinn', '@text': 'Wow' }] },
    ],
  ],
  [
    "select User { name, friends: { name, @nickname } order by .name } filter .name = 'Alice'",
    [
      {
        name: 'Alice',
        friends: [
          { name: 'Bob', '@nickname': 'Swampy' },
          { name: 'Carol', '@nickname': 'Firefighter' },
          { name: 'Dave', '@nickname': 'Grumpy' },
        ],
      },
    ],
  ],
  [
    'select AwardAlias { name, winner: { name_upper } } order by .name',
    [
      { name: '1st', winner: [{ name_upper: 'ALICE' }] },
      { name: '2nd', winner: [{ name_upper: 'ALICE' }] },
      { name: '3rd', winner: [{ name_upper: 'BOB' }] },
    ],
  ],
  [
    "select WaterOrEarthCard { name, owned_by_alice } filter .name in {'Dwarf', 'Bog monster'} order by .name",
    [
      // EXISTS of {false, false} is true: the alias tests that the card has owners at all.
      { name: 'Bog monster', owned_by_alice: true },
      { name: 'Dwarf', owned_by_alice: true },
    ],
  ],
  ['select SpecialCardAlias { name, el_cost }', [{ name: 'Djinn', el_cost: ['Air', 4] }]],
  ['select (global GlobalOne, global HighestCost)', [[1, 5]]],
  ['select count(Card.<deck[is User])', [4]],
  ["select sum((select User filter .name = 'Bob').deck@count)", [12]],
  ['select Card.name filter Card.cost = Card.<deck[is User]@count', ['Giant turtle', 'Golem']],
  [
    "select (group (select User filter .name = 'Carol').deck by @count) { count := .key.count, n := count(.elements) } order by .count",
    [
      { count: 1, n: 1 },
      { count: 2, n: 2 },
      { count: 3, n: 2 },
      { count: 4, n: 2 },
    ],
  ],
  ['select Bot { name, deck_size := count(.deck) }', [{ name: 'Dave', deck_size: 7 }]],
  // Ranges: Gel's cards alias pattern, `for cost in range_unpack(range(0, max(...) + 1))`.
  ['select range_unpack(range(1, 4))', [1, 2, 3]],
  [
    'select CardCountsByCost order by .0',
    [
      [0, 0],
      [1, 3],
      [2, 2],
      [3, 2],
      [4, 1],
      [5, 1],
    ],
  ],
  // AliasCardsByCost itself (an array of arrays) builds; reading it needs nested arrays in SQL.
  [
    'select range(0, max(Card.cost) + 1, inc_upper := true)',
    [{ lower: 0, upper: 7, inc_lower: true, inc_upper: false }],
  ],
  ["select contains(range(1, max(Card.cost)), (select Card filter .name = 'Golem').cost)", [true]],
])('%s', async (query, expected) => {
  const result = await db.run(query);
  expect(query.includes('order by') || !Array.isArray(result) ? result : sorted(result)).toEqual(
    query.includes('order by') ? expected : sorted(expected),
  );
});

describe('range values in queries', () => {
  test('a range<T> parameter decodes from its JSON form and unpacks', async () => {
    const query = 'select range_unpack(<range<std::int64>>$r)';
    expect(
      await db.run(query, { r: { lower: 2, upper: 4, inc_lower: true, inc_upper: true } }),
    ).toEqual([2, 3, 4]);
    expect(await db.run('select <range<int32>>$r', { r: { empty: true } })).toEqual([
      { empty: true },
    ]);
  });

  test('a range casts from and to json', async () => {
    expect(
      await db.run(
        'select <range<float64>>to_json(\'{"lower": 1.5, "upper": null, "inc_lower": false, "inc_upper": false}\')',
      ),
    ).toEqual([{ lower: 1.5, upper: null, inc_lower: false, inc_upper: false }]);
    expect(
      await db.run(
        'select <json>range(1, 3) = to_json(\'{"lower": 1, "upper": 3, "inc_lower": true, "inc_upper": false}\')',
      ),
    ).toEqual([true]);
  });

  test('a range of a type that has none is refused with its position', async () => {
    // Gel: a range of a type that is no range element is an UnsupportedFeatureError.
    await expect(db.run('select <range<str>>$r', { r: { empty: true } })).rejects.toMatchObject({
      type: 'UnsupportedFeatureError',
      message: 'unsupported range subtype: std::str',
    });
  });
});
