/**
 * query/ir/types: the nodes of the typed intermediate form of an EdgeQL query, between the binder
 * (query/bind) and the planner (query/plan).
 *
 * Every node is a *set* with a static type and inferred cardinality bounds (`card`). Names are
 * resolved (types, pointers, functions through std), variables are numbered parameters, aliases
 * are `Binding`s, and every path carries a `pathId`: two occurrences of the same path in one scope
 * have the same id and so denote the same element (Gel's path factoring); `detached` and each
 * new binding start fresh ids.
 * Invariants: IR is plain data, built once per compilation, never mutated after binding.
 */
import type { TypeRef } from '../../model/schema';
import type { PointerInfo } from '../schema-index';
import type { Card } from './card';

/** A type of a set: a schema TypeRef, or a free object (`{a := 1}`), or the type of `{}`. */
export type IrType =
  | TypeRef
  | { readonly kind: 'free'; readonly elements: readonly FreeElement[] }
  | { readonly kind: 'empty' };

export interface FreeElement {
  readonly name: string;
  readonly type: IrType;
  readonly card: Card;
}

/** A name bound by `with`, `for`, a select/group alias or a function parameter. */
export interface Binding {
  /** Unique in the query. */
  readonly id: number;
  readonly name: string;
  readonly expr: IrExpr;
  /** `for x in ...`: each element in turn; otherwise the whole set (referenced by path). */
  readonly iteration: boolean;
  /**
   * The compiler's own binding of a statement's or shape's subject that has no path of its own
   * (`select (a union b) filter ...`): planned in place, so the paths inside the subject are
   * visible to the statement's clauses, as Gel's scoping has them.
   */
  readonly transparent?: boolean;
  /** `for optional x in ...`: the body runs once with `x` empty when the iterator is empty. */
  readonly optional?: boolean;
  /** An inlined function's parameter (still visible inside `detached`, unlike an alias). */
  readonly parameter?: boolean;
  /**
   * A `with` alias: a reference to it is its objects, not the shape written inside it
   * (`with z := (select User {name}) select z` shows ids, as Gel); collections keep theirs.
   */
  readonly withAlias?: boolean;
}

interface Base<K extends string> {
  readonly kind: K;
  readonly type: IrType;
  readonly card: Card;
}

/** A literal: the value as EdgeQL wrote it (decoded), typed by std. */
export interface Literal extends Base<'Literal'> {
  readonly value: string | Uint8Array;
}

/** `$name` (with its cast); `index` is its 0-based slot in CompiledQuery.params. */
export interface Param extends Base<'Param'> {
  readonly index: number;
  /** `auth`: a value of the caller's credentials (std/caller), filled by the engine. */
  readonly source: 'variable' | 'global' | 'auth';
  readonly name: string;
  /** A global's default: its value when the request leaves the global out (not when it is null). */
  readonly fallback?: IrExpr;
}

/** `User`: every object of a type (its concrete descendants). */
export interface TypeRoot extends Base<'TypeRoot'> {
  readonly objectType: string;
  readonly pathId: string;
}

/** A reference to a binding (a `with` alias, a `for` variable, a select alias). */
export interface BindingRef extends Base<'BindingRef'> {
  readonly binding: Binding;
  readonly pathId: string;
}

/** `source.name`: a stored or computed pointer, forward. */
export interface PointerStep extends Base<'PointerStep'> {
  readonly source: IrExpr;
  /** The object type the pointer was looked up on (the source's static type). */
  readonly sourceType: string;
  readonly pointer: PointerInfo;
  /** For a computed pointer: its expression, bound with the source as `.` (null if stored). */
  readonly computed: IrExpr | null;
  readonly pathId: string;
  /** `.?>link`: optional even when required (a target hidden by access policies is none). */
  readonly optional?: boolean;
}

