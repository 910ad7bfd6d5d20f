import { QueryError } from '../../errors';
import { createDefaultMigrator, buildSchema, type Schema } from '../../schema';
import { createTestDatabase, rolledBack, type TestDatabase } from '../../testing';
import type { CompileOptions } from '../api';
import { compileQuery } from '../compile';

/**
 * Mutation result tests over a small schema of their own (defaults the compiler applies,
 * exclusive constraints across a hierarchy, `on source delete`, `for` over updates and nested
 * inserts), on the engine under test. Each test's queries run in one transaction, rolled back.
 */

const SDL = `
module default {
  abstract type Named {
    required name: str { constraint exclusive; }
  }
  type Cat extending Named {
    lives: int64 { default := 9 };
    multi toys: str { default := {'ball', 'mouse'} };
  }
  type Bone {
    required label: str;
  }
  global note_default: str;
  type Note {
    required body: str { default := global note_default };
    required created: str { readonly := true; default := 'now' };
  }
  type Pair {
    required a: str;
    required b: str;
    n: int64;
    constraint exclusive on ((.a, .b));
  }
  type Kennel {
    required multi dogs: Dog;
  }
  type Handle {
    required nick: str { constraint exclusive on (str_lower(__subject__)); }
    required slot: str { constraint exclusive; default := 'main' }
  }
  type Dog extending Named {
    favourite: Bone { on source delete delete target; };
    multi bones: Bone { on source delete delete target if orphan; };
  }
}
`;

let tdb: TestDatabase;
let schema: Schema;
beforeAll(async () => {
  tdb = await createTestDatabase();
  await createDefaultMigrator().migrate(tdb.db, SDL);
  schema = buildSchema(SDL);
}, 60_000);
afterAll(async () => {
  await tdb.dispose();
});

/** Runs the queries in one rolled-back transaction; their results, or the first one's error. */
function run(
  queries: readonly string[],
  values: Record<string, unknown> = {},
  options: CompileOptions = {},
): Promise<unknown[]> {
  return rolledBack(tdb.db, async (tx) => {
    const results: unknown[] = [];
    for (const query of queries) {
      const compiled = compileQuery(schema, query, options);
      const params = compiled.params.map((p) =>
        values[p.name] === undefined ? null : JSON.stringify(values[p.name]),
      );
      const { rows } = await tx.query<{ result: string }>(compiled.sql, params);
      results.push(JSON.parse((rows[0] as { result: string }).result));
    }
    return results;
  });
}

test('defaults: a column default from PostgreSQL, a multi default from the compiler', async () => {
  const [inserted, kept] = await run([
    "insert Cat { name := 'Tom' }",
    "select Cat { name, lives, toys } filter .name = 'Tom'",
  ]);
  expect(inserted).toEqual([
    { id: expect.any(String), name: 'Tom', lives: 9, toys: ['ball', 'mouse'] },
  ]);
  expect(kept).toEqual([{ name: 'Tom', lives: 9, toys: ['ball', 'mouse'] }]);
});

test('a value given replaces the default', async () => {
  const [inserted] = await run(["insert Cat { name := 'Tom', lives := 1, toys := 'yarn' }"]);
  expect(inserted).toEqual([{ id: expect.any(String), name: 'Tom', lives: 1, toys: ['yarn'] }]);
});

test('unless conflict checks the exclusive constraint across the hierarchy', async () => {
  const [, dog, count] = await run([
    "insert Cat { name := 'Rex' }",
    "insert Dog { name := 'Rex' } unless conflict on .name",
    'select count(Named)',
  ]);
  expect(dog).toEqual([]);
  expect(count).toEqual([1]);
});

test('unless conflict ... else (select ...) finds the conflicting object in a sibling table', async () => {
  const [, found] = await run([
    "insert Cat { name := 'Rex' }",
    "select (insert Dog { name := 'Rex' } unless conflict on .name else (select Dog)) { name, is_cat := .__type__.name = 'default::Cat' }",
  ]);
  expect(found).toEqual([{ name: 'Rex', is_cat: true }]);
});

