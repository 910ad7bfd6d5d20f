import { EdgeQLSyntaxError, type QueryError } from '../errors';
import { growthRatio } from '../../test/growth';
import { sexpr } from './__tests__/sexpr';
import type {
  DeleteQuery,
  ForQuery,
  GroupQuery,
  InternalGroupQuery,
  InsertQuery,
  Path,
  SelectQuery,
  Shape,
  UpdateQuery,
} from './ast';
import {
  parseExpression,
  parseQuery,
  parseType,
  printExpression,
  printQuery,
  withoutSpans,
} from './index';

function expr(text: string): string {
  return sexpr(parseExpression(text));
}

function only<T>(text: string): T {
  const statements = parseQuery(text);
  expect(statements).toHaveLength(1);
  return statements[0] as T;
}

function syntaxError(text: string): QueryError {
  try {
    parseQuery(text);
  } catch (e) {
    expect(e).toBeInstanceOf(EdgeQLSyntaxError);
    return e as QueryError;
  }
  throw new Error(`expected a syntax error for: ${text}`);
}

describe('expressions: precedence and associativity (Gel precedence.py)', () => {
  test.each([
    ['1 + 2 * 3', '(+ 1 (* 2 3))'],
    ['1 * 2 + 3', '(+ (* 1 2) 3)'],
    ['1 - 2 - 3', '(- (- 1 2) 3)'],
    ['a ++ b ++ c', '(++ (++ a b) c)'],
    ['8 / 4 // 2 % 3', '(% (// (/ 8 4) 2) 3)'],
    // ^ is right-associative and binds tighter than unary minus
    ['2 ^ 3 ^ 2', '(^ 2 (^ 3 2))'],
    ['-2 ^ 2', '(- (^ 2 2))'],
    ['-x ^ 2', '(- (^ x 2))'],
    ['(-2) ^ 2', '(^ -2 2)'],
    ['-2', '-2'],
    ['- -2', '(- -2)'],
    ['-x * y', '(* (- x) y)'],
    ['+x', '(+ x)'],
    // ?? is right-associative and binds tighter than * and +
    ['a ?? b ?? c', '(?? a (?? b c))'],
    ['a ?? b * c', '(* (?? a b) c)'],
    ['a * b ?? c', '(* a (?? b c))'],
    // comparison, in, like, is: non-associative levels
    ['a + 1 = b * 2', '(= (+ a 1) (* b 2))'],
    ['a = b in c', '(in (= a b) c)'],
    ['a in b = c', '(in a (= b c))'],
    ['a like b = c', '(like a (= b c))'],
    ['a not in b', '(not in a b)'],
    ['a not like b', '(not like a b)'],
    ['a ilike b', '(ilike a b)'],
    ['a not ilike b', '(not ilike a b)'],
    ['a is str', '(is a str)'],
    ['a is not str', '(is-not a str)'],
    ['a + b is str', '(is (+ a b) str)'],
    ['a is str = true', '(= (is a str) true)'],
    ['a is A | B', '(is a A | B)'],
    ['a is (array<int64>)', '(is a array<int64>)'],
    ['a != b', '(!= a b)'],
    ['a ?= b', '(?= a b)'],
    ['a ?!= b', '(?!= a b)'],
    ['a <= b', '(<= a b)'],
    ['a >= b', '(>= a b)'],
    ['a < b', '(< a b)'],
    ['a > b', '(> a b)'],
    // boolean operators
    ['not a and b', '(and (not a) b)'],
    ['not a = b', '(not (= a b))'],
    ['a or b and c', '(or a (and b c))'],
    ['a and b or c', '(or (and a b) c)'],
    ['not not a', '(not (not a))'],
    ['a = not b', '(= a (not b))'],
    // set operators
    ['a union b union c', '(union (union a b) c)'],
    ['a union b intersect c', '(union a (intersect b c))'],
    ['a except b union c', '(union (except a b) c)'],
    ['a or b union c', '(union (or a b) c)'],
    // if/else: both forms; right-associative, looser than or, tighter than union
    ['a if c else b', '(if c a b)'],
    ['a if c else b if d else e', '(if c a (if d b e))'],
    ['a or b if c else d', '(if c (or a b) d)'],
    ['a union b if c else d', '(union a (if c b d))'],
    ['if c then a else b', '(if c a b)'],
    ['if c then a else b union d', '(union (if c a b) d)'],
    ['if c then a else b + 1', '(if c a (+ b 1))'],
    ['if a then if b then c else d else e', '(if a (if b c d) e)'],
    // unary keywords
    ['exists a', '(exists a)'],
    ['exists a = b', '(= (exists a) b)'],
    ['exists .a.b', '(exists (path .a.b))'],
    ['distinct {1, 2}', '(distinct {1 2})'],
    ['detached User', '(detached User)'],
    ['detached User.name', '(path (detached User) .name)'],
    ['global current_user_id', '(global current_user_id)'],
    ['global default::x.name', '(path (global default::x) .name)'],
    ['introspect User', '(introspect User)'],
    ['introspect typeof x', '(introspect typeof x)'],
    // casts apply to the whole postfix expression after them
    ["<str>item['k']", "(cast str (index item 'k'))"],
    ['<str>f(x)', '(cast str (call f x))'],
    ['<str>.a.b', '(cast str (path .a.b))'],
    ["<json>$x['a']", "(cast json (index $x 'a'))"],
    ['<str>x[1:2]', '(cast str (slice x 1 2))'],
    ['<str>x ^ 2', '(^ (cast str x) 2)'],
    ['<int64>x + 1', '(+ (cast int64 x) 1)'],
    ['<int64>-1', '(cast int64 -1)'],
    ['<str>$name', '(cast str $name)'],
    ['<optional str>$name', '(cast-optional str $name)'],
    ['<required str>$name', '(cast-required str $name)'],
    ['<required>x', '(cast required x)'],
    ['<array<str>>$tags', '(cast array<str> $tags)'],
    ['<tuple<a: int64, b: str>>x', '(cast tuple<a: int64, b: str> x)'],
    ['<cal::local_date>$d', '(cast cal::local_date $d)'],
    ['<str><int64>x', '(cast str (cast int64 x))'],
    ['<typeof x>y', '(cast typeof x y)'],
    ['<A | B & C>x', '(cast A | B & C x)'],
    ['<str>x { a }', '(cast str (shape x 1))'],
    ['<str>(a + b)', '(cast str (+ a b))'],
    // postfix forms
    ['x[0]', '(index x 0)'],
    ['x[-1]', '(index x -1)'],
    ['x[1:]', '(slice x 1 _)'],
    ['x[:2]', '(slice x _ 2)'],
    ['x[1:2][0]', '(index (slice x 1 2) 0)'],
    ['x[0].a', '(path (index x 0) .a)'],
    ['f(x).a', '(path (call f x) .a)'],
    ['(a + b).c', '(path (+ a b) .c)'],
    ['(User.a).b', '(path User .a.b)'],
    ['User { name }.name', '(path (shape User 1) .name)'],
  ])('%s', (input, expected) => {
    expect(expr(input)).toBe(expected);
  });
});