/** `source.<name`: objects of the links' declaring types whose `name` points at the source. */
export interface Backlink extends Base<'Backlink'> {
  readonly source: IrExpr;
  readonly links: readonly { readonly source: string; readonly pointer: PointerInfo }[];
  readonly pathId: string;
  /**
   * Narrowed by `[is T]` to a type with the link (`.<deck[is User]`): only then are its link
   * properties readable (a bare `.<deck` is of any type with a link of that name).
   */
  readonly narrowed?: boolean;
  /**
   * Followed by some `[is T]` (even one its type is already within): its objects have the
   * pointers of its type; a bare backlink is of an opaque union (only `std::BaseObject`'s).
   */
  readonly typed?: boolean;
}

/** `link@prop` read on a link step (its target object carries the link row). */
export interface LinkProperty extends Base<'LinkProperty'> {
  /** The step through the link: forward, a backlink, or either narrowed by `[is T]`. */
  readonly link: PointerStep | Backlink | Intersection | BindingRef;
  readonly property: PointerInfo;
}

/** `source[is T]`. */
export interface Intersection extends Base<'Intersection'> {
  readonly source: IrExpr;
  readonly objectType: string;
  readonly pathId: string;
}

export interface ShapeElement {
  readonly name: string;
  /** Evaluated per element of the shape's subject (the subject bound as `.`). */
  readonly expr: IrExpr;
  /** Only shown for subjects of this type (`[is T].x`); null for all. */
  readonly onlyFor: string | null;
}

/** `subject { ... }`: the subject's objects, output as JSON objects with these elements. */
export interface Shape extends Base<'Shape'> {
  readonly subject: IrExpr;
  readonly elements: readonly ShapeElement[];
}

/** `{a := 1, b := 'x'}`. */
export interface FreeObject extends Base<'FreeObject'> {
  readonly elements: readonly ShapeElement[];
}

/** How an argument is taken: one element at a time, as a whole set, or optional (empty → null). */
export type ArgMode = 'element' | 'set' | 'optional';

/** An operator or function from std (the planner asks std for its SQL by `std`). */
export interface Call extends Base<'Call'> {
  /** `std::+`, `std::count`, ... as std names them. */
  readonly name: string;
  /** std's resolved overload (opaque here; the planner hands it back to std). */
  readonly overload: unknown;
  readonly args: readonly IrExpr[];
  readonly modes: readonly ArgMode[];
  /** `element`: per combination of argument values; `aggregate`: over the whole set-of
   * argument (count, sum, array_agg, ...); `set-returning`: yields a set (array_unpack). */
  readonly callKind: 'element' | 'aggregate' | 'set-returning';
}

/** `<T>expr` for scalars (std's cast). */
export interface Cast extends Base<'Cast'> {
  readonly expr: IrExpr;
  readonly overload: unknown;
}

/** `<json>x` of objects or free objects: each one's result form (its shape, else its id). */
export interface ObjectJson extends Base<'ObjectJson'> {
  readonly expr: IrExpr;
}

/** `<T><uuid>x`: the objects of T with that id; a missing one is an error, not an empty set. */
export interface ObjectCast extends Base<'ObjectCast'> {
  readonly expr: IrExpr;
  readonly objectType: string;
  readonly pathId: string;
}

export interface SetLiteral extends Base<'SetLiteral'> {
  readonly elements: readonly IrExpr[];
}

export interface ArrayLiteral extends Base<'ArrayLiteral'> {
  readonly elements: readonly IrExpr[];
}

export interface TupleLiteral extends Base<'TupleLiteral'> {
  readonly elements: readonly IrExpr[];
  readonly names: readonly string[] | null;
}

/** `t.0`, `t.name`: one element of a tuple. */
export interface TupleElement extends Base<'TupleElement'> {
  readonly tuple: IrExpr;
  readonly position: number;
}

/** `a union b`, `a except b`, `a intersect b` (multiset), `distinct a`. */
export interface SetOp extends Base<'SetOp'> {
  readonly op: 'union' | 'except' | 'intersect';
  readonly left: IrExpr;
  readonly right: IrExpr;
}

