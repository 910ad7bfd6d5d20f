/**
 * ast: the syntax tree of EdgeQL queries and SDL schemas.
 *
 * Every node is a readonly interface whose `kind` is its interface name and whose `span` gives
 * the source range it was parsed from. `Node` is the union of all nodes and `NodeKind` the
 * union of their kinds, so a later pass can declare `Record<NodeKind, Handler>` tables or
 * switch exhaustively on `kind`. Nodes are made with `create(kind, span, fields)`.
 *
 * The shape follows Gel's `edb/edgeql/ast.py` where that is natural, with these choices:
 * - a bare name in an expression is an `ObjectRef`; `Path` has an optional subject (`null` for
 *   a partial path such as `.name`) and a non-empty list of steps;
 * - `-<number>` is folded into a negative numeric `Constant`, as Gel does;
 * - keywords and operators are stored in lower case (`'not in'`, `'set of'`);
 * - names are stored unquoted (`` `my name` `` becomes `my name`).
 */
import type { Position } from './tokens';

export type { Position } from './tokens';

export interface Span {
  readonly start: Position;
  readonly end: Position;
}

interface NodeBase<K extends string> {
  readonly kind: K;
  readonly span: Span;
}

// ---------------------------------------------------------------------------------------------
// Names and types

/** A possibly module-qualified name: `User`, `std::len`, `cal::local_date`. */
export interface ObjectRef extends NodeBase<'ObjectRef'> {
  /** `'std'`, `'cal'`, `'a::b'`, or null when unqualified. */
  readonly module: string | null;
  readonly name: string;
}

/** `str`, `array<str>`, `tuple<a: int64, b: str>`, `enum<Red, Green>`. */
export interface TypeName extends NodeBase<'TypeName'> {
  readonly name: ObjectRef;
  /**
   * Type arguments in `<...>`; empty when the type has none. A quoted argument (`enum<'RED'>`)
   * is the TypeName it spells, as in Gel.
   */
  readonly subtypes: readonly TypeSubtype[];
}

/** A named element of a tuple type: `a: int64` in `tuple<a: int64>`. */
export interface NamedSubtype extends NodeBase<'NamedSubtype'> {
  readonly name: string;
  readonly type: TypeExpr;
}

/** `A | B`, `A & B`. */
export interface TypeOp extends NodeBase<'TypeOp'> {
  readonly op: '|' | '&';
  readonly left: TypeExpr;
  readonly right: TypeExpr;
}

/** `typeof expr`. */
export interface TypeOf extends NodeBase<'TypeOf'> {
  readonly expr: Expr;
}

export type TypeExpr = TypeName | TypeOp | TypeOf;
export type TypeSubtype = TypeExpr | NamedSubtype;

// ---------------------------------------------------------------------------------------------
// Expressions

export type ConstantScalar = 'str' | 'int64' | 'float64' | 'bigint' | 'decimal' | 'bool';

/**
 * A literal. `value` is the decoded string, the number as written without `_` and without the
 * `n` suffix (`'-1.5e3'`, `'123'`), or `'true'`/`'false'`.
 */
export interface Constant extends NodeBase<'Constant'> {
  readonly scalar: ConstantScalar;
  readonly value: string;
}

/** `b'...'`. */
export interface BytesConstant extends NodeBase<'BytesConstant'> {
  readonly value: Uint8Array;
}

/** `$name`, `$0`; a cast in front (`<str>$name`) is a `TypeCast` around it. */
export interface Parameter extends NodeBase<'Parameter'> {
  readonly name: string;
}

export type AnchorName =
  | '__subject__'
  | '__source__'
  | '__new__'
  | '__old__'
  | '__specified__'
  | '__default__';

/** `__subject__`, `__source__`, `__new__`, `__old__`, `__specified__`, `__default__`. */
export interface Anchor extends NodeBase<'Anchor'> {
  readonly name: AnchorName;
}