test('unless conflict on a pointer with an exclusive constraint on an expression compares the expression', async () => {
  const [, found, none, count] = await run([
    "insert Handle { nick := 'Ada', slot := 'a' }",
    "select (insert Handle { nick := 'ADA', slot := 'b' } unless conflict on .nick else (select Handle)) { nick }",
    "insert Handle { nick := 'aDa', slot := 'c' } unless conflict",
    'select count(Handle)',
  ]);
  expect(found).toEqual([{ nick: 'Ada' }]);
  expect(none).toEqual([]);
  expect(count).toEqual([1]);
});

test('unless conflict on a pointer the insert leaves to its default compares the default', async () => {
  const [, again, count] = await run([
    "insert Handle { nick := 'x' }",
    "select (insert Handle { nick := 'y' } unless conflict on .slot else (select Handle)) { nick, slot }",
    'select count(Handle)',
  ]);
  expect(again).toEqual([{ nick: 'x', slot: 'main' }]);
  expect(count).toEqual([1]);
});

test('on source delete: delete target, and delete target if orphan', async () => {
  const [, , , , bones] = await run([
    "insert Bone { label := 'shared' }",
    `insert Dog { name := 'A', favourite := (insert Bone { label := 'fav' }),
                  bones := (select Bone filter .label = 'shared') }`,
    "insert Dog { name := 'B', bones := (select Bone filter .label = 'shared') }",
    "delete Dog filter .name = 'A'",
    'select Bone.label order by Bone.label',
  ]);
  // `fav` went with A; `shared` stays, B still links it.
  expect(bones).toEqual(['shared']);
  const [, , , orphaned] = await run([
    "insert Bone { label := 'only' }",
    "insert Dog { name := 'C', bones := (select Bone filter .label = 'only') }",
    "delete Dog filter .name = 'C'",
    'select count(Bone)',
  ]);
  expect(orphaned).toEqual([0]);
});

test('for ... union (update ...) and for ... union (insert ... { link := (insert ...) })', async () => {
  const [, updated, dogs] = await run([
    "for n in {'A', 'B', 'C'} union (insert Cat { name := n })",
    "for n in {'A', 'C'} union (update Cat filter .name = n set { lives := 1 })",
    "for n in {'x', 'y'} union (select (insert Dog { name := n, favourite := (insert Bone { label := n ++ '!' }) }) { name, favourite: { label } })",
  ]);
  expect(
    (updated as { name: string; lives: number }[]).map((c) => [c.name, c.lives]).sort(),
  ).toEqual([
    ['A', 1],
    ['C', 1],
  ]);
  expect((dogs as { name: string }[]).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
    { name: 'x', favourite: [{ label: 'x!' }] },
    { name: 'y', favourite: [{ label: 'y!' }] },
  ]);
});

test('a required multi link given an empty set fails at run time with MissingRequiredError (23502)', async () => {
  const failed = run(["insert Kennel { dogs := (select Dog filter .name = 'nobody') }"]);
  await expect(failed).rejects.toMatchObject({ code: '23502' });
  const [kennel] = await run([
    "insert Dog { name := 'D' }",
    "select (insert Kennel { dogs := (select Dog filter .name = 'D') }) { dogs: { name } }",
  ]).then((r) => [r[1]]);
  expect(kennel).toEqual([{ dogs: [{ name: 'D' }] }]);
});

test('-= on a required multi link may not remove its last target (MissingRequiredError, 23502)', async () => {
  const setup = [
    "insert Dog { name := 'A' }",
    "insert Dog { name := 'B' }",
    "insert Kennel { dogs := (select Dog filter .name in {'A', 'B'}) }",
  ];
  const [, , , , kept] = await run([
    ...setup,
    "update Kennel set { dogs -= (select Dog filter .name = 'A') }",
    'select Kennel { dogs: { name } }',
  ]);
  expect(kept).toEqual([{ dogs: [{ name: 'B' }] }]);
  const emptied = run([
    ...setup,
    "update Kennel set { dogs -= (select Dog filter .name in {'A', 'B'}) }",
  ]);
  await expect(emptied).rejects.toMatchObject({ code: '23502' });
});