export interface Distinct extends Base<'Distinct'> {
  readonly expr: IrExpr;
}

export interface Exists extends Base<'Exists'> {
  readonly expr: IrExpr;
  readonly negated: boolean;
}

/** `a ?? b`. */
export interface Coalesce extends Base<'Coalesce'> {
  readonly left: IrExpr;
  readonly right: IrExpr;
}

export interface IfElse extends Base<'IfElse'> {
  readonly condition: IrExpr;
  readonly then: IrExpr;
  readonly else: IrExpr;
}

/** `x is T` on objects. */
export interface TypeCheck extends Base<'TypeCheck'> {
  readonly expr: IrExpr;
  readonly objectType: string;
  readonly negated: boolean;
}

/** `assert_single`, `assert_exists`, `assert_distinct`: a runtime check (SQLSTATE 21000). */
export interface Assert extends Base<'Assert'> {
  readonly check: 'single' | 'exists' | 'distinct';
  readonly expr: IrExpr;
  /** The message when none is given, or the literal one. */
  readonly message: string;
  /** `message := <expression>` other than a literal: an optional str per call (Gel calls the
   * function once per element of a set of messages; an empty one gives `message`). */
  readonly messageExpr?: IrExpr;
}

export interface SortKey {
  readonly expr: IrExpr;
  readonly direction: 'asc' | 'desc';
  readonly empty: 'first' | 'last';
}

/**
 * A select statement: for each element of `subject` (bound to `binding`, so `.x` and paths
 * through the subject's pathId see it), keep those where `filter` holds, order, slice, and yield
 * `result` (the subject itself, or a shape of it).
 */
export interface Select extends Base<'Select'> {
  readonly subject: IrExpr;
  /** The pathId the subject's elements are known by inside filter/order by/result. */
  readonly subjectPathId: string;
  readonly result: IrExpr;
  readonly filter: IrExpr | null;
  readonly orderBy: readonly SortKey[];
  readonly offset: IrExpr | null;
  readonly limit: IrExpr | null;
}

/** `for x in iterator union body`. */
export interface For extends Base<'For'> {
  readonly binding: Binding;
  readonly iterator: IrExpr;
  readonly body: IrExpr;
  readonly optional: boolean;
}

/** `group subject using k := e by k`: Gel's result objects {key, grouping, elements}. */
export interface Group extends Base<'Group'> {
  readonly subject: IrExpr;
  readonly subjectPathId: string;
  /** Keys in `by` order: name and expression (evaluated per subject element). */
  readonly keys: readonly { readonly name: string; readonly expr: IrExpr }[];
  /**
   * The grouping sets, each the indices of the keys it groups by (`by a, b`: one set of both;
   * `by {a, b}`, `rollup`, `cube`: several). With more than one, a group's value records its set.
   */
  readonly sets: readonly (readonly number[])[];
  /** The shape of each group's elements (the subject's shape, if any). */
  readonly elements: IrExpr;
  /** Groups are referred to (`.key`, `.elements`, shapes) through this id. */
  readonly pathId: string;
}

/** `g.key.k`: the value of grouping key `index` of group `g`. */
export interface GroupKey extends Base<'GroupKey'> {
  readonly group: IrExpr;
  readonly index: number;
}

/** `g.grouping`: the names of the keys group `g`'s grouping set groups by (a set, or an array). */
export interface GroupGrouping extends Base<'GroupGrouping'> {
  readonly group: IrExpr;
  readonly array: boolean;
}

/** `g.elements`: the subject elements with group `g`'s keys. */
export interface GroupElements extends Base<'GroupElements'> {
  readonly group: IrExpr;
}

