import { EdgeQLSyntaxError, SchemaSyntaxError, type QueryError } from '../errors';
import { sexpr } from './__tests__/sexpr';
import type {
  AccessPolicy,
  ConcreteConstraint,
  ConcreteIndex,
  Declaration,
  FunctionDecl,
  GlobalDecl,
  ObjectTypeDecl,
  PointerDecl,
  ScalarTypeDecl,
} from './ast';
import { parseSchema, printSchema, printType, withoutSpans } from './index';

/** The declarations of the only module. */
function decls(sdl: string): readonly Declaration[] {
  const schema = parseSchema(sdl);
  expect(schema.modules).toHaveLength(1);
  return schema.modules[0]?.declarations ?? [];
}

function typeDecl(sdl: string): ObjectTypeDecl {
  const [decl] = decls(sdl);
  expect(decl?.kind).toBe('ObjectTypeDecl');
  return decl as ObjectTypeDecl;
}

/** The members of `type T { <body> }`. */
function members(body: string): ObjectTypeDecl['members'] {
  return typeDecl(`type T { ${body} }`).members;
}

function pointer(body: string): PointerDecl {
  const [member] = members(body);
  expect(member?.kind).toBe('PointerDecl');
  return member as PointerDecl;
}

function schemaError(sdl: string): QueryError {
  try {
    parseSchema(sdl);
  } catch (e) {
    expect(e).toBeInstanceOf(SchemaSyntaxError);
    expect(e).not.toBeInstanceOf(EdgeQLSyntaxError);
    return e as QueryError;
  }
  throw new Error(`expected a schema syntax error for: ${sdl}`);
}

describe('SDL: modules', () => {
  test('bare declarations belong to an implicit module default', () => {
    const schema = parseSchema('type A; type B;');
    expect(schema.modules.map((m) => [m.name, m.implicit, m.declarations.length])).toEqual([
      ['default', true, 2],
    ]);
  });

  test('module blocks, several of them, nested ones', () => {
    const schema = parseSchema(
      'module default { type A; } module other { type B; module inner { type C; } }',
    );
    expect(schema.modules.map((m) => [m.name, m.implicit])).toEqual([
      ['default', false],
      ['other', false],
    ]);
    const inner = schema.modules[1]?.declarations[1];
    expect(inner).toMatchObject({
      kind: 'ModuleDecl',
      name: 'inner',
      declarations: [{ kind: 'ObjectTypeDecl' }],
    });
  });

  test('a bare declaration may be qualified with its module', () => {
    const [decl] = decls('type other::Thing;');
    expect(decl).toMatchObject({ name: { module: 'other', name: 'Thing' } });
  });

  test('using extension and using future', () => {
    const schema = parseSchema(
      "using extension auth; using extension pgvector version '0.5'; using future simple_scoping; type A;",
    );
    expect(withoutSpans(schema.extensions)).toEqual([
      { kind: 'UsingExtension', name: 'auth', version: null },
      { kind: 'UsingExtension', name: 'pgvector', version: '0.5' },
    ]);
    expect(schema.futures.map((f) => f.name)).toEqual(['simple_scoping']);
  });

  test('semicolons after blocks and before the end are optional', () => {
    expect(decls('type A { x: str };;type B { y: str; };').map((d) => d.kind)).toEqual([
      'ObjectTypeDecl',
      'ObjectTypeDecl',
    ]);
    expect(decls('type A { required x: str }')).toHaveLength(1);
  });
});