describe('expressions: string interpolation (Gel 6)', () => {
  test.each([
    [String.raw`"a \(x) b"`, "(call std::array_join ['a ' (cast std::str x) ' b'] '')"],
    [
      String.raw`'\(1 + 2)\(.name)'`,
      "(call std::array_join ['' (cast std::str (+ 1 2)) '' (cast std::str (path .name)) ''] '')",
    ],
    [
      String.raw`"x \('y \(z)')"`,
      "(call std::array_join ['x ' (cast std::str (call std::array_join ['y ' (cast std::str z) ''] '')) ''] '')",
    ],
  ])('%s', (text, expected) => {
    expect(expr(text)).toBe(expected);
  });

  test('an interpolation is an expression wherever a string is', () => {
    expect(printQuery(only(String.raw`select "n = \(count(User))" ++ "!"`))).toBe(
      "select std::array_join(['n = ', <std::str>count(User), ''], '') ++ '!';",
    );
  });

  test('the expression must end with the `)` that resumes the string', () => {
    expect(syntaxError(String.raw`select "a \(1 2)"`).message).toMatch(/unexpected/i);
  });
});

describe('expressions: atoms, paths and names', () => {
  test.each([
    ['User', 'User'],
    ['default::User', 'default::User'],
    ['std::len(x)', '(call std::len x)'],
    ['cal::local_date', 'cal::local_date'],
    ['__std__::len(x)', '(call __std__::len x)'],
    ['`select`', 'select'],
    ['type', 'type'],
    ['User.name', '(path User .name)'],
    ['User.friends.name', '(path User .friends.name)'],
    ['.name', '(path .name)'],
    ['.a.b', '(path .a.b)'],
    ['.<author', '(path .<author)'],
    ['.<author[is Post]', '(path .<author[is Post])'],
    ['User.<author[is Post].title', '(path User .<author[is Post].title)'],
    ['.?>maybe', '(path .?>maybe)'],
    ['@weight', '(path @weight)'],
    ['.friends@since', '(path .friends@since)'],
    ['.friends[is Admin]', '(path .friends[is Admin])'],
    ['[is Admin].level', '(path [is Admin].level)'],
    ['.union', '(path .union)'],
    ['x.__type__.name', '(path x .__type__.name)'],
    ['t.0.1', '(path t .0.1)'],
    ['__subject__', '__subject__'],
    ['__source__.x', '(path __source__ .x)'],
    ['__new__', '__new__'],
    ['__old__', '__old__'],
    ['f()', '(call f)'],
    ['f(a, b := 1, c := 2)', '(call f a b=1 c=2)'],
    ['f(select 1)', '(call f (select 1))'],
    ['f(x filter x > 1)', '(call f (select x filter (> x 1)))'],
    ['assert_single(x)', '(call assert_single x)'],
    ['count(x, )', '(call count x)'],
    ['$x', '$x'],
    ['$0', '$0'],
    ['{1, 2, 3}', '{1 2 3}'],
    ['{}', '{}'],
    ['{1,}', '{1}'],
    ['[1, 2]', '[1 2]'],
    ['[]', '[]'],
    ['()', '(tuple)'],
    ['(1,)', '(tuple 1)'],
    ['(1, 2)', '(tuple 1 2)'],
    ['(a := 1, b := 2)', '(tuple a=1 b=2)'],
    ['(a := 1,)', '(tuple a=1)'],
    ['(1)', '1'],
    ['((1))', '1'],
    ['{ a := 1, b := 2 }', '(shape _ 2)'],
    ["'str'", "'str'"],
    ['true', 'true'],
    ['FALSE', 'false'],
    ['123n', '123n'],
    ['1.5n', '1.5n'],
    ["b'ab'", 'b[97,98]'],
  ])('%s', (input, expected) => {
    expect(expr(input)).toBe(expected);
  });

  test('constants carry their scalar type', () => {
    const kinds = ['1', '1.5', '1e3', '1n', '1.5n', "'s'", 'true'].map((t) => {
      const node = parseExpression(t);
      return node.kind === 'Constant' ? node.scalar : node.kind;
    });
    expect(kinds).toEqual(['int64', 'float64', 'float64', 'bigint', 'decimal', 'str', 'bool']);
  });

  test('type expressions', () => {
    expect(withoutSpans(parseType('tuple<a: int64, b: array<str>>'))).toEqual({
      kind: 'TypeName',
      name: { kind: 'ObjectRef', module: null, name: 'tuple' },
      subtypes: [
        {
          kind: 'NamedSubtype',
          name: 'a',
          type: {
            kind: 'TypeName',
            name: { kind: 'ObjectRef', module: null, name: 'int64' },
            subtypes: [],
          },
        },
        {
          kind: 'NamedSubtype',
          name: 'b',
          type: {
            kind: 'TypeName',
            name: { kind: 'ObjectRef', module: null, name: 'array' },
            subtypes: [
              {
                kind: 'TypeName',
                name: { kind: 'ObjectRef', module: null, name: 'str' },
                subtypes: [],
              },
            ],
          },
        },
      ],
    });
  });
});