export type IrExpr =
  | Literal
  | Param
  | TypeRoot
  | BindingRef
  | PointerStep
  | Backlink
  | LinkProperty
  | Intersection
  | Shape
  | FreeObject
  | Call
  | Cast
  | ObjectJson
  | ObjectCast
  | SetLiteral
  | ArrayLiteral
  | TupleLiteral
  | SetOp
  | Distinct
  | Exists
  | Coalesce
  | IfElse
  | TypeCheck
  | Assert
  | Select
  | For
  | Group
  | GroupKey
  | GroupGrouping
  | GroupElements
  | TupleElement
  | Insert
  | Update
  | Delete;

/** A bound query: its root set, and the parameters in slot order. */
export interface IrQuery {
  readonly root: IrExpr;
  readonly params: readonly {
    readonly source: 'variable' | 'global' | 'auth';
    readonly name: string;
    readonly type: TypeRef;
    readonly required: boolean;
  }[];
  /** True when the statement writes. */
  readonly writes: boolean;
  /** `with` bindings that write: run whether or not the statement reads them (as Gel does). */
  readonly sideEffects: readonly IrExpr[];
}

// ---------------------------------------------------------------------------------------------
// Mutations: the IR nodes of insert, update and delete (bound by query/bind/mutation,
// planned by query/plan/mutation), part of query/ir's `IrExpr`.
//
// Each node is the set of objects it writes (type: the written type; cardinality: how many), so
// `select (insert T {...}) {...}`, `with u := (update ...) select u {...}` and a bare mutation
// read the written rows like any other object set. The written objects are known inside the
// statement by `pathId`.
// Invariants: every element names a stored, non-computed pointer of the written type (never `id`
// or `__type__`); a value is already of the pointer's target type (casts inserted by the binder)
// and at most one element when the pointer is single; a required pointer of an insert either
// has an element, a default the database applies, or a `defaults` entry.

/** `name := value` (also `+=`/`-=` in an update's shape, multi pointers only). */
export interface MutationElement {
  readonly pointer: PointerInfo;
  readonly op: ':=' | '+=' | '-=';
  /** The value set; for a link, objects of its target type. */
  readonly value: IrExpr;
  /**
   * The link properties written with the targets (`tags := (select Tag { @weight := 1 })`), in
   * the order of `parts[i].props`: every one some part gives. Empty: no link properties.
   */
  readonly linkProperties: readonly PointerInfo[];
  /**
   * With link properties: the value as its parts (a set literal's elements, a union's operands,
   * an if/else's branches, each as written), together making up `value`. Each part's elements
   * are known by `pathId`, and are written with `props` (aligned with `linkProperties`, bound with
   * one element of the part as `.`; null: the part does not give it, NULL is written). Every
   * target element belongs to exactly one part. Null when there are no link properties.
   */
  readonly parts: readonly ValuePart[] | null;
}

/** One part of a link's value and the link properties written with its elements. */
export interface ValuePart {
  readonly value: IrExpr;
  readonly pathId: string;
  readonly props: readonly (IrExpr | null)[];
  /**
   * Link properties that ride on the value's own shapes (`for x in ... union (select T { @p :=
   * x })`, `assert_single(T { @p := 1 })`): per link property, the key of the value's JSON
   * output holding it (`'@p'`), or null; `props` are then what is written for an element whose
   * output lacks the key (the property's default, or null: NULL). Absent for other parts.
   */
  readonly carried?: readonly (string | null)[];
}

interface MutationBase<K extends string> {
  readonly kind: K;
  readonly type: IrType;
  readonly card: Card;
  /** The written objects, inside the statement. */
  readonly pathId: string;
  /**
   * For a mutation in a branch of `if ... else` or on the right of `??` (Gel's conditional DML):
   * the conditions under which it runs, all of which must hold; absent or empty: always.
   */
  readonly guards?: readonly Guard[];
  /**
   * The `for` variables whose body the mutation is written in: it runs once per iteration of
   * each, whether or not it reads the variable (Gel: `for x in {1, 2} union (insert T)` inserts
   * two objects). Absent or empty: none.
   */
  readonly within?: readonly BindingRef[];
}