/** A pointer step: `.name`, `.<name` (backlink), `.?>name`, `@name` (link property). */
export interface Ptr extends NodeBase<'Ptr'> {
  readonly name: string;
  readonly via: '.' | '.<' | '.?>' | '@';
}

/** `[is Type]`. */
export interface TypeIntersection extends NodeBase<'TypeIntersection'> {
  readonly type: TypeExpr;
}

/** `*` / `**` in a shape, optionally `Type.*`, `[is T].*`, `Type[is T].**`. */
export interface Splat extends NodeBase<'Splat'> {
  readonly depth: 1 | 2;
  readonly type: TypeExpr | null;
  readonly intersection: TypeIntersection | null;
}

export type PathStep = Ptr | TypeIntersection;

/** `User.name`, `.name`, `.<author[is Post]`, `f(x).a`, `@weight`. */
export interface Path extends NodeBase<'Path'> {
  /** What the path starts from; null for a partial path (`.name`, `.<link`, `@prop`). */
  readonly subject: Expr | null;
  readonly steps: readonly PathStep[];
}

export type ShapePathStep = Ptr | TypeIntersection | Splat;

/**
 * One element of a shape: `name`, `friends: { name } filter ... limit 3`,
 * `[is Admin].level`, `required total := count(.x)`, `tags += 'x'`, `*`.
 */
export interface ShapeElement extends NodeBase<'ShapeElement'> {
  readonly path: readonly ShapePathStep[];
  /** `required` → true, `optional` → false, none → null. */
  readonly required: boolean | null;
  readonly cardinality: 'single' | 'multi' | null;
  readonly operation: ':=' | '+=' | '-=' | null;
  readonly compExpr: Expr | null;
  /** Sub-shape after `:`, or null. */
  readonly elements: readonly ShapeElement[] | null;
  readonly filter: Expr | null;
  readonly orderBy: readonly SortExpr[];
  readonly offset: Expr | null;
  readonly limit: Expr | null;
}

/** `User { name }`; a free shape `{ a := 1 }` has no subject. */
export interface Shape extends NodeBase<'Shape'> {
  readonly subject: Expr | null;
  readonly elements: readonly ShapeElement[];
}

export type BinaryOperator =
  | 'union'
  | 'except'
  | 'intersect'
  | 'or'
  | 'and'
  | 'like'
  | 'not like'
  | 'ilike'
  | 'not ilike'
  | 'in'
  | 'not in'
  | '='
  | '!='
  | '<'
  | '>'
  | '<='
  | '>='
  | '?='
  | '?!='
  | '+'
  | '-'
  | '++'
  | '*'
  | '/'
  | '//'
  | '%'
  | '??'
  | '^';

export interface BinOp extends NodeBase<'BinOp'> {
  readonly op: BinaryOperator;
  readonly left: Expr;
  readonly right: Expr;
}

export type UnaryOperator = '+' | '-' | 'not' | 'exists' | 'distinct';

export interface UnaryOp extends NodeBase<'UnaryOp'> {
  readonly op: UnaryOperator;
  readonly operand: Expr;
}

/** `x is T`, `x is not T`. */
export interface IsOp extends NodeBase<'IsOp'> {
  readonly left: Expr;
  readonly negated: boolean;
  readonly type: TypeExpr;
}

/** `<type>expr`, `<optional type>$x`, `<required type>$x`. */
export interface TypeCast extends NodeBase<'TypeCast'> {
  readonly type: TypeExpr;
  readonly expr: Expr;
  readonly cardinality: 'optional' | 'required' | null;
}

/** `a if c else b` (`infix`) or `if c then a else b`. */
export interface IfElse extends NodeBase<'IfElse'> {
  readonly condition: Expr;
  readonly ifExpr: Expr;
  readonly elseExpr: Expr;
  readonly infix: boolean;
}

/** `name := value` as a function argument. */
export interface NamedArg extends NodeBase<'NamedArg'> {
  readonly name: string;
  readonly value: Expr;
}

