/**
 * fast-check generators of EdgeQL and SDL trees (without spans) for the print/parse round trip.
 *
 * They generate only trees the parser can produce: a path's subject is never a path (the parser
 * appends steps to it), `-` is never applied to a non-negative numeric literal (the parser folds
 * it into a negative literal), a free shape is never empty (`{}` is an empty set), and so on.
 * Names are drawn from pools that include keywords, so quoting and keyword-as-name handling are
 * exercised.
 */
import fc from 'fast-check';
import type {
  AnchorName,
  BinaryOperator,
  Declaration,
  Expr,
  GroupingAtom,
  GroupingElement,
  GroupingIdent,
  ModuleDecl,
  NodeFields,
  NodeKind,
  NodeOf,
  PathStep,
  PointerDecl,
  PointerMember,
  Query,
  Schema,
  ShapeElement,
  ShapePathStep,
  SortExpr,
  Statement,
  TypeExpr,
  TypeIntersection,
  TypeName,
  TypeSubtype,
  WithItem,
} from '../ast';
import { BINARY_OPERATORS } from '../precedence';

/** A node without a span (the round trip compares trees with spans removed). */
function node<K extends NodeKind>(kind: K, fields: NodeFields<K>): NodeOf<K> {
  return { kind, ...fields } as unknown as NodeOf<K>;
}

const nullable = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.option(arb, { nil: null, freq: 2 });

// ---------------------------------------------------------------------------------------------
// Names

/** Plain names, unreserved keywords used as names, reserved ones (quoted), odd ones (quoted). */
const NAMES = [
  'a',
  'b',
  'x',
  'User',
  'name',
  'Ünï',
  'type',
  'required',
  'multi',
  'first',
  'order',
  'then',
  'asc',
  'empty',
  'using',
  'rollup',
  'annotation',
  'index',
  'property',
  'link',
  'set',
  'select',
  'union',
  'module',
  'optional',
  'single',
  'if',
  'my name',
  'a`b',
];
const name = fc.constantFrom(...NAMES);
/** Pointer names also include `__type__` and tuple indexes (after `.` only). */
const stepName = fc.constantFrom(...NAMES, '__type__', '0', '12');
const modulePart = fc.constantFrom(null, 'default', 'std', 'cal', 'my::mod', 'select', 'type');
const objectRef = fc.record({ module: modulePart, name }).map((f) => node('ObjectRef', f));
const plainRef = name.map((n) => node('ObjectRef', { module: null, name: n }));

// ---------------------------------------------------------------------------------------------
// Literals

const digits = fc.constantFrom('0', '1', '7', '42', '123456789', '9223372036854775807');
const floatText = fc.constantFrom('1.5', '0.25', '1e10', '2e+3', '1.5e-3', '3.0');
const positiveNumber = fc.oneof(
  digits.map((value) => node('Constant', { scalar: 'int64', value })),
  floatText.map((value) => node('Constant', { scalar: 'float64', value })),
  digits.map((value) => node('Constant', { scalar: 'bigint', value })),
  fc
    .constantFrom('1.5', '0.001', '1e-3')
    .map((value) => node('Constant', { scalar: 'decimal', value })),
);
const negativeNumber = positiveNumber.map((c) => ({ ...c, value: `-${c.value}` }));
// Also strings built from what an interpolation is made of (`\(`, `)`, quotes, backslashes): a
// string constant holding them must print as a plain string, never as an interpolation.
const stringConstant = fc
  .oneof(
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc
      .array(fc.constantFrom('\\(', '\\', '(', ')', '"', "'", 'a', ' '), { maxLength: 6 })
      .map((parts) => parts.join('')),
  )
  .map((s) => s.replaceAll('\0', ''))
  .map((value) => node('Constant', { scalar: 'str', value }));
const constant = fc.oneof(
  positiveNumber,
  negativeNumber,
  stringConstant,
  fc.constantFrom('true', 'false').map((value) => node('Constant', { scalar: 'bool', value })),
);
const bytesConstant = fc
  .uint8Array({ maxLength: 6 })
  .map((value) => node('BytesConstant', { value }));
const parameter = fc
  .constantFrom('x', '0', '12', 'my arg', 'name_1')
  .map((n) => node('Parameter', { name: n }));