/** A condition a conditional mutation runs under: `expr` (a boolean, bound where the branch
 * is) is `when` — the branch's `if` condition (true for `then`, false for `else`), or `exists
 * left` false for the right side of `left ?? right`. */
export interface Guard {
  readonly expr: IrExpr;
  readonly when: boolean;
}

/** `unless conflict [on expr] [else expr]`. */
export interface Conflict {
  /**
   * The exclusive pointers (their values in the new object) a conflict is checked on: the one
   * named by `on .p` (or each of a tuple `on (.a, .b)`, checked together), or null for every
   * exclusive pointer of the type, each alone.
   */
  readonly on: readonly PointerInfo[] | null;
  /** The type declaring the exclusive constraint `on` names: the objects a conflict is looked for
   * among (all its concrete tables); null with `on` null. */
  readonly owner: string | null;
  /**
   * What the statement yields for a conflicting object instead of a new one (`else (select T)`,
   * `else (update T set {...})`), with the conflicting object known by `conflictPathId`; null:
   * nothing.
   */
  readonly else: IrExpr | null;
  readonly conflictPathId: string;
  /**
   * Exclusive constraints on an expression of a pointer (`constraint exclusive on
   * (str_lower(__subject__))`): with `on`, the one it names (compared instead of the pointer's
   * value); without, each one whose pointer the insert gives, checked alone besides the plain
   * ones. Absent: none.
   */
  readonly keys?: readonly ConflictKey[];
}

/** An exclusive constraint's expression, over an existing object and over the new values. */
export interface ConflictKey {
  /** The expression for an existing object of `owner`, known by `pathId`. */
  readonly existing: IrExpr;
  readonly pathId: string;
  /** The same expression over the inserted values. */
  readonly fresh: IrExpr;
  /** The type declaring the constraint: the objects a conflict is looked for among. */
  readonly owner: string;
  /**
   * For a computed pointer's constraint: `fresh` reads the inserted object, known by this path
   * id, whose stored columns are the insert's single values (`existing` reads the same pointer
   * of an existing object).
   */
  readonly row?: string;
}

export interface Insert extends MutationBase<'Insert'> {
  /** The concrete object type inserted. */
  readonly objectType: string;
  readonly elements: readonly MutationElement[];
  readonly conflict: Conflict | null;
  /**
   * The new object's id when the insert gives it (`id := <uuid>$id`, allowed by
   * CompileOptions.allowUserSpecifiedId): one uuid, required, new among the objects of every
   * type. Absent: the database chooses it. Not an element: it is the row's key, not a column
   * written beside it.
   */
  readonly id?: IrExpr;
}

/** `update subject filter ... set { ... }`: `subject`'s objects are known by `subjectPathId`
 * inside filter and elements (`pathId` is the same objects after the update). */
export interface Update extends MutationBase<'Update'> {
  readonly subject: IrExpr;
  readonly subjectPathId: string;
  readonly filter: IrExpr | null;
  readonly elements: readonly MutationElement[];
  /**
   * When a value writes (`tags := (insert Tag {...})`): the iteration over the updated objects
   * those writes are bound in (their `within`), so they run once per updated object, as in Gel.
   * The update binds it to its own subject; absent when no value writes.
   */
  readonly each?: BindingRef;
}

/** `delete subject filter ... order by ... offset ... limit ...`. */
export interface Delete extends MutationBase<'Delete'> {
  readonly subject: IrExpr;
  readonly subjectPathId: string;
  readonly filter: IrExpr | null;
  readonly orderBy: readonly {
    readonly expr: IrExpr;
    readonly direction: 'asc' | 'desc';
    readonly empty: 'first' | 'last';
  }[];
  readonly offset: IrExpr | null;
  readonly limit: IrExpr | null;
}

export type Mutation = Insert | Update | Delete;