/**
 * `std::len(x)`, `f(a, b := 1)`. An argument written `x filter c order by d` is an implicit
 * `SelectQuery` (`implicit: true`), as in Gel.
 */
export interface FunctionCall extends NodeBase<'FunctionCall'> {
  readonly func: ObjectRef;
  readonly args: readonly Expr[];
  readonly namedArgs: readonly NamedArg[];
}

/** `x[i]`. */
export interface Index extends NodeBase<'Index'> {
  readonly subject: Expr;
  readonly index: Expr;
}

/** `x[i:j]`, `x[i:]`, `x[:j]`. */
export interface Slice extends NodeBase<'Slice'> {
  readonly subject: Expr;
  readonly start: Expr | null;
  readonly stop: Expr | null;
}

/** `{a, b}`, `{}`. */
export interface SetLiteral extends NodeBase<'SetLiteral'> {
  readonly elements: readonly Expr[];
}

/** `[a, b]`. */
export interface ArrayLiteral extends NodeBase<'ArrayLiteral'> {
  readonly elements: readonly Expr[];
}

/** `(a, b)`, `(a,)`, `()`. */
export interface TupleLiteral extends NodeBase<'TupleLiteral'> {
  readonly elements: readonly Expr[];
}

export interface TupleElement extends NodeBase<'TupleElement'> {
  readonly name: string;
  readonly value: Expr;
}

/** `(a := 1, b := 2)`. */
export interface NamedTupleLiteral extends NodeBase<'NamedTupleLiteral'> {
  readonly elements: readonly TupleElement[];
}

/** `detached expr`. */
export interface Detached extends NodeBase<'Detached'> {
  readonly expr: Expr;
}

/** `global name`. */
export interface GlobalRef extends NodeBase<'GlobalRef'> {
  readonly name: ObjectRef;
}

/** `introspect Type`. */
export interface Introspect extends NodeBase<'Introspect'> {
  readonly type: TypeExpr;
}

// ---------------------------------------------------------------------------------------------
// Queries

/** `name := expr` in `with`, `using`, or as an aliased select/group subject. */
export interface AliasedExpr extends NodeBase<'AliasedExpr'> {
  readonly alias: string;
  readonly expr: Expr;
}

/** `module foo` or `m as module foo` in `with`. */
export interface ModuleAlias extends NodeBase<'ModuleAlias'> {
  readonly alias: string | null;
  readonly module: string;
}

export type WithItem = AliasedExpr | ModuleAlias;

/** `expr [asc|desc] [empty first|empty last]` in `order by`. */
export interface SortExpr extends NodeBase<'SortExpr'> {
  readonly expr: Expr;
  readonly direction: 'asc' | 'desc' | null;
  readonly emptyOrder: 'first' | 'last' | null;
}

export interface SelectQuery extends NodeBase<'SelectQuery'> {
  readonly aliases: readonly WithItem[];
  readonly result: Expr;
  readonly resultAlias: string | null;
  readonly filter: Expr | null;
  readonly orderBy: readonly SortExpr[];
  readonly offset: Expr | null;
  readonly limit: Expr | null;
  /** Written without `select`: a function argument with `filter`/`order by`. */
  readonly implicit: boolean;
}

/** `unless conflict [on expr [else expr]]`. */
export interface UnlessConflict extends NodeBase<'UnlessConflict'> {
  readonly on: Expr | null;
  readonly elseExpr: Expr | null;
}

export interface InsertQuery extends NodeBase<'InsertQuery'> {
  readonly aliases: readonly WithItem[];
  readonly subject: ObjectRef;
  readonly shape: readonly ShapeElement[];
  readonly unlessConflict: UnlessConflict | null;
}

export interface UpdateQuery extends NodeBase<'UpdateQuery'> {
  readonly aliases: readonly WithItem[];
  readonly subject: Expr;
  readonly filter: Expr | null;
  readonly shape: readonly ShapeElement[];
}