describe('SDL: object types and pointers', () => {
  test('abstract type with extending', () => {
    const t = typeDecl('abstract type Named extending Base, other::Mixin { required name: str; }');
    expect(t.abstract).toBe(true);
    expect(t.extending.map(printType)).toEqual(['Base', 'other::Mixin']);
  });

  test('current syntax: qualifiers, targets of any type expression', () => {
    const ms = members(`
      required name: str;
      optional nick: str;
      multi friends: User;
      single best: User;
      required multi tags: str;
      scores: array<int64>;
      pair: tuple<int64, str>;
      named: tuple<a: int64, b: str>;
      day: cal::local_date;
      either: A | B;
    `) as PointerDecl[];
    expect(
      ms.map((p) => [
        p.name,
        p.pointerKind,
        p.required,
        p.cardinality,
        p.target && printType(p.target),
      ]),
    ).toEqual([
      ['name', null, true, null, 'str'],
      ['nick', null, false, null, 'str'],
      ['friends', null, null, 'multi', 'User'],
      ['best', null, null, 'single', 'User'],
      ['tags', null, true, 'multi', 'str'],
      ['scores', null, null, null, 'array<int64>'],
      ['pair', null, null, null, 'tuple<int64, str>'],
      ['named', null, null, null, 'tuple<a: int64, b: str>'],
      ['day', null, null, null, 'cal::local_date'],
      ['either', null, null, null, 'A | B'],
    ]);
  });

  test('older arrow syntax with property / link keywords', () => {
    const ms = members(`
      required property name -> str;
      multi link friends -> User;
      property age -> int16 { default := 0; }
      link author: User;
    `) as PointerDecl[];
    expect(
      ms.map((p) => [
        p.pointerKind,
        p.name,
        p.required,
        p.cardinality,
        p.target && printType(p.target),
      ]),
    ).toEqual([
      ['property', 'name', true, null, 'str'],
      ['link', 'friends', null, 'multi', 'User'],
      ['property', 'age', null, null, 'int16'],
      ['link', 'author', null, null, 'User'],
    ]);
  });

  test('computed pointers: name := expr and property name := expr', () => {
    const [a, b, c] = members(
      'count := count(.friends); property upper := str_upper(.name); required link best := (select .friends limit 1);',
    ) as PointerDecl[];
    expect([a?.pointerKind, a?.target, sexpr(a?.computed ?? null)]).toEqual([
      null,
      null,
      '(call count (path .friends))',
    ]);
    expect([b?.pointerKind, sexpr(b?.computed ?? null)]).toEqual([
      'property',
      '(call str_upper (path .name))',
    ]);
    expect([c?.pointerKind, c?.required, c?.computed?.kind]).toEqual(['link', true, 'SelectQuery']);
  });

  test('computed through a using block', () => {
    const p = pointer('property full { using (.first ++ .last); }');
    expect(p.members.map((m) => m.kind)).toEqual(['Using']);
  });

  test('default and readonly fields', () => {
    const p = pointer("required name: str { default := 'anon'; readonly := true; }");
    expect(
      p.members.map((m) => (m.kind === 'SetField' ? [m.name, sexpr(m.value)] : m.kind)),
    ).toEqual([
      ['default', "'anon'"],
      ['readonly', 'true'],
    ]);
  });

  test('links: on target delete and on source delete, link properties', () => {
    const actions = [
      'on target delete restrict',
      'on target delete delete source',
      'on target delete allow',
      'on target delete deferred restrict',
      'on source delete delete target',
      'on source delete allow',
      'on source delete delete target if orphan',
    ].map((clause) => {
      const p = pointer(`link author: User { ${clause}; }`);
      const m = p.members[0];
      return m?.kind === 'OnTargetDelete' || m?.kind === 'OnSourceDelete'
        ? `${m.kind}:${m.action}`
        : m?.kind;
    });
    expect(actions).toEqual([
      'OnTargetDelete:restrict',
      'OnTargetDelete:delete source',
      'OnTargetDelete:allow',
      'OnTargetDelete:deferred restrict',
      'OnSourceDelete:delete target',
      'OnSourceDelete:allow',
      'OnSourceDelete:delete target if orphan',
    ]);
    const p = pointer(
      'multi link tags -> Tag { property weight: int64; since: datetime; on target delete allow; }',
    );
    expect(
      p.members.map((m) => (m.kind === 'PointerDecl' ? `${m.pointerKind}:${m.name}` : m.kind)),
    ).toEqual(['property:weight', 'null:since', 'OnTargetDelete']);
  });

  test('keywords are names where a name is expected', () => {
    const ms = members(
      'index: int64; constraint: str; required: bool; type: str; link: str; annotation := 1;',
    ) as PointerDecl[];
    expect(ms.map((p) => [p.kind, p.name])).toEqual([
      ['PointerDecl', 'index'],
      ['PointerDecl', 'constraint'],
      ['PointerDecl', 'required'],
      ['PointerDecl', 'type'],
      ['PointerDecl', 'link'],
      ['PointerDecl', 'annotation'],
    ]);
  });

  test('overloaded pointers may omit the type', () => {
    const p = pointer('overloaded name { constraint max_len_value(100); }');
    expect([p.overloaded, p.target]).toEqual([true, null]);
  });
});