test('-= on a multi property removes one stored occurrence per removed occurrence (multiset)', async () => {
  const [, , left] = await run([
    "insert Cat { name := 'Tom', toys := {'a', 'a', 'b', 'c', 'b', 'b'} }",
    "update Cat filter .name = 'Tom' set { toys -= {'a', 'b', 'b', 'z'} }",
    "select Cat { toys order by Cat.toys } filter .name = 'Tom'",
  ]);
  expect(left).toEqual([{ toys: ['a', 'b', 'c'] }]);
});

test('a default PostgreSQL cannot evaluate (a global) is applied by the compiler', async () => {
  const [note] = await run(['insert Note'], { 'default::note_default': 'from the global' });
  expect(note).toEqual([{ id: expect.any(String), body: 'from the global', created: 'now' }]);
});

test('a readonly property can be set on insert, not on update', async () => {
  const [note] = await run(["insert Note { body := 'b', created := 'then' }"]);
  expect(note).toEqual([{ id: expect.any(String), body: 'b', created: 'then' }]);
  expect(() => compileQuery(schema, "update Note set { created := 'x' }")).toThrow(/read-only/);
});

test('for ... union (insert ... unless conflict on ... else (select ...)): per iteration', async () => {
  const [, result] = await run([
    "insert Cat { name := 'Rex' }",
    "for n in {'Rex', 'Fido'} union (select (insert Dog { name := n } unless conflict on .name else (select Dog)) { name, cat := .__type__.name = 'default::Cat' })",
  ]);
  expect((result as { name: string }[]).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
    { name: 'Fido', cat: false },
    { name: 'Rex', cat: true },
  ]);
});

test('unless conflict on a tuple needs a type-level exclusive constraint on it', async () => {
  const [, again, other, count] = await run([
    "insert Pair { a := 'x', b := 'y', n := 1 }",
    "select (insert Pair { a := 'x', b := 'y', n := 2 } unless conflict on (.a, .b) else (select Pair)) { n }",
    "insert Pair { a := 'x', b := 'z', n := 3 } unless conflict on (.a, .b)",
    'select count(Pair)',
  ]);
  expect(again).toEqual([{ n: 1 }]);
  expect((other as { n: number }[]).map((p) => p.n)).toEqual([3]);
  expect(count).toEqual([2]);
  expect(() =>
    compileQuery(schema, "insert Pair { a := 'x', b := 'y' } unless conflict on (.a, .n)"),
  ).toThrow(/no exclusive constraint/);
});

test('for ... union (insert ... unless conflict ... else (update ...)): updates only the conflicting one', async () => {
  const [, result, names] = await run([
    "insert Dog { name := 'Rex' }",
    "for n in {'Rex', 'New'} union (insert Dog { name := n } unless conflict on .name else (update Dog set { name := .name ++ '!' }))",
    'select Dog.name order by Dog.name',
  ]);
  expect((result as { name: string }[]).map((d) => d.name).sort()).toEqual(['New', 'Rex!']);
  expect(names).toEqual(['New', 'Rex!']);
});