export interface DeleteQuery extends NodeBase<'DeleteQuery'> {
  readonly aliases: readonly WithItem[];
  readonly subject: Expr;
  readonly filter: Expr | null;
  readonly orderBy: readonly SortExpr[];
  readonly offset: Expr | null;
  readonly limit: Expr | null;
}

/** `for [optional] x in iterator union body`; `union: false` for `for x in y insert ...`. */
export interface ForQuery extends NodeBase<'ForQuery'> {
  readonly aliases: readonly WithItem[];
  readonly optional: boolean;
  readonly iteratorAlias: string;
  readonly iterator: Expr;
  readonly body: Expr;
  readonly union: boolean;
}

/** A grouping key: `name` (a `using` alias), `.name` or `@name`. */
export type GroupingIdent = ObjectRef | Path;

/** `(a, b)` in `by`. */
export interface GroupingIdentList extends NodeBase<'GroupingIdentList'> {
  readonly elements: readonly GroupingIdent[];
}

export type GroupingAtom = GroupingIdent | GroupingIdentList;

export interface GroupingSimple extends NodeBase<'GroupingSimple'> {
  readonly element: GroupingAtom;
}

/** `{a, b}` in `by`. */
export interface GroupingSets extends NodeBase<'GroupingSets'> {
  readonly sets: readonly GroupingElement[];
}

/** `rollup(a, b)`, `cube(a, b)`. */
export interface GroupingOperation extends NodeBase<'GroupingOperation'> {
  readonly op: 'rollup' | 'cube';
  readonly elements: readonly GroupingAtom[];
}

export type GroupingElement = GroupingSimple | GroupingSets | GroupingOperation;

/** `group [alias :=] subject [using k := e, ...] by ...`. */
export interface GroupQuery extends NodeBase<'GroupQuery'> {
  readonly aliases: readonly WithItem[];
  readonly subject: Expr;
  readonly subjectAlias: string | null;
  readonly using: readonly AliasedExpr[] | null;
  readonly by: readonly GroupingElement[];
}

/**
 * `for group [alias :=] subject using ... by ... in g [, grouping] union [alias :=] result
 * [filter ...] [order by ...]`: Gel's internal form of `group`, the result evaluated once per
 * group with `g` the group's elements and each `using` alias its key.
 */
export interface InternalGroupQuery extends NodeBase<'InternalGroupQuery'> {
  readonly aliases: readonly WithItem[];
  readonly subject: Expr;
  readonly subjectAlias: string | null;
  readonly using: readonly AliasedExpr[];
  readonly by: readonly GroupingElement[];
  readonly groupAlias: string;
  readonly groupingAlias: string | null;
  readonly resultAlias: string | null;
  readonly result: Expr;
  readonly filter: Expr | null;
  readonly orderBy: readonly SortExpr[];
}

export type Query =
  | SelectQuery
  | InsertQuery
  | UpdateQuery
  | DeleteQuery
  | ForQuery
  | GroupQuery
  | InternalGroupQuery;

export type Expr =
  | Constant
  | BytesConstant
  | Parameter
  | Anchor
  | ObjectRef
  | Path
  | Shape
  | BinOp
  | UnaryOp
  | IsOp
  | TypeCast
  | IfElse
  | FunctionCall
  | Index
  | Slice
  | SetLiteral
  | ArrayLiteral
  | TupleLiteral
  | NamedTupleLiteral
  | Detached
  | GlobalRef
  | Introspect
  | Query;

/** A top-level statement: a query, or `if ... then ... else ...`. */
export type Statement = Query | IfElse;

// ---------------------------------------------------------------------------------------------
// SDL

/** `name := value` inside a declaration block: `default := 0`, `errmessage := '...'`. */
export interface SetField extends NodeBase<'SetField'> {
  readonly name: string;
  readonly value: Expr;
}

/** `annotation title := '...'`. */
export interface AnnotationValue extends NodeBase<'AnnotationValue'> {
  readonly name: ObjectRef;
  readonly value: Expr;
}