describe('statements: canonical printed form', () => {
  test.each([
    // select
    ['SELECT 1', 'select 1;'],
    ['select User { name, email }', 'select User { name, email };'],
    [
      "select User { name, friends: { name } filter .active order by .name limit 3 } filter .name = 'x' order by .name desc empty last then .id asc empty first offset 2 limit 10",
      "select User { name, friends: { name } filter .active order by .name limit 3 } filter .name = 'x' order by .name desc empty last then .id asc empty first offset 2 limit 10;",
    ],
    [
      'select User { friends: { name } offset 1 limit 2, posts: { title } order by .title }',
      'select User { friends: { name } offset 1 limit 2, posts: { title } order by .title };',
    ],
    ['select User { * }', 'select User { * };'],
    ['select User { ** }', 'select User { ** };'],
    ['select User { name, [is Admin].level }', 'select User { name, [is Admin].level };'],
    [
      'select User { friends[is Admin]: { level } }',
      'select User { friends[is Admin]: { level } };',
    ],
    [
      'select User { Foo.*, mod::Foo.**, [is A].*, Foo[is B].*, (A | B).* }',
      'select User { Foo.*, mod::Foo.**, [is A].*, Foo[is B].*, (A | B).* };',
    ],
    [
      'select User { n := count(.friends), @since, __type__: { name } }',
      'select User { n := count(.friends), @since, __type__: { name } };',
    ],
    [
      'select User { required a := 1, optional b := 2, multi c := 3, single d := 4, required multi e := 5 }',
      'select User { required a := 1, optional b := 2, multi c := 3, single d := 4, required multi e := 5 };',
    ],
    ['select User { required, multi, type }', 'select User { required, multi, type };'],
    ['select x := User filter x.name = "a"', "select x := User filter x.name = 'a';"],
    ['select User offset 5', 'select User offset 5;'],
    ['select User{}', 'select User {};'],
    // insert
    ["insert User { name := 'x' }", "insert User { name := 'x' };"],
    ['insert User', 'insert User;'],
    ["insert default::User { name := 'x' }", "insert default::User { name := 'x' };"],
    [
      "insert User { name := 'x', friends := (insert User { name := 'y' }) }",
      "insert User { name := 'x', friends := (insert User { name := 'y' }) };",
    ],
    ['insert User { name := $n } unless conflict', 'insert User { name := $n } unless conflict;'],
    [
      'insert User { name := $n } unless conflict on .name',
      'insert User { name := $n } unless conflict on .name;',
    ],
    [
      'insert User { name := $n } unless conflict on .name else (select User)',
      'insert User { name := $n } unless conflict on .name else (select User);',
    ],
    [
      "insert User { name := 'a' } unless conflict on (.a, .b) else (update User set { n := .n + 1 })",
      "insert User { name := 'a' } unless conflict on (.a, .b) else (update User set { n := .n + 1 });",
    ],
    // update / delete
    [
      'update User filter .id = <uuid>$id set { name := "n", count += 1, tags -= "old" }',
      "update User filter .id = <uuid>$id set { name := 'n', count += 1, tags -= 'old' };",
    ],
    ['update User set { n := 1 }', 'update User set { n := 1 };'],
    ['delete User filter .name = "x"', "delete User filter .name = 'x';"],
    ['delete User order by .name limit 1', 'delete User order by .name limit 1;'],
    // with
    ['with a := 1, b := a + 1 select b', 'with a := 1, b := a + 1 select b;'],
    ['with module cal select local_date', 'with module cal select local_date;'],
    [
      'with m as module std::cal, x := (select 1) select m::y',
      'with m as module std::cal, x := (select 1) select m::y;',
    ],
    ['with x := select 1 select x', 'with x := (select 1) select x;'],
    ['WITH a := 1, select a', 'with a := 1 select a;'],
    // for
    [
      'for x in {1, 2, 3} union (insert Foo { n := x })',
      'for x in {1, 2, 3} union (insert Foo { n := x });',
    ],
    ['for x in {1, 2} union x + 1', 'for x in {1, 2} union x + 1;'],
    ['for optional x in $arr union x', 'for optional x in $arr union x;'],
    [
      'for x in array_unpack($a) insert Foo { n := x }',
      'for x in array_unpack($a) insert Foo { n := x };',
    ],
    ['for x in User.friends union x.name', 'for x in User.friends union x.name;'],
    ['for x in <array<str>>$a union x', 'for x in <array<str>>$a union x;'],
    ['for x in (a + b) union x', 'for x in (a + b) union x;'],
    ['for x in X with y := x select y', 'for x in X with y := x select y;'],
    // group
    ['group User by .name', 'group User by .name;'],
    [
      'group User { name } using first := .name[0] by first',
      'group User { name } using first := .name[0] by first;',
    ],
    [
      'group u := User using a := .x, b := .y by a, b',
      'group u := User using a := .x, b := .y by a, b;',
    ],
    [
      'group User by .a, @b, (.c, .d), {e, (f, g)}, rollup(.h, i), cube(j)',
      'group User by .a, @b, (.c, .d), {e, (f, g)}, rollup(.h, i), cube(j);',
    ],
    ['group User by .a, {b, ()}', 'group User by .a, {b, ()};'],
    // a statement in parentheses may end with `;`
    ['select (group User by .name;) { key }', 'select (group User by .name) { key };'],
    // for group (Gel's internal form of group)
    [
      'for group u := User { name } using k := .name by k in g, gr union r := count(g) filter r > 1 order by k',
      'for group u := User { name } using k := .name by k in g, gr union r := count(g) filter r > 1 order by k;',
    ],
    // top-level if
    ['if c then (select 1) else (insert Foo)', 'if c then (select 1) else (insert Foo);'],
    // several statements, separators and comments
    ['select 1; select 2;;', 'select 1;\nselect 2;'],
    ['# comment\nselect 1 # trailing\n;', 'select 1;'],
    // quoting
    ['select `select`', 'select `select`;'],
    ['select `my name`', 'select `my name`;'],
    ['select User.`union`', 'select User.`union`;'],
    ['select .union', 'select .`union`;'],
    // literals normalize
    [
      "select ('a\\'b', \"c\\\"d\", r'e\\f', $$g'h$$, 1_000, 1.5e-3, 12n, 1.5n)",
      "select ('a\\'b', 'c\"d', 'e\\\\f', 'g\\'h', 1000, 1.5e-3, 12n, 1.5n);",
    ],
    ["select 'tab\\tnl\\nnul\\x01'", "select 'tab\\tnl\\nnul\\x01';"],
    ["select b'a\\x00\\'\\\\'", "select b'a\\x00\\'\\\\';"],
    // parentheses only where needed
    ['select ((1 + 2)) * 3', 'select (1 + 2) * 3;'],
    ['select 1 + (2 * 3)', 'select 1 + 2 * 3;'],
    ['select (a ?? b) * c', 'select a ?? b * c;'],
    ['select a - (b - c)', 'select a - (b - c);'],
    ['select (2 ^ 3) ^ 4', 'select (2 ^ 3) ^ 4;'],
    ['select -(2 ^ 2)', 'select -2 ^ 2;'],
    ['select (-2) ^ 2', 'select (-2) ^ 2;'],
    ['select <int64>(-1) + 2', 'select <int64>(-1) + 2;'],
    ['select (a = b) = c', 'select (a = b) = c;'],
    ['select (not a) + 1', 'select (not a) + 1;'],
    ['select (detached User).name', 'select detached User.name;'],
    ['select detached (User.name)', 'select detached (User.name);'],
    ['select (<str>x)[0]', 'select (<str>x)[0];'],
    ['select (1).x', 'select (1).x;'],
    ['select (x if c else y) if d else z', 'select (x if c else y) if d else z;'],
    ['select (if c then x else y) + 1', 'select (if c then x else y) + 1;'],
    ['select x is (array<str>)', 'select x is (array<str>);'],
  ])('%s', (input, printed) => {
    expect(printQuery(parseQuery(input))).toBe(printed);
  });
});

