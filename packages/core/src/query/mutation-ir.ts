/**
 * query/mutation-ir: the IR nodes of insert, update and delete (bound by query/bind/mutation,
 * planned by query/plan/mutation), part of query/ir's `IrExpr`.
 *
 * Each node is the set of objects it writes (type: the written type; cardinality: how many), so
 * `select (insert T {...}) {...}`, `with u := (update ...) select u {...}` and a bare mutation
 * read the written rows like any other object set. The written objects are known inside the
 * statement by `pathId`.
 * Invariants: every element names a stored, non-computed pointer of the written type (never `id`
 * or `__type__`); a value is already of the pointer's target type (casts inserted by the binder)
 * and at most one element when the pointer is single; a required pointer of an insert either
 * has an element, a default the database applies, or a `defaults` entry.
 */
import type { BindingRef, Card, IrExpr, IrType } from './ir';
import type { PointerInfo } from './schema-index';

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

interface Base<K extends string> {
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
}

export interface Insert extends Base<'Insert'> {
  /** The concrete object type inserted. */
  readonly objectType: string;
  readonly elements: readonly MutationElement[];
  readonly conflict: Conflict | null;
}

/** `update subject filter ... set { ... }`: `subject`'s objects are known by `subjectPathId`
 * inside filter and elements (`pathId` is the same objects after the update). */
export interface Update extends Base<'Update'> {
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
export interface Delete extends Base<'Delete'> {
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

export function isMutation(expr: { readonly kind: string }): expr is Mutation {
  return expr.kind === 'Insert' || expr.kind === 'Update' || expr.kind === 'Delete';
}

/** The direct sub-expressions of a mutation (for analyses that walk the IR), its guards' included. */
export function mutationChildren(expr: Mutation): IrExpr[] {
  return [...(expr.guards ?? []).map((g) => g.expr), ...(expr.within ?? []), ...ownChildren(expr)];
}

function ownChildren(expr: Mutation): IrExpr[] {
  const elements = (list: readonly MutationElement[]) =>
    list.flatMap((e) => [
      e.value,
      ...(e.parts ?? []).flatMap((p) => p.props.filter((x) => x !== null)),
    ]);
  switch (expr.kind) {
    case 'Insert':
      return [
        ...elements(expr.elements),
        ...(expr.conflict?.else ? [expr.conflict.else] : []),
        ...(expr.conflict?.keys ?? []).map((k) => k.fresh),
      ];
    case 'Update':
      return [expr.subject, ...(expr.filter ? [expr.filter] : []), ...elements(expr.elements)];
    case 'Delete':
      return [
        expr.subject,
        ...(expr.filter ? [expr.filter] : []),
        ...expr.orderBy.map((k) => k.expr),
        ...(expr.offset ? [expr.offset] : []),
        ...(expr.limit ? [expr.limit] : []),
      ];
  }
}

/** True when a mutation occurs anywhere in `root` (`children` walks the other node kinds). */
export function containsMutation(
  root: IrExpr,
  children: (expr: IrExpr) => readonly IrExpr[],
): boolean {
  const seen = new Set<IrExpr>();
  const visit = (expr: IrExpr): boolean => {
    if (seen.has(expr)) return false;
    seen.add(expr);
    if (isMutation(expr)) return true;
    if (expr.kind === 'BindingRef' && visit(expr.binding.expr)) return true;
    return children(expr).some(visit);
  };
  return visit(root);
}

/**
 * Refuses a mutation where it would be run conditionally (a branch of `if ... else`, the right
 * side of `??`) but carries no guards (the binder gives a mutation bound inside a branch the
 * branch's conditions; the planner writes it only when they hold): without them it would be
 * written whichever branch is taken. A `with` binding's mutation runs whether or not a branch
 * reads it (as in Gel). `children` walks the other node kinds.
 */
export function assertMutationPlacement(
  root: IrExpr,
  children: (expr: IrExpr) => readonly IrExpr[],
  refuse: (message: string) => never,
): void {
  const seen = new Set<IrExpr>();
  const visit = (expr: IrExpr, conditional: boolean): void => {
    if (seen.has(expr)) return;
    seen.add(expr);
    if (isMutation(expr) && conditional && (expr.guards ?? []).length === 0) {
      refuse(
        `${expr.kind.toLowerCase()} inside a conditional expression (if/else, ??) is not supported yet: write it as its own statement or in a with binding`,
      );
    }
    if (expr.kind === 'BindingRef') {
      return visit(expr.binding.expr, expr.binding.transparent === true && conditional);
    }
    if (expr.kind === 'IfElse') {
      visit(expr.condition, conditional);
      visit(expr.then, true);
      visit(expr.else, true);
      return;
    }
    if (expr.kind === 'Coalesce') {
      visit(expr.left, conditional);
      visit(expr.right, true);
      return;
    }
    for (const child of children(expr)) visit(child, conditional);
  };
  visit(root, false);
}