/** `using (expr)` inside a block: the expression of a computed pointer, alias, or constraint. */
export interface Using extends NodeBase<'Using'> {
  readonly expr: Expr;
}

/** `on target delete restrict|delete source|allow|deferred restrict`. */
export interface OnTargetDelete extends NodeBase<'OnTargetDelete'> {
  readonly action: 'restrict' | 'delete source' | 'allow' | 'deferred restrict';
}

/** `on source delete delete target|allow|delete target if orphan`. */
export interface OnSourceDelete extends NodeBase<'OnSourceDelete'> {
  readonly action: 'delete target' | 'allow' | 'delete target if orphan';
}

/** `[delegated] constraint name[(args)] [on (expr)] [except (expr)] [{...}]`. */
export interface ConcreteConstraint extends NodeBase<'ConcreteConstraint'> {
  readonly name: ObjectRef;
  readonly delegated: boolean;
  readonly args: readonly Expr[];
  readonly on: Expr | null;
  readonly except: Expr | null;
  readonly members: readonly (SetField | AnnotationValue)[];
}

/** `[deferred] index [name[(named args)]] on (expr) [except (expr)] [{...}]`. */
export interface ConcreteIndex extends NodeBase<'ConcreteIndex'> {
  readonly name: ObjectRef | null;
  readonly deferred: boolean;
  readonly args: readonly NamedArg[];
  readonly on: Expr;
  readonly except: Expr | null;
  readonly members: readonly (SetField | AnnotationValue)[];
}

export type AccessKind =
  | 'all'
  | 'select'
  | 'insert'
  | 'delete'
  | 'update'
  | 'update read'
  | 'update write';

/** `access policy name [when (c)] allow|deny kinds [using (e)] [{ errmessage := ... }]`. */
export interface AccessPolicy extends NodeBase<'AccessPolicy'> {
  readonly name: string;
  readonly when: Expr | null;
  readonly action: 'allow' | 'deny';
  readonly kinds: readonly AccessKind[];
  readonly using: Expr | null;
  readonly members: readonly (SetField | AnnotationValue)[];
}

/** `trigger name after insert, update for each [when (c)] do (expr)`. */
export interface Trigger extends NodeBase<'Trigger'> {
  readonly name: string;
  readonly timing: 'after' | 'after commit of';
  readonly kinds: readonly ('insert' | 'update' | 'delete')[];
  readonly scope: 'each' | 'all';
  readonly when: Expr | null;
  readonly expr: Expr;
  readonly members: readonly (SetField | AnnotationValue)[];
}

/** `rewrite insert, update using (expr)`. */
export interface Rewrite extends NodeBase<'Rewrite'> {
  readonly kinds: readonly ('insert' | 'update')[];
  readonly expr: Expr;
  readonly members: readonly (SetField | AnnotationValue)[];
}

export type PointerMember =
  | SetField
  | AnnotationValue
  | Using
  | ConcreteConstraint
  | ConcreteIndex
  | OnTargetDelete
  | OnSourceDelete
  | Rewrite
  | PointerDecl;

/**
 * A property or link. `pointerKind` is null for the current syntax without a keyword
 * (`name: str`), whose kind is known only once the target type is resolved.
 * `target` is null for a computed pointer (`computed` or a `using` member) and for an
 * `overloaded` one that keeps its inherited type.
 */
export interface PointerDecl extends NodeBase<'PointerDecl'> {
  readonly pointerKind: 'property' | 'link' | null;
  readonly name: string;
  readonly abstract: boolean;
  readonly overloaded: boolean;
  readonly required: boolean | null;
  readonly cardinality: 'single' | 'multi' | null;
  readonly extending: readonly TypeName[];
  readonly target: TypeExpr | null;
  /** `name := expr`. */
  readonly computed: Expr | null;
  readonly members: readonly PointerMember[];
}

export type ObjectTypeMember =
  | PointerDecl
  | ConcreteConstraint
  | ConcreteIndex
  | AccessPolicy
  | Trigger
  | AnnotationValue;