describe('statements: structure', () => {
  test('select with every clause', () => {
    const q = only<SelectQuery>(
      'with a := 1 select r := User filter .x order by .y offset 1 limit 2',
    );
    expect(q.kind).toBe('SelectQuery');
    expect(q.aliases.map((a) => a.kind)).toEqual(['AliasedExpr']);
    expect(q.resultAlias).toBe('r');
    expect(sexpr(q.result)).toBe('User');
    expect(sexpr(q.filter)).toBe('(path .x)');
    expect(q.orderBy.map((s) => [sexpr(s.expr), s.direction, s.emptyOrder])).toEqual([
      ['(path .y)', null, null],
    ]);
    expect(sexpr(q.offset)).toBe('1');
    expect(sexpr(q.limit)).toBe('2');
    expect(q.implicit).toBe(false);
  });

  test('shape elements: computed, sub-shape with clauses, link property, polymorphic', () => {
    const q = only<SelectQuery>(
      'select User { name, n := count(.f), friends: { name } filter .a limit 3, @since, [is Admin].level }',
    );
    const shape = q.result as Shape;
    expect(shape.kind).toBe('Shape');
    expect(sexpr(shape.subject)).toBe('User');
    const [name, n, friends, since, level] = shape.elements;
    expect(name?.path).toMatchObject([{ kind: 'Ptr', name: 'name', via: '.' }]);
    expect(n).toMatchObject({ operation: ':=', compExpr: { kind: 'FunctionCall' } });
    expect(friends?.elements).toHaveLength(1);
    expect(sexpr(friends?.filter ?? null)).toBe('(path .a)');
    expect(sexpr(friends?.limit ?? null)).toBe('3');
    expect(since?.path).toMatchObject([{ kind: 'Ptr', name: 'since', via: '@' }]);
    expect(level?.path.map((s) => s.kind)).toEqual(['TypeIntersection', 'Ptr']);
  });

  test('insert: subject, shape, unless conflict', () => {
    const q = only<InsertQuery>(
      "insert default::User { name := 'a' } unless conflict on .name else (select User)",
    );
    expect(q.subject).toMatchObject({ module: 'default', name: 'User' });
    expect(q.shape).toHaveLength(1);
    expect(q.unlessConflict?.on).toMatchObject({ kind: 'Path' });
    expect(q.unlessConflict?.elseExpr).toMatchObject({ kind: 'SelectQuery' });
  });

  test('update and delete', () => {
    const u = only<UpdateQuery>('update User filter .a set { b += 1, c -= 2 }');
    expect(u.shape.map((e) => e.operation)).toEqual(['+=', '-=']);
    const d = only<DeleteQuery>('delete User filter .a limit 5');
    expect(sexpr(d.limit)).toBe('5');
  });

  test('for: with and without union', () => {
    const a = only<ForQuery>('for x in {1, 2} union x');
    expect([a.iteratorAlias, a.union, a.optional]).toEqual(['x', true, false]);
    const b = only<ForQuery>('for optional x in X insert Y');
    expect([b.union, b.optional, b.body.kind]).toEqual([false, true, 'InsertQuery']);
  });

  test('group: using and by', () => {
    const g = only<GroupQuery>('group u := User using k := .name by k, .age');
    expect(g.subjectAlias).toBe('u');
    expect(g.using?.map((u) => u.alias)).toEqual(['k']);
    expect(g.by.map((b) => b.kind)).toEqual(['GroupingSimple', 'GroupingSimple']);
  });

  test('for group: subject, keys, group and grouping names, result and clauses', () => {
    const g = only<InternalGroupQuery>(
      'with module cards for group Card using e := .element by e in g union x := count(g) order by e',
    );
    expect([g.subjectAlias, g.groupAlias, g.groupingAlias, g.resultAlias]).toEqual([
      null,
      'g',
      null,
      'x',
    ]);
    expect(g.using.map((u) => u.alias)).toEqual(['e']);
    expect([g.aliases.length, g.filter, g.orderBy.length]).toEqual([1, null, 1]);
    expect(() => parseQuery('for group Card by .x in g union 1')).toThrow(/USING/);
  });

  test('with: module aliases', () => {
    const q = only<SelectQuery>('with module cal, m as module std select 1');
    expect(q.aliases).toMatchObject([
      { kind: 'ModuleAlias', alias: null, module: 'cal' },
      { kind: 'ModuleAlias', alias: 'm', module: 'std' },
    ]);
  });

  test('printExpression prints a query without parentheses', () => {
    expect(printExpression(parseExpression('select 1 + 1'))).toBe('select 1 + 1');
    expect(printExpression(parseExpression('(a, b)'))).toBe('(a, b)');
  });
});