describe('SDL: constraints, indexes, annotations, policies, triggers', () => {
  test('concrete constraints', () => {
    const p = pointer(`status: str {
      constraint exclusive;
      constraint max_value(100);
      constraint min_len_value(3);
      constraint expression on (__subject__ > 0);
      constraint regexp(r'^[a-z]+$');
      constraint one_of('a', 'b');
      delegated constraint exclusive;
      constraint max_len_value(10) { errmessage := 'too long'; annotation title := 'len'; }
    }`);
    const cs = p.members as ConcreteConstraint[];
    expect(
      cs.map((c) => [
        c.name.name,
        c.delegated,
        c.args.map(sexpr).join(','),
        c.on && sexpr(c.on),
        c.members.length,
      ]),
    ).toEqual([
      ['exclusive', false, '', null, 0],
      ['max_value', false, '100', null, 0],
      ['min_len_value', false, '3', null, 0],
      ['expression', false, '', '(> __subject__ 0)', 0],
      ['regexp', false, "'^[a-z]+$'", null, 0],
      ['one_of', false, "'a','b'", null, 0],
      ['exclusive', true, '', null, 0],
      ['max_len_value', false, '10', null, 2],
    ]);
  });

  test('type-level constraints with on ((.a, .b)) and except', () => {
    const [c, d] = members(
      'constraint exclusive on ((.a, .b)); constraint exclusive on (.x) except (.deleted);',
    ) as ConcreteConstraint[];
    expect(sexpr(c?.on ?? null)).toBe('(tuple (path .a) (path .b))');
    expect(sexpr(d?.except ?? null)).toBe('(path .deleted)');
  });

  test('indexes', () => {
    const idx = members(`
      index on (.name);
      index on ((.a, .b));
      index on (str_lower(.name));
      deferred index fts::index on (fts::with_options(.name, language := fts::Language.eng));
      index pg::hnsw_cosine(m := 16) on (.embedding) { annotation title := 'v'; };
    `) as ConcreteIndex[];
    expect(
      idx.map((i) => [
        i.name && `${i.name.module}::${i.name.name}`,
        i.deferred,
        sexpr(i.on),
        i.args.map((a) => a.name),
      ]),
    ).toEqual([
      [null, false, '(path .name)', []],
      [null, false, '(tuple (path .a) (path .b))', []],
      [null, false, '(call str_lower (path .name))', []],
      [
        'fts::index',
        true,
        '(call fts::with_options (path .name) language=(path fts::Language .eng))',
        [],
      ],
      ['pg::hnsw_cosine', false, '(path .embedding)', ['m']],
    ]);
  });

  test('annotations: values and abstract declarations', () => {
    const [t, a, b] = decls(
      "type T { annotation title := 'T'; annotation rest::hidden := 'true'; } abstract annotation x; abstract inheritable annotation y;",
    );
    expect((t as ObjectTypeDecl).members).toMatchObject([
      { kind: 'AnnotationValue', name: { module: null, name: 'title' } },
      { kind: 'AnnotationValue', name: { module: 'rest', name: 'hidden' } },
    ]);
    expect([a?.kind, b]).toMatchObject([
      'AnnotationDecl',
      { kind: 'AnnotationDecl', inheritable: true },
    ]);
  });

  test('access policies', () => {
    const ps = members(`
      access policy own allow select, update using (.owner = global current_user_id);
      access policy everyone allow all;
      access policy no_insert deny insert { errmessage := 'read only'; };
      access policy gated when (global role = 'admin') allow update read, update write, delete using (true);
    `) as AccessPolicy[];
    expect(
      ps.map((p) => [
        p.name,
        p.when && sexpr(p.when),
        p.action,
        p.kinds.join(','),
        p.using && sexpr(p.using),
        p.members.length,
      ]),
    ).toEqual([
      ['own', null, 'allow', 'select,update', '(= (path .owner) (global current_user_id))', 0],
      ['everyone', null, 'allow', 'all', null, 0],
      ['no_insert', null, 'deny', 'insert', null, 1],
      ['gated', "(= (global role) 'admin')", 'allow', 'update read,update write,delete', 'true', 0],
    ]);
  });

  test('triggers and rewrites', () => {
    const [trigger, prop] = members(`
      trigger log after insert, update for each when (__new__.x > 0) do (insert Log { v := __new__.x });
      modified: datetime { rewrite insert, update using (datetime_of_statement()); }
    `);
    expect(trigger).toMatchObject({
      kind: 'Trigger',
      name: 'log',
      timing: 'after',
      kinds: ['insert', 'update'],
      scope: 'each',
    });
    expect((prop as PointerDecl).members).toMatchObject([
      { kind: 'Rewrite', kinds: ['insert', 'update'] },
    ]);
  });
});