/** `[abstract] type Name [extending A, B] { ... }`. */
export interface ObjectTypeDecl extends NodeBase<'ObjectTypeDecl'> {
  readonly name: ObjectRef;
  readonly abstract: boolean;
  readonly extending: readonly TypeName[];
  readonly members: readonly ObjectTypeMember[];
}

/** `[abstract] scalar type Name [extending str] { constraint ...; }`. */
export interface ScalarTypeDecl extends NodeBase<'ScalarTypeDecl'> {
  readonly name: ObjectRef;
  readonly abstract: boolean;
  readonly extending: readonly TypeName[];
  readonly members: readonly (SetField | AnnotationValue | ConcreteConstraint)[];
}

/** `abstract [inheritable] annotation name`. */
export interface AnnotationDecl extends NodeBase<'AnnotationDecl'> {
  readonly name: ObjectRef;
  readonly inheritable: boolean;
  readonly extending: readonly TypeName[];
  readonly members: readonly (SetField | AnnotationValue)[];
}

/** A function or abstract-constraint parameter: `[variadic|named only] name: [set of|optional] T [= default]`. */
export interface FuncParam extends NodeBase<'FuncParam'> {
  readonly name: string;
  readonly paramKind: 'positional' | 'variadic' | 'named only';
  readonly typeModifier: 'set of' | 'optional' | null;
  readonly type: TypeExpr;
  readonly default: Expr | null;
}

/** `abstract constraint name[(params)] [on (expr)] [extending ...] { using (...); ... }`. */
export interface AbstractConstraintDecl extends NodeBase<'AbstractConstraintDecl'> {
  readonly name: ObjectRef;
  readonly params: readonly FuncParam[] | null;
  readonly on: Expr | null;
  readonly extending: readonly TypeName[];
  readonly members: readonly (Using | SetField | AnnotationValue)[];
}

/** `using sql $$...$$`, `using sql function 'name'`, `using sql expression`. */
export interface FunctionCode extends NodeBase<'FunctionCode'> {
  readonly language: string;
  readonly mode: 'code' | 'function' | 'expression';
  readonly text: string | null;
}

/** `function name(params) -> [set of|optional] T { using (...); volatility := '...'; }`. */
export interface FunctionDecl extends NodeBase<'FunctionDecl'> {
  readonly name: ObjectRef;
  readonly params: readonly FuncParam[];
  readonly returnModifier: 'set of' | 'optional' | null;
  readonly returnType: TypeExpr;
  readonly members: readonly (Using | FunctionCode | SetField | AnnotationValue)[];
}

/** `alias Name := expr` or `alias Name { using (expr); annotation ...; }`. */
export interface AliasDecl extends NodeBase<'AliasDecl'> {
  readonly name: ObjectRef;
  readonly expr: Expr | null;
  readonly members: readonly (Using | SetField | AnnotationValue)[];
}

/** `[required] [single|multi] global name: T [{ default := ... }]` or `global name := expr`. */
export interface GlobalDecl extends NodeBase<'GlobalDecl'> {
  readonly name: ObjectRef;
  readonly required: boolean | null;
  readonly cardinality: 'single' | 'multi' | null;
  readonly target: TypeExpr | null;
  readonly computed: Expr | null;
  readonly members: readonly (Using | SetField | AnnotationValue)[];
}

/** `permission name [{ annotation ... }]`. */
export interface PermissionDecl extends NodeBase<'PermissionDecl'> {
  readonly name: ObjectRef;
  readonly members: readonly AnnotationValue[];
}

/**
 * `module name { ... }`. Declarations outside any module block are gathered into `implicit`
 * modules named `default` (one per run of consecutive bare declarations). A declaration name may
 * be qualified only outside module blocks (`type other::Foo`); a later pass resolves it.
 */
export interface ModuleDecl extends NodeBase<'ModuleDecl'> {
  readonly name: string;
  readonly implicit: boolean;
  readonly declarations: readonly Declaration[];
}