describe('spans: every node has line/column', () => {
  test('nodes span their source text', () => {
    const text = 'select\n  User { name }\nfilter .age > 1';
    const q = only<SelectQuery>(text);
    expect(q.span).toEqual({
      start: { line: 1, column: 1, offset: 0 },
      end: { line: 3, column: 16, offset: 38 },
    });
    const shape = q.result as Shape;
    expect(shape.span.start).toEqual({ line: 2, column: 3, offset: 9 });
    expect(shape.span.end).toEqual({ line: 2, column: 16, offset: 22 });
    expect(shape.elements[0]?.span.start).toEqual({ line: 2, column: 10, offset: 16 });
    const filter = q.filter;
    expect(filter?.kind).toBe('BinOp');
    expect(filter?.span.start).toEqual({ line: 3, column: 8, offset: 30 });
    expect(text.slice(filter?.span.start.offset, filter?.span.end.offset)).toBe('.age > 1');
  });

  test('a parenthesized operand starts the enclosing span at the parenthesis', () => {
    const e = parseExpression('(a + b) * c');
    expect(e.span.start.column).toBe(1);
    expect(e.span.end.column).toBe(12);
  });

  test('path steps have their own spans', () => {
    const text = 'User.friends.name';
    const p = parseExpression(text) as Path;
    expect(p.steps.map((s) => text.slice(s.span.start.offset, s.span.end.offset))).toEqual([
      '.friends',
      '.name',
    ]);
  });
});