describe('SDL: scalars, globals, functions, aliases, abstract constraints', () => {
  test('scalar types', () => {
    const [a, b, c] = decls(`
      scalar type Slug extending str { constraint regexp(r'^[a-z-]+$'); annotation title := 'slug'; }
      scalar type Color extending enum<Red, Green, Blue>;
      abstract scalar type Base extending int64;
    `) as ScalarTypeDecl[];
    expect([a?.extending.map(printType), a?.members.map((m) => m.kind)]).toEqual([
      ['str'],
      ['ConcreteConstraint', 'AnnotationValue'],
    ]);
    expect(b?.extending.map(printType)).toEqual(['enum<Red, Green, Blue>']);
    expect(c?.abstract).toBe(true);
  });

  test('globals: typed, required with default, computed', () => {
    const gs = decls(`
      global current_user_id: uuid;
      required global tenant: str { default := 'main' };
      global current_user := (select User filter .id = global current_user_id);
      multi global ids -> uuid;
    `) as GlobalDecl[];
    expect(
      gs.map((g) => [
        g.name.name,
        g.required,
        g.cardinality,
        g.target && printType(g.target),
        g.computed?.kind ?? null,
        g.members.length,
      ]),
    ).toEqual([
      ['current_user_id', null, null, 'uuid', null, 0],
      ['tenant', true, null, 'str', null, 1],
      ['current_user', null, null, null, 'SelectQuery', 0],
      ['ids', null, 'multi', 'uuid', null, 0],
    ]);
  });

  test('functions: parameters, modifiers, short and block bodies', () => {
    const [f, g, h] = decls(`
      function f(x: int64, named only y: str = 'a') -> str using (<str>x ++ y);
      function g(variadic xs: optional int64, s: set of str) -> set of str {
        using (s);
        volatility := 'Immutable';
        annotation title := 'g';
      }
      function h() -> optional str using sql $$ select 'x' $$;
    `) as FunctionDecl[];
    expect(
      f?.params.map((p) => [
        p.name,
        p.paramKind,
        p.typeModifier,
        printType(p.type),
        p.default && sexpr(p.default),
      ]),
    ).toEqual([
      ['x', 'positional', null, 'int64', null],
      ['y', 'named only', null, 'str', "'a'"],
    ]);
    expect(f?.members.map((m) => m.kind)).toEqual(['Using']);
    expect(g?.params.map((p) => [p.paramKind, p.typeModifier])).toEqual([
      ['variadic', 'optional'],
      ['positional', 'set of'],
    ]);
    expect([g?.returnModifier, g?.members.map((m) => m.kind)]).toEqual([
      'set of',
      ['Using', 'SetField', 'AnnotationValue'],
    ]);
    expect([h?.returnModifier, h?.members]).toMatchObject([
      'optional',
      [{ kind: 'FunctionCode', language: 'sql', mode: 'code', text: " select 'x' " }],
    ]);
  });

  test('aliases and abstract constraints', () => {
    const [alias, block, c1, c2] = decls(`
      alias Admins := (select User filter .is_admin);
      alias Others { using (select User); annotation title := 'o'; };
      abstract constraint positive on (__subject__ > 0) { errmessage := 'must be positive'; }
      abstract constraint longer(n: int64) extending base { using (len(__subject__) > n); }
    `);
    expect(alias).toMatchObject({ kind: 'AliasDecl', expr: { kind: 'SelectQuery' }, members: [] });
    expect(block).toMatchObject({
      kind: 'AliasDecl',
      expr: null,
      members: [{ kind: 'Using' }, { kind: 'AnnotationValue' }],
    });
    expect(c1).toMatchObject({
      kind: 'AbstractConstraintDecl',
      params: null,
      on: { kind: 'BinOp' },
    });
    expect(c2).toMatchObject({
      kind: 'AbstractConstraintDecl',
      params: [{ name: 'n' }],
      extending: [{ kind: 'TypeName' }],
    });
  });

  test('abstract properties and links, permissions', () => {
    const [p, l, perm] = decls(
      'abstract property label { annotation title := "l"; } abstract link friendly extending base { property since: datetime; } permission write_all;',
    );
    expect(p).toMatchObject({
      kind: 'PointerDecl',
      abstract: true,
      pointerKind: 'property',
      name: 'label',
    });
    expect(l).toMatchObject({
      kind: 'PointerDecl',
      abstract: true,
      pointerKind: 'link',
      members: [{ kind: 'PointerDecl', name: 'since' }],
    });
    expect(perm).toMatchObject({ kind: 'PermissionDecl', name: { name: 'write_all' } });
  });
});