const anchor = fc
  .constantFrom<AnchorName>(
    '__subject__',
    '__source__',
    '__new__',
    '__old__',
    '__specified__',
    '__default__',
  )
  .map((n) => node('Anchor', { name: n }));

const BIN_OPS = Object.keys(BINARY_OPERATORS) as BinaryOperator[];

function isNonNegativeNumber(e: Expr): boolean {
  return (
    e.kind === 'Constant' && e.scalar !== 'str' && e.scalar !== 'bool' && !e.value.startsWith('-')
  );
}

// ---------------------------------------------------------------------------------------------
// Expressions, types and queries (mutually recursive)

export interface QueryArbitraries {
  expr: fc.Arbitrary<Expr>;
  type: fc.Arbitrary<TypeExpr>;
  query: fc.Arbitrary<Query>;
  statement: fc.Arbitrary<Statement>;
  shapeElement: fc.Arbitrary<ShapeElement>;
}

export function queryArbitraries(maxDepth = 3): QueryArbitraries {
  const depth = fc.createDepthIdentifier();
  const choose = <T>(...arbs: fc.Arbitrary<T>[]): fc.Arbitrary<T> =>
    fc.oneof({ maxDepth, depthIdentifier: depth, withCrossShrink: true }, ...arbs);
  const list = <T>(arb: fc.Arbitrary<T>, minLength = 0, maxLength = 3) =>
    fc.array(arb, { minLength, maxLength, depthIdentifier: depth });

  const tree = fc.letrec<{
    expr: Expr;
    leaf: Expr;
    type: TypeExpr;
    typeName: TypeName;
    query: Query;
    shapeElement: ShapeElement;
    sortExpr: SortExpr;
    statement: Statement;
  }>((tie) => {
    const expr = tie('expr');
    const type = tie('type');
    const typeName = tie('typeName');
    const query = tie('query');
    const shapeElement = tie('shapeElement');
    const sortExpr = tie('sortExpr');

    const typeIntersection: fc.Arbitrary<TypeIntersection> = type.map((t) =>
      node('TypeIntersection', { type: t }),
    );
    const ptr = fc
      .oneof(
        fc.record({ name: stepName, via: fc.constant('.' as const) }),
        fc.record({
          name: name,
          via: fc.constantFrom('.<' as const, '.?>' as const, '@' as const),
        }),
      )
      .map((f) => node('Ptr', f));
    const pathStep: fc.Arbitrary<PathStep> = fc.oneof(
      { weight: 4, arbitrary: ptr },
      { weight: 1, arbitrary: typeIntersection },
    );

    const leaf: fc.Arbitrary<Expr> = fc.oneof(
      constant,
      bytesConstant,
      parameter,
      anchor,
      objectRef,
      objectRef.map((n) => node('GlobalRef', { name: n })),
      list(pathStep, 1, 3).map((steps) => node('Path', { subject: null, steps })),
    );

    const withItem: fc.Arbitrary<WithItem> = fc.oneof(
      fc.record({ alias: name, expr }).map((f) => node('AliasedExpr', f)),
      fc
        .record({
          alias: nullable(name),
          module: fc.constantFrom('cal', 'std::cal', 'default', 'my.pkg', 'select'),
        })
        .map((f) => node('ModuleAlias', f)),
    );
    const aliases = fc.oneof(
      { weight: 3, arbitrary: fc.constant([] as WithItem[]) },
      { weight: 1, arbitrary: list(withItem, 1, 2) },
    );

    const implicitSelect = fc
      .record({ result: expr, filter: nullable(expr), orderBy: list(sortExpr, 0, 2) })
      .filter((f) => f.filter !== null || f.orderBy.length > 0)
      .map((f) =>
        node('SelectQuery', {
          aliases: [],
          resultAlias: null,
          offset: null,
          limit: null,
          implicit: true,
          ...f,
        }),
      );
    const argument = fc.oneof(
      { weight: 5, arbitrary: expr },
      { weight: 1, arbitrary: implicitSelect },
    );

    const composite: fc.Arbitrary<Expr>[] = [
      fc
        .record({ subject: expr.filter((e) => e.kind !== 'Path'), steps: list(pathStep, 1, 2) })
        .map((f) => node('Path', f)),
      fc
        .record({ op: fc.constantFrom(...BIN_OPS), left: expr, right: expr })
        .map((f) => node('BinOp', f)),
      fc
        .record({
          op: fc.constantFrom(
            '+' as const,
            '-' as const,
            'not' as const,
            'exists' as const,
            'distinct' as const,
          ),
          operand: expr,
        })
        .filter((f) => !(f.op === '-' && isNonNegativeNumber(f.operand)))
        .map((f) => node('UnaryOp', f)),
      fc.record({ left: expr, negated: fc.boolean(), type }).map((f) => node('IsOp', f)),
      fc
        .record({
          type,
          expr,
          cardinality: fc.constantFrom(null, 'optional' as const, 'required' as const),
        })
        .map((f) => node('TypeCast', f)),
      fc
        .record({ condition: expr, ifExpr: expr, elseExpr: expr, infix: fc.boolean() })
        .map((f) => node('IfElse', f)),
      fc
        .record({
          func: objectRef,
          args: list(argument, 0, 3),
          namedArgs: fc.uniqueArray(fc.record({ name, value: argument }), {
            selector: (a) => a.name,
            maxLength: 2,
            depthIdentifier: depth,
          }),
        })
        .map((f) =>
          node('FunctionCall', { ...f, namedArgs: f.namedArgs.map((a) => node('NamedArg', a)) }),
        ),
      fc.record({ subject: expr, index: expr }).map((f) => node('Index', f)),
      fc
        .record({ subject: expr, start: nullable(expr), stop: nullable(expr) })
        .filter((f) => f.start !== null || f.stop !== null)
        .map((f) => node('Slice', f)),
      list(expr).map((elements) => node('SetLiteral', { elements })),
      list(expr).map((elements) => node('ArrayLiteral', { elements })),
      list(expr).map((elements) => node('TupleLiteral', { elements })),
      list(
        fc.record({ name, value: expr }).map((f) => node('TupleElement', f)),
        1,
        3,
      ).map((elements) => node('NamedTupleLiteral', { elements })),
      expr.map((e) => node('Detached', { expr: e })),
      type.map((t) => node('Introspect', { type: t })),
      fc.record({ subject: expr, elements: list(shapeElement, 0, 3) }).map((f) => node('Shape', f)),
      list(computedElement(expr, true), 1, 3).map((elements) =>
        node('Shape', { subject: null, elements }),
      ),
      query,
    ];

    const sort = fc
      .record({
        expr,
        direction: fc.constantFrom(null, 'asc' as const, 'desc' as const),
        emptyOrder: fc.constantFrom(null, 'first' as const, 'last' as const),
      })
      .map((f) => node('SortExpr', f));

    const select = fc
      .record({
        aliases,
        result: expr,
        resultAlias: nullable(name),
        filter: nullable(expr),
        orderBy: list(sortExpr, 0, 2),
        offset: nullable(expr),
        limit: nullable(expr),
      })
      .map((f) => node('SelectQuery', { ...f, implicit: false }));
    const insert = fc
      .record({
        aliases,
        subject: objectRef,
        shape: list(shapeElement, 0, 3),
        unlessConflict: nullable(
          fc
            .record({ on: nullable(expr), elseExpr: nullable(expr) })
            .map((f) =>
              node('UnlessConflict', { on: f.on, elseExpr: f.on === null ? null : f.elseExpr }),
            ),
        ),
      })
      .map((f) => node('InsertQuery', f));
    const update = fc
      .record({ aliases, subject: expr, filter: nullable(expr), shape: list(shapeElement, 0, 3) })
      .map((f) => node('UpdateQuery', f));
    const del = fc
      .record({
        aliases,
        subject: expr,
        filter: nullable(expr),
        orderBy: list(sortExpr, 0, 2),
        offset: nullable(expr),
        limit: nullable(expr),
      })
      .map((f) => node('DeleteQuery', f));
    const forQuery = fc
      .record({
        aliases,
        optional: fc.boolean(),
        iteratorAlias: name,
        iterator: expr,
        body: fc.oneof(expr, query),
        union: fc.boolean(),
      })
      .map((f) =>
        node('ForQuery', {
          ...f,
          union:
            f.union ||
            ![
              'SelectQuery',
              'InsertQuery',
              'UpdateQuery',
              'DeleteQuery',
              'ForQuery',
              'GroupQuery',
            ].includes(f.body.kind),
        }),
      );
    const groupingIdent: fc.Arbitrary<GroupingIdent> = fc.oneof(
      plainRef,
      fc
        .record({ name, via: fc.constantFrom('.' as const, '@' as const) })
        .map((f) => node('Path', { subject: null, steps: [node('Ptr', f)] })),
    );
    const groupingAtom: fc.Arbitrary<GroupingAtom> = fc.oneof(
      groupingIdent,
      list(groupingIdent, 1, 3).map((elements) => node('GroupingIdentList', { elements })),
    );
    const groupingElement: fc.Arbitrary<GroupingElement> = fc.oneof(
      groupingAtom.map((element) => node('GroupingSimple', { element })),
      list(
        groupingAtom.map((element) => node('GroupingSimple', { element })),
        0,
        2,
      ).map((sets) => node('GroupingSets', { sets })),
      fc
        .record({
          op: fc.constantFrom('rollup' as const, 'cube' as const),
          elements: list(groupingAtom, 0, 2),
        })
        .map((f) => node('GroupingOperation', f)),
    );
    const group = fc
      .record({
        aliases,
        subject: expr,
        subjectAlias: nullable(name),
        using: nullable(
          list(
            fc.record({ alias: name, expr }).map((f) => node('AliasedExpr', f)),
            1,
            2,
          ),
        ),
        by: list(groupingElement, 1, 3),
      })
      .map((f) => node('GroupQuery', f));

    const shapePath: fc.Arbitrary<ShapePathStep[]> = fc.oneof(
      name.map((n) => [node('Ptr', { name: n, via: '.' })]),
      stepName.filter((n) => !/^\d/.test(n)).map((n) => [node('Ptr', { name: n, via: '.' })]),
      name.map((n) => [node('Ptr', { name: n, via: '@' })]),
      fc.tuple(name, typeIntersection).map(([n, ti]) => [node('Ptr', { name: n, via: '.' }), ti]),
      fc
        .tuple(typeIntersection, name, nullable(typeIntersection))
        .map(([ti, n, after]) => [
          ti,
          node('Ptr', { name: n, via: '.' }),
          ...(after ? [after] : []),
        ]),
      fc
        .record({
          depth: fc.constantFrom(1 as const, 2 as const),
          type: nullable(fc.oneof(typeName, type)),
          intersection: nullable(typeIntersection),
        })
        .map((f) => [node('Splat', f)]),
    );

    return {
      expr: choose(leaf, ...composite),
      leaf,
      typeName: fc
        .record({
          name: objectRef,
          subtypes: choose<TypeSubtype[]>(
            fc.constant([]),
            fc.constant([]),
            list(type, 1, 2),
            list(
              fc.record({ name, type }).map((f) => node('NamedSubtype', f)),
              1,
              2,
            ),
          ),
        })
        .map((f) => node('TypeName', f)),
      type: choose<TypeExpr>(
        typeName,
        fc
          .record({ op: fc.constantFrom('|' as const, '&' as const), left: type, right: type })
          .map((f) => node('TypeOp', f)),
        expr.map((e) => node('TypeOf', { expr: e })),
      ),
      query: choose<Query>(select, insert, update, del, forQuery, group),
      shapeElement: choose<ShapeElement>(
        fc
          .record({
            path: shapePath,
            elements: nullable(list(shapeElement, 0, 2)),
            filter: nullable(expr),
            orderBy: list(sortExpr, 0, 1),
            offset: nullable(expr),
            limit: nullable(expr),
          })
          .map((f) =>
            node('ShapeElement', {
              ...f,
              required: null,
              cardinality: null,
              operation: null,
              compExpr: null,
            }),
          ),
        computedElement(expr, false),
      ),
      sortExpr: sort,
      statement: fc.oneof(
        { weight: 5, arbitrary: query as fc.Arbitrary<Statement> },
        {
          weight: 1,
          arbitrary: fc
            .record({ condition: expr, ifExpr: expr, elseExpr: expr })
            .map((f) => node('IfElse', { ...f, infix: false })),
        },
      ),
    };
  });
  return {
    expr: tree.expr,
    type: tree.type,
    query: tree.query,
    statement: tree.statement,
    shapeElement: tree.shapeElement,
  };
}