describe('syntax errors: message, position and hint', () => {
  test.each<[string, string, number, number, string?]>([
    // misspelt keywords
    ['selec User', "Unexpected 'selec'", 1, 1, "did you mean 'select'?"],
    ['  insrt User', "Unexpected 'insrt'", 1, 3, "did you mean 'insert'?"],
    ['select User filtr .x = 1', "Unexpected 'filtr'", 1, 13, "did you mean 'filter'?"],
    ['select User ordr by .x', "Unexpected 'ordr'", 1, 13, "did you mean 'order'?"],
    ['select User limt 1', "Unexpected 'limt'", 1, 13, "did you mean 'limit'?"],
    ['update User filter .a sett { a := 1 }', "Unexpected 'sett'", 1, 23, "did you mean 'set'?"],
    // missing separators
    ['select 1 select 2', "Missing ';'", 1, 9, "separate statements with ';'"],
    ['select User {\n  id\n  name\n}', "Missing ','", 2, 5],
    ['select (1 2)', "Missing ','", 1, 10],
    ['select [1\n 2]', "Missing ','", 1, 10],
    ['select f(a b)', "Missing ','", 1, 11],
    ['select {1 2}', "Missing ','", 1, 10],
    ['select (a := 1, foo)', "Missing ':='", 1, 20],
    ['select User { name, related *, }', "Missing ','", 1, 28],
    ['select User { name, related *5 }', "Missing ':='", 1, 28],
    ['select {a := 1, b}', "Missing ':='", 1, 18],
    ['select User { multi x }', "Missing ':='", 1, 22],
    ['select x[1 2]', "Missing ':'", 1, 11, 'a slice is written x[start:stop]'],
    // end of input
    ['select (1', "Missing ')'", 1, 10],
    ['select [1, 2', "Missing ']'", 1, 13],
    ['select User { name', "Missing '}'", 1, 19],
    ['select', 'Unexpected end of input', 1, 7, 'expected an expression'],
    ['select x if c', "Missing keyword 'ELSE'", 1, 14],
    ['with a := 1', "Missing keyword 'SELECT'", 1, 12],
    // expressions as statements
    [
      '1 + 1',
      "Missing keyword 'SELECT'",
      1,
      1,
      'to compute an expression, write: select <expression>',
    ],
    ['default::Movie.name;', "Missing keyword 'SELECT'", 1, 1],
    // unsupported statements
    [
      'create type Foo',
      "Unexpected keyword 'CREATE'",
      1,
      1,
      'DDL statements are not supported: declare the schema in SDL',
    ],
    ['start transaction', "Unexpected keyword 'START'", 1, 1],
    // operators
    ['select a = b = c', "Unexpected '='", 1, 14],
    ['select a < b > c', "Unexpected '>'", 1, 14],
    ['select a <= b >= c', "Unexpected '>='", 1, 15],
    ['select a != b != c', "Unexpected '!='", 1, 15],
    ['select a in b in c', "Unexpected keyword 'IN'", 1, 15],
    ['select a like b like c', "Unexpected keyword 'LIKE'", 1, 17],
    ['select >= 1', "Unexpected '>='", 1, 8],
    ['select * 1', "Unexpected '*'", 1, 8],
    ['select a == b', "Unexpected '='", 1, 11, "use '=' to compare; there is no '=='"],
    ['select a || b', "Unexpected '|'", 1, 10, "use 'or' for a logical or, '++' to concatenate"],
    ['select introspect tuple<int64>', "Unexpected '>'", 1, 30],
    // subqueries must be parenthesized in operator positions
    [
      'select 1 + select 2',
      "Unexpected keyword 'SELECT'",
      1,
      12,
      'a subquery used as an expression must be in parentheses: (select ...)',
    ],
    // reserved keywords as names
    ['select User.select', "Unexpected keyword 'SELECT'", 1, 13],
    ['with select := 1 select 1', "Unexpected keyword 'SELECT'", 1, 6],
    // for iterators
    [
      'for x in a + b union x',
      'Missing parentheses around complex expression in a FOR iterator clause',
      1,
      10,
    ],
    [
      'for x in detached foo union x',
      'Missing parentheses around complex expression in a FOR iterator clause',
      1,
      10,
    ],
    [
      'for x in select 1 union x',
      'Missing parentheses around complex expression in a FOR iterator clause',
      1,
      10,
    ],
    [
      'for x in foo { x } union x',
      'Missing parentheses around complex expression in a FOR iterator clause',
      1,
      10,
    ],
    ['for x in foo', "Missing keyword 'UNION'", 1, 13],
    // insert
    [
      'insert User if c else X',
      'INSERT only works with object types, not conditional expressions',
      1,
      8,
    ],
    ['insert 1 + 2', 'INSERT only works with object types, not arbitrary expressions', 1, 8],
    ['insert { a := 1 }', 'insert shape expressions must have a type name', 1, 8],
    [
      'update User set { a = 1 }',
      "Unexpected '='",
      1,
      21,
      "use ':=' to give a shape element a value",
    ],
    // function calls
    ['select f(b := 1, a)', 'positional argument after named argument `b`', 1, 18],
    ['select f(a := 1, a := 2)', 'duplicate named argument `a`', 1, 18],
    [
      'select f($a := 1)',
      "named parameters do not need a '$' prefix, rewrite as 'a := ...'",
      1,
      10,
    ],
    // types
    ['select <array<>>x', 'parametrized type must have at least one argument', 1, 14],
    [
      'select <tuple<a: int64, str>>x',
      'mixing named and unnamed subtype declarations is not supported',
      1,
      14,
    ],
    // lexical errors surface through the parser with their position
    ["select 'a\\qb'", "invalid string literal: invalid escape sequence '\\q'", 1, 10],
  ])('%s → %s at %d:%d', (...[input, message, line, column, hint]) => {
    const error = syntaxError(input);
    expect(error.message).toBe(message);
    expect(error.position).toEqual({ line, column });
    if (hint !== undefined) expect(error.hint).toBe(hint);
  });

  test('errors carry the EdgeQLSyntaxError envelope fields', () => {
    const error = syntaxError('selec 1');
    expect(error.name).toBe('EdgeQLSyntaxError');
    expect(error.code).toBe('QUERY_ERROR');
    expect(error.sqlState).toBe('42601');
  });
});

describe('parse speed', () => {
  test('parses in time linear in the text: 256 KB of queries takes about eight times 32 KB', () => {
    const unit =
      'select User { name, email, friends: { name } filter .active limit 3 } filter .name = <str>$name and .age >= 18 order by .name limit 10;\n' +
      "insert Post { title := 'x', author := (select User filter .id = <uuid>$id) } unless conflict on .title;\n";
    const text = (scale: number) => unit.repeat(Math.ceil((scale * 32_000) / unit.length));
    expect(parseQuery(text(8)).length).toBeGreaterThan(2000);
    expect(growthRatio(text, parseQuery)).toBeLessThan(40);
  });
});
