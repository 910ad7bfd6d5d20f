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
import type { Span } from './node-base';
import type {
  AliasedExpr,
  Anchor,
  ArrayLiteral,
  BinOp,
  BytesConstant,
  Constant,
  DeleteQuery,
  Detached,
  ForQuery,
  FunctionCall,
  GlobalRef,
  GroupQuery,
  GroupingIdentList,
  GroupingOperation,
  GroupingSets,
  GroupingSimple,
  IfElse,
  Index,
  InsertQuery,
  InternalGroupQuery,
  Introspect,
  IsOp,
  ModuleAlias,
  NamedArg,
  NamedSubtype,
  NamedTupleLiteral,
  ObjectRef,
  Parameter,
  Path,
  Ptr,
  Query,
  SelectQuery,
  SetLiteral,
  Shape,
  ShapeElement,
  Slice,
  SortExpr,
  Splat,
  TupleElement,
  TupleLiteral,
  TypeCast,
  TypeIntersection,
  TypeName,
  TypeOf,
  TypeOp,
  UnaryOp,
  UnlessConflict,
  UpdateQuery,
} from './expr-ast';
import type {
  AbstractConstraintDecl,
  AccessPolicy,
  AliasDecl,
  AnnotationDecl,
  AnnotationValue,
  ConcreteConstraint,
  ConcreteIndex,
  FuncParam,
  FunctionCode,
  FunctionDecl,
  GlobalDecl,
  ModuleDecl,
  ObjectTypeDecl,
  OnSourceDelete,
  OnTargetDelete,
  PermissionDecl,
  PointerDecl,
  Rewrite,
  ScalarTypeDecl,
  Schema,
  SetField,
  Trigger,
  Using,
  UsingExtension,
  UsingFuture,
} from './sdl-ast';

export type { Position, Span } from './node-base';
export * from './expr-ast';
export * from './sdl-ast';

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