// An insert that gives the new object's id (CompileOptions.allowUserSpecifiedId, Gel's
// `allow_user_specified_id`): off by default; on, the id is required and must be new among the
// objects of every type, `unless conflict` skips a taken one, and an update never sets it.
describe('an insert that gives the id', () => {
  const A = 'aaaaaaaa-0000-4000-8000-000000000001';
  const B = 'bbbbbbbb-0000-4000-8000-000000000002';
  const given = { allowUserSpecifiedId: true };
  const taken = { code: '23505', message: 'id violates exclusivity constraint' };

  test('off by default: refused, naming the setting', () => {
    const refused = () => compileQuery(schema, `insert Bone { id := <uuid>'${A}', label := 'x' }`);
    expect(refused).toThrow(QueryError);
    expect(refused).toThrow("cannot assign to property 'id'");
    expect(() => refused()).toThrow(
      expect.objectContaining({ hint: expect.stringContaining('allowUserSpecifiedId') }),
    );
  });

  test('on: the object is written with the id given, and read back by it', async () => {
    const [inserted, read] = await run(
      [
        'insert Cat { id := <uuid>$id, name := <str>$name }',
        'select Cat { name } filter .id = <uuid>$id',
      ],
      { id: A, name: 'Tom' },
      given,
    );
    expect(inserted).toEqual([{ id: A, name: 'Tom', lives: 9, toys: ['ball', 'mouse'] }]);
    expect(read).toEqual([{ name: 'Tom' }]);
  });

  test.each([
    ['the same type', `insert Cat { id := <uuid>'${A}', name := 'Bob' }`],
    ['a sibling type', `insert Dog { id := <uuid>'${A}', name := 'Bob' }`],
    ['an unrelated type', `insert Bone { id := <uuid>'${A}', label := 'x' }`],
  ])('an id an object of %s holds is a ConstraintViolationError', async (_, insert) => {
    await expect(
      run([`insert Cat { id := <uuid>'${A}', name := 'Tom' }`, insert], {}, given),
    ).rejects.toMatchObject(taken);
  });

  test('two inserts of one statement may not give two types one id', async () => {
    await expect(
      run(
        [
          `select { (insert Cat { id := <uuid>'${A}', name := 'Tom' }).id, (insert Bone { id := <uuid>'${A}', label := 'x' }).id }`,
        ],
        {},
        given,
      ),
    ).rejects.toMatchObject(taken);
  });

  test('unless conflict, bare or on .id, skips an id any type holds', async () => {
    const [, bare, onId, count] = await run(
      [
        `insert Cat { id := <uuid>'${A}', name := 'Tom' }`,
        `insert Bone { id := <uuid>'${A}', label := 'x' } unless conflict`,
        `insert Bone { id := <uuid>'${A}', label := 'x' } unless conflict on .id`,
        'select count(Bone)',
      ],
      {},
      given,
    );
    expect(bare).toEqual([]);
    expect(onId).toEqual([]);
    expect(count).toEqual([0]);
  });

  test('unless conflict on another pointer still refuses a taken id', async () => {
    await expect(
      run(
        [
          `insert Bone { id := <uuid>'${A}', label := 'x' }`,
          `insert Cat { id := <uuid>'${A}', name := 'Tom' } unless conflict on .name`,
        ],
        {},
        given,
      ),
    ).rejects.toMatchObject(taken);
  });

  test('unless conflict on .name else: the existing object, whatever id was given', async () => {
    const [, answer] = await run(
      [
        `insert Cat { id := <uuid>'${A}', name := 'Tom' }`,
        `select (insert Cat { id := <uuid>'${B}', name := 'Tom' } unless conflict on .name else (select Cat)) { id }`,
      ],
      {},
      given,
    );
    expect(answer).toEqual([{ id: A }]);
  });

  test('an empty id is a MissingRequiredError', async () => {
    await expect(
      run(
        ['insert Bone { id := <optional uuid>$id, label := <str>$label }'],
        { label: 'x' },
        given,
      ),
    ).rejects.toMatchObject({
      code: '23502',
      message: "missing value for required property 'default::Bone.id'",
    });
  });

  test('nested inserts give their ids; a link reads the object by it', async () => {
    const [inserted] = await run(
      [
        `select (insert Dog { id := <uuid>'${A}', name := 'Rex', favourite := (insert Bone { id := <uuid>'${B}', label := 'b' }) }) { id, favourite: { id, label } }`,
      ],
      {},
      given,
    );
    expect(inserted).toEqual([{ id: A, favourite: [{ id: B, label: 'b' }] }]);
  });

  test('an update never sets an id', () => {
    expect(() => compileQuery(schema, `update Cat set { id := <uuid>'${A}' }`, given)).toThrow(
      "cannot assign to property 'id'",
    );
  });
});