/** `[quals] name := value` (and `+=` / `-=` when not free and unqualified). */
function computedElement(expr: fc.Arbitrary<Expr>, free: boolean): fc.Arbitrary<ShapeElement> {
  return fc
    .record({
      name: free ? fc.constantFrom(...NAMES, '__type__') : stepName.filter((n) => !/^\d/.test(n)),
      linkProp: free ? fc.constant(false) : fc.boolean(),
      required: fc.constantFrom(null, true, false),
      cardinality: fc.constantFrom(null, 'single' as const, 'multi' as const),
      operation: free
        ? fc.constant(':=' as const)
        : fc.constantFrom(':=' as const, '+=' as const, '-=' as const),
      compExpr: expr,
    })
    .map((f) => {
      const qualified = f.required !== null || f.cardinality !== null;
      const via = f.linkProp && f.name !== '__type__' ? ('@' as const) : ('.' as const);
      return node('ShapeElement', {
        path: [node('Ptr', { name: f.name, via })],
        required: f.required,
        cardinality: f.cardinality,
        operation: qualified ? ':=' : f.operation,
        compExpr: f.compExpr,
        elements: null,
        filter: null,
        orderBy: [],
        offset: null,
        limit: null,
      });
    });
}

// ---------------------------------------------------------------------------------------------
// SDL

