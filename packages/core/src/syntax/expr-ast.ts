/**
 * expr-ast: the syntax tree of EdgeQL — names and type expressions, expressions, and queries
 * (./ast is the entry that also holds the SDL nodes, the node union and `create`).
 */
import type { NodeBase } from './node-base';

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