describe('SDL: printing', () => {
  test('prints the canonical form in the current syntax', () => {
    const sdl = `module default {
  type User {
    required property name -> str { constraint exclusive; };
    multi link friends -> User;
    count := count(.friends);
  };
  global current_user_id -> uuid;
  function add(x: int64, y: int64 = 1) -> int64 using (x + y);
  alias Admins := (select User filter .is_admin);
}
type Bare;
`;
    expect(printSchema(parseSchema(sdl))).toBe(`module default {
    type User {
        required property name: str {
            constraint exclusive;
        }
        multi link friends: User;
        count := count(.friends);
    }
    global current_user_id: uuid;
    function add(x: int64, y: int64 = 1) -> int64 using (x + y);
    alias Admins := (select User filter .is_admin);
}

type Bare;
`);
  });
});

describe('SDL: syntax errors with positions', () => {
  test.each<[string, string, number, number, string?]>([
    [
      'type User {\n  required name: str\n  required age: int64\n}',
      "Missing ';'",
      2,
      21,
      "end each declaration with ';'",
    ],
    [
      'scalar type test::a extending str#:\n\nscalar type test::b extending str',
      "Missing ';'",
      1,
      34,
    ],
    ['tpye User;', "Unexpected 'tpye'", 1, 1, "did you mean 'type'?"],
    [
      'type User {\n  requird name: str;\n}',
      "Unexpected 'requird'",
      2,
      3,
      "did you mean 'required'?",
    ],
    [
      'type User { name: -> str; }',
      "Unexpected '->'",
      1,
      19,
      "declare the target type with ':' (current syntax) or '->' (older syntax), not both",
    ],
    [
      'type User { name -> : str; }',
      "Unexpected ':'",
      1,
      21,
      "declare the target type with ':' (current syntax) or '->' (older syntax), not both",
    ],
    [
      'type User { name: str -> str; }',
      "Unexpected '->'",
      1,
      23,
      "declare the target type with ':' (current syntax) or '->' (older syntax), not both",
    ],
    [
      'type User { property name -> := .x; }',
      "Unexpected ':='",
      1,
      30,
      'a computed property has no type: name := expression',
    ],
    ['type User { name str; }', "Missing ':'", 1, 17, "declare the type with 'name: type'"],
    ['type User { name = str; }', "Unexpected '='", 1, 18],
    [
      'type User { name: str { default = 1; } }',
      "Unexpected '='",
      1,
      33,
      "use ':=' to set 'default'",
    ],
    ['type User { property unit { default := 1; } }', "missing type declaration for 'unit'", 1, 22],
    [
      'module foo {\n  type foo::Bar;\n}',
      'fully-qualified name is not allowed in a module declaration',
      2,
      8,
    ],
    ['annotation test::foo;', "Missing keyword 'ABSTRACT'", 1, 1],
    ['constraint foo;', "Missing keyword 'ABSTRACT'", 1, 1],
    [
      'type T { l: U { on target delete restrict; on target delete allow; } }',
      "more than one 'on target delete' specification",
      1,
      44,
    ],
    [
      'type T { property p: str { property x: str; } }',
      "Unexpected keyword 'PROPERTY'",
      1,
      28,
      'a property cannot have properties; link properties are declared inside a link',
    ],
    [
      'type T { link l: U { link x: str; } }',
      "Unexpected keyword 'LINK'",
      1,
      22,
      'a link can have properties, not links',
    ],
    ['type T { index foo bar on (.x); }', "Expected 'ON', but got 'bar' instead", 1, 20],
    [
      'function f(x: int64): str using (x);',
      "Unexpected ':'",
      1,
      21,
      "a function's return type follows '->': function name(...) -> type",
    ],
    ['function f(x: int64, x: str) -> str using (x);', 'duplicate parameter name `x`', 1, 22],
    [
      'function f($x: int64) -> str using (x);',
      "function parameters do not need a $ prefix, rewrite as 'x'",
      1,
      12,
    ],
    ['function f(x) -> str using (x);', 'missing type declaration for the `x` parameter', 1, 12],
    [
      'type T { access policy p allow select using (true) when (false); }',
      "Unexpected keyword 'WHEN'",
      1,
      52,
      "'when (...)' comes before 'allow' or 'deny'",
    ],
    [
      'type T { access policy p alow select; }',
      "Unexpected 'alow'",
      1,
      26,
      "did you mean 'allow'?",
    ],
    [
      'type T { constraint exclusive on (.a, .b); }',
      "Unexpected ','",
      1,
      37,
      'a tuple needs its own parentheses: on ((.a, .b))',
    ],
    ['type T {\n  name: str;\n', "Missing '}'", 2, 13],
    [
      "type T { name: str { default := 'a\\q'; } }",
      "invalid string literal: invalid escape sequence '\\q'",
      1,
      35,
    ],
    ['type T { name: str { default := 1 + ; } }', "Unexpected ';'", 1, 37],
    ['required name: str;', "Unexpected keyword 'REQUIRED'", 1, 1],
    ['alias A = 1;', "Unexpected '='", 1, 9],
  ])('%s → %s at %d:%d', (...[sdl, message, line, column, hint]) => {
    const error = schemaError(sdl);
    expect(error.message).toBe(message);
    expect(error.position).toEqual({ line, column });
    if (hint !== undefined) expect(error.hint).toBe(hint);
  });
});