export type Declaration =
  | ModuleDecl
  | ObjectTypeDecl
  | ScalarTypeDecl
  | AnnotationDecl
  | AbstractConstraintDecl
  | PointerDecl
  | FunctionDecl
  | AliasDecl
  | GlobalDecl
  | PermissionDecl;

/** `using extension name [version '1.0'];` */
export interface UsingExtension extends NodeBase<'UsingExtension'> {
  readonly name: string;
  readonly version: string | null;
}

/** `using future name;` */
export interface UsingFuture extends NodeBase<'UsingFuture'> {
  readonly name: string;
}

/** A whole SDL document. */
export interface Schema extends NodeBase<'Schema'> {
  readonly extensions: readonly UsingExtension[];
  readonly futures: readonly UsingFuture[];
  readonly modules: readonly ModuleDecl[];
}

// ---------------------------------------------------------------------------------------------
// The node union and construction

export type Node =
  | ObjectRef
  | TypeName
  | NamedSubtype
  | TypeOp
  | TypeOf
  | Constant
  | BytesConstant
  | Parameter
  | Anchor
  | Ptr
  | TypeIntersection
  | Splat
  | Path
  | ShapeElement
  | Shape
  | BinOp
  | UnaryOp
  | IsOp
  | TypeCast
  | IfElse
  | NamedArg
  | FunctionCall
  | Index
  | Slice
  | SetLiteral
  | ArrayLiteral
  | TupleLiteral
  | TupleElement
  | NamedTupleLiteral
  | Detached
  | GlobalRef
  | Introspect
  | AliasedExpr
  | ModuleAlias
  | SortExpr
  | SelectQuery
  | UnlessConflict
  | InsertQuery
  | UpdateQuery
  | DeleteQuery
  | ForQuery
  | GroupingIdentList
  | GroupingSimple
  | GroupingSets
  | GroupingOperation
  | GroupQuery
  | InternalGroupQuery
  | SetField
  | AnnotationValue
  | Using
  | OnTargetDelete
  | OnSourceDelete
  | ConcreteConstraint
  | ConcreteIndex
  | AccessPolicy
  | Trigger
  | Rewrite
  | PointerDecl
  | ObjectTypeDecl
  | ScalarTypeDecl
  | AnnotationDecl
  | FuncParam
  | AbstractConstraintDecl
  | FunctionCode
  | FunctionDecl
  | AliasDecl
  | GlobalDecl
  | PermissionDecl
  | ModuleDecl
  | UsingExtension
  | UsingFuture
  | Schema;

export type NodeKind = Node['kind'];

/** The node interface for a kind: `NodeOf<'BinOp'>` is `BinOp`. */
export type NodeOf<K extends NodeKind> = Extract<Node, { readonly kind: K }>;

/** The fields of a node other than `kind` and `span`. */
export type NodeFields<K extends NodeKind> = Omit<NodeOf<K>, 'kind' | 'span'>;

/** Makes a node: `create('BinOp', span, { op: '+', left, right })`. */
export function create<K extends NodeKind>(kind: K, span: Span, fields: NodeFields<K>): NodeOf<K> {
  return { kind, span, ...fields } as unknown as NodeOf<K>;
}

/** Kinds whose nodes are queries (statements usable as subqueries). */
export const QUERY_KINDS: ReadonlySet<NodeKind> = new Set<NodeKind>([
  'SelectQuery',
  'InsertQuery',
  'UpdateQuery',
  'DeleteQuery',
  'ForQuery',
  'GroupQuery',
  'InternalGroupQuery',
]);

export function isQuery(node: Node): node is Query {
  return QUERY_KINDS.has(node.kind);
}

/**
 * A deep copy of a tree without `span`s, to compare trees by structure only
 * (`expect(withoutSpans(a)).toEqual(withoutSpans(b))`).
 */
export function withoutSpans<T>(value: T): T {
  return strip(value) as T;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (key !== 'span') out[key] = strip(field);
  }
  return out;
}