export function schemaArbitrary(): fc.Arbitrary<Schema> {
  const { expr, type } = queryArbitraries(2);
  const small = <T>(arb: fc.Arbitrary<T>, min = 0, max = 2) =>
    fc.array(arb, { minLength: min, maxLength: max });
  const simpleTypeName = objectRef.map((n) => node('TypeName', { name: n, subtypes: [] }));
  const setField = fc.record({ name, value: expr }).map((f) => node('SetField', f));
  const annotation = fc
    .record({ name: objectRef, value: expr })
    .map((f) => node('AnnotationValue', f));
  const using = expr.map((e) => node('Using', { expr: e }));
  const fieldOrAnnotation = fc.oneof(setField, annotation);
  const constraint = fc
    .record({
      name: objectRef,
      delegated: fc.boolean(),
      args: small(expr),
      on: nullable(expr),
      except: nullable(expr),
      members: small(fieldOrAnnotation),
    })
    .map((f) => node('ConcreteConstraint', f));
  const index = fc
    .record({
      name: nullable(objectRef),
      deferred: fc.boolean(),
      args: fc.uniqueArray(
        fc.record({ name, value: expr }).map((f) => node('NamedArg', f)),
        { selector: (a) => a.name, maxLength: 2 },
      ),
      on: expr,
      except: nullable(expr),
      members: small(fieldOrAnnotation),
    })
    .map((f) => node('ConcreteIndex', { ...f, args: f.name === null ? [] : f.args }));
  const policy = fc
    .record({
      name,
      when: nullable(expr),
      action: fc.constantFrom('allow' as const, 'deny' as const),
      kinds: small(
        fc.constantFrom(
          'all' as const,
          'select' as const,
          'insert' as const,
          'delete' as const,
          'update' as const,
          'update read' as const,
          'update write' as const,
        ),
        1,
        3,
      ),
      using: nullable(expr),
      members: small(fieldOrAnnotation),
    })
    .map((f) => node('AccessPolicy', f));
  const trigger = fc
    .record({
      name,
      timing: fc.constantFrom('after' as const, 'after commit of' as const),
      kinds: small(fc.constantFrom('insert' as const, 'update' as const, 'delete' as const), 1, 2),
      scope: fc.constantFrom('each' as const, 'all' as const),
      when: nullable(expr),
      expr,
      members: small(fieldOrAnnotation),
    })
    .map((f) => node('Trigger', f));
  const rewrite = fc
    .record({
      kinds: small(fc.constantFrom('insert' as const, 'update' as const), 1, 2),
      expr,
      members: small(fieldOrAnnotation),
    })
    .map((f) => node('Rewrite', f));
  const onTarget = fc
    .constantFrom(
      'restrict' as const,
      'delete source' as const,
      'allow' as const,
      'deferred restrict' as const,
    )
    .map((action) => node('OnTargetDelete', { action }));
  const onSource = fc
    .constantFrom('delete target' as const, 'allow' as const, 'delete target if orphan' as const)
    .map((action) => node('OnSourceDelete', { action }));

  const pointerHead = fc.record({
    name,
    overloaded: fc.boolean(),
    required: fc.constantFrom(null, true, false),
    cardinality: fc.constantFrom(null, 'single' as const, 'multi' as const),
    extending: small(simpleTypeName, 0, 1),
  });

  /** A property/link; `props` lets it hold link properties (one level). */
  const concretePointer = (
    kinds: readonly ('property' | 'link' | null)[],
    props: boolean,
  ): fc.Arbitrary<PointerDecl> => {
    const kind = fc.constantFrom(...kinds);
    const member: fc.Arbitrary<PointerMember> = props
      ? fc.oneof(
          setField,
          annotation,
          using,
          constraint,
          rewrite,
          onTarget,
          onSource,
          index,
          concretePointer(['property', null], false),
        )
      : fc.oneof(setField, annotation, using, constraint, rewrite);
    return fc
      .record({
        head: pointerHead,
        pointerKind: kind,
        form: fc.constantFrom('target', 'computed'),
        target: type,
        computed: expr,
        members: small(member),
      })
      .map(({ head, pointerKind, form, target, computed, members }) => {
        const isLink = pointerKind !== 'property';
        const ms = (
          isLink && props
            ? members
            : members.filter(
                (m) =>
                  !['OnTargetDelete', 'OnSourceDelete', 'ConcreteIndex', 'PointerDecl'].includes(
                    m.kind,
                  ),
              )
        )
          // at most one of each 'on ... delete'
          .filter(
            (m, i, all) =>
              !(m.kind === 'OnTargetDelete' || m.kind === 'OnSourceDelete') ||
              all.findIndex((o) => o.kind === m.kind) === i,
          );
        return node('PointerDecl', {
          ...head,
          // in a link block, `name := value` is a field, so a computed link property says `property`
          pointerKind:
            !props && form === 'computed' && pointerKind === null ? 'property' : pointerKind,
          abstract: false,
          target: form === 'target' ? target : null,
          computed: form === 'computed' ? computed : null,
          members: form === 'computed' ? [] : ms,
        });
      });
  };

  const param = fc
    .record({
      name,
      paramKind: fc.constantFrom('positional' as const, 'variadic' as const, 'named only' as const),
      typeModifier: fc.constantFrom(null, 'set of' as const, 'optional' as const),
      type,
      default: nullable(expr),
    })
    .map((f) => node('FuncParam', f));
  const params = fc.uniqueArray(param, { selector: (p) => p.name, maxLength: 3 });
  const functionCode = fc
    .record({
      language: fc.constantFrom('sql', 'edgeql'),
      mode: fc.constantFrom('code' as const, 'function' as const, 'expression' as const),
      text: fc.string({ maxLength: 6 }),
    })
    .map((f) => node('FunctionCode', { ...f, text: f.mode === 'expression' ? null : f.text }));

  const objectMember = fc.oneof(
    { weight: 4, arbitrary: concretePointer(['property', 'link', null], true) },
    { weight: 1, arbitrary: constraint },
    { weight: 1, arbitrary: index },
    { weight: 1, arbitrary: policy },
    { weight: 1, arbitrary: trigger },
    { weight: 1, arbitrary: annotation },
  );

  const declaration = (qualified: boolean): fc.Arbitrary<Declaration> => {
    const declName = qualified ? objectRef : plainRef;
    return fc.oneof(
      fc
        .record({
          name: declName,
          abstract: fc.boolean(),
          extending: small(simpleTypeName),
          members: small(objectMember, 0, 3),
        })
        .map((f) => node('ObjectTypeDecl', f)),
      fc
        .record({
          name: declName,
          abstract: fc.boolean(),
          extending: small(typeName(type), 0, 2),
          members: small(fc.oneof(setField, annotation, constraint)),
        })
        .map((f) => node('ScalarTypeDecl', f)),
      fc
        .record({
          name: declName,
          inheritable: fc.boolean(),
          extending: small(simpleTypeName),
          members: small(fieldOrAnnotation),
        })
        .map((f) => node('AnnotationDecl', f)),
      fc
        .record({
          name: declName,
          params: nullable(params),
          on: nullable(expr),
          extending: small(simpleTypeName),
          members: small(fc.oneof(using, setField, annotation)),
        })
        .map((f) => node('AbstractConstraintDecl', f)),
      fc
        .record({
          name: declName,
          params,
          returnModifier: fc.constantFrom(null, 'set of' as const, 'optional' as const),
          returnType: type,
          members: small(fc.oneof(using, functionCode, setField, annotation), 1, 3),
        })
        .map((f) => node('FunctionDecl', f)),
      fc
        .record({
          name: declName,
          short: fc.boolean(),
          expr,
          members: small(fc.oneof(setField, annotation)),
        })
        .map(({ short, expr: e, members, name: n }) =>
          short
            ? node('AliasDecl', { name: n, expr: e, members: [] })
            : node('AliasDecl', {
                name: n,
                expr: null,
                members: [node('Using', { expr: e }), ...members],
              }),
        ),
      fc
        .record({
          name: declName,
          required: fc.constantFrom(null, true, false),
          cardinality: fc.constantFrom(null, 'single' as const, 'multi' as const),
          form: fc.constantFrom('target', 'computed', 'using'),
          target: type,
          computed: expr,
          members: small(fc.oneof(setField, annotation)),
        })
        .map(({ form, target, computed, members, ...f }) =>
          node('GlobalDecl', {
            ...f,
            target: form === 'target' ? target : null,
            computed: form === 'computed' ? computed : null,
            members:
              form === 'computed'
                ? []
                : form === 'using'
                  ? [node('Using', { expr: computed }), ...members]
                  : members,
          }),
        ),
      fc
        .record({ name: declName, members: small(annotation) })
        .map((f) => node('PermissionDecl', f)),
      fc
        .record({
          pointerKind: fc.constantFrom('property' as const, 'link' as const),
          name: name,
          extending: small(simpleTypeName),
          members: small(fc.oneof(setField, annotation, using, constraint)),
          prop: concretePointer(['property', null], false),
        })
        .map(({ prop, ...f }) =>
          node('PointerDecl', {
            ...f,
            members: f.pointerKind === 'link' ? [...f.members, prop] : f.members,
            abstract: true,
            overloaded: false,
            required: null,
            cardinality: null,
            target: null,
            computed: null,
          }),
        ),
    );
  };

  const explicitModule: fc.Arbitrary<ModuleDecl> = fc
    .record({
      name: fc.constantFrom('default', 'other', 'my::mod', 'select'),
      declarations: small(
        fc.oneof(
          { weight: 6, arbitrary: declaration(false) },
          {
            weight: 1,
            arbitrary: fc
              .record({
                name: fc.constantFrom('inner', 'x'),
                declarations: small(declaration(false), 0, 2),
              })
              .map((f) => node('ModuleDecl', { ...f, implicit: false })),
          },
        ),
        0,
        3,
      ),
    })
    .map((f) => node('ModuleDecl', { ...f, implicit: false }));
  const implicitModule: fc.Arbitrary<ModuleDecl> = small(declaration(true), 1, 3).map(
    (declarations) => node('ModuleDecl', { name: 'default', implicit: true, declarations }),
  );

  return fc
    .record({
      extensions: small(
        fc
          .record({ name, version: nullable(fc.constantFrom('1.0', '2')) })
          .map((f) => node('UsingExtension', f)),
      ),
      futures: small(name.map((n) => node('UsingFuture', { name: n }))),
      modules: small(fc.oneof(explicitModule, implicitModule), 0, 3),
    })
    .map((f) => ({
      ...f,
      // two implicit modules in a row would print as one
      modules: f.modules.filter((m, i, all) => !(m.implicit && all[i - 1]?.implicit)),
    }))
    .map((f) => node('Schema', f));
}

function typeName(type: fc.Arbitrary<TypeExpr>): fc.Arbitrary<TypeName> {
  return fc
    .record({ name: objectRef, subtypes: fc.array(type, { maxLength: 2 }) })
    .map((f) => node('TypeName', f));
}
