/**
 * query/ir/walk: the one walker of the IR. `mapChildren` rebuilds a node with each direct
 * sub-expression replaced; `children` lists them (in the same order). Both are driven by one
 * table with an entry per node kind (`IrKindTable`), so a new kind does not compile until the
 * walker says what its sub-expressions are; a pass that must treat every kind itself can use
 * `IrKindTable` (and `dispatch`) the same way.
 *
 * The direct sub-expressions of a node are the sets evaluated as part of it: a binding's
 * expression (behind a `BindingRef`), a computed pointer's expression and a conflict key's
 * `existing` side are not children (each is a set of its own, bound elsewhere); a mutation's
 * guards and `within` references are.
 * Invariants: pure; `mapChildren(n, (c) => c)` is `n` itself, and a node whose children are all
 * unchanged is returned as is (so analyses may compare nodes by identity).
 */
import type {
  BindingRef,
  Guard,
  IrExpr,
  LinkProperty,
  MutationElement,
  ShapeElement,
  SortKey,
  ValuePart,
} from './types';
import { mapList, patched } from '../../copy-on-write';

export type IrKind = IrExpr['kind'];

/** The node of one kind. */
export type IrNode<K extends IrKind> = Extract<IrExpr, { kind: K }>;

/** One entry per node kind: a table of this type does not compile while a kind is missing. */
export type IrKindTable<R> = { readonly [K in IrKind]: (node: IrNode<K>) => R };

/** `table`'s entry for `node`'s kind, applied to it. */
export function dispatch<R>(table: IrKindTable<R>, node: IrExpr): R {
  return (table[node.kind] as (node: IrExpr) => R)(node);
}

type Mapper = (expr: IrExpr) => IrExpr;

function mapOptional(expr: IrExpr | null, f: Mapper): IrExpr | null {
  return expr === null ? null : f(expr);
}

function mapUndefined(expr: IrExpr | undefined, f: Mapper): IrExpr | undefined {
  return expr === undefined ? undefined : f(expr);
}

function mapShapeElements(list: readonly ShapeElement[], f: Mapper): readonly ShapeElement[] {
  return mapList(list, (e) => patched(e, { expr: f(e.expr) }));
}

function mapSortKeys<T extends SortKey>(list: readonly T[], f: Mapper): readonly T[] {
  return mapList(list, (k) => patched(k, { expr: f(k.expr) } as Partial<T>));
}

function mapLink(expr: LinkProperty['link'], f: Mapper): LinkProperty['link'] {
  const next = f(expr);
  if (
    next.kind !== 'PointerStep' &&
    next.kind !== 'Backlink' &&
    next.kind !== 'Intersection' &&
    next.kind !== 'BindingRef'
  ) {
    throw new Error(`mapChildren: a link property's link cannot become a ${next.kind}`);
  }
  return next;
}

function mapRef(expr: BindingRef, f: Mapper): BindingRef {
  const next = f(expr);
  if (next.kind !== 'BindingRef') {
    throw new Error(`mapChildren: a mutation's 'within' cannot become a ${next.kind}`);
  }
  return next;
}

function mapPart(part: ValuePart, f: Mapper): ValuePart {
  return patched(part, {
    props: mapList(part.props, (p) => (p === null ? null : f(p))),
  });
}

/** A mutation element: its value, then the link properties its parts write (the parts' own
 * values make up `value` and are not walked again). */
function mapElements(list: readonly MutationElement[], f: Mapper): readonly MutationElement[] {
  return mapList(list, (e) => {
    const value = f(e.value);
    const parts = e.parts === null ? null : mapList(e.parts, (p) => mapPart(p, f));
    return patched(e, { value, parts });
  });
}

/** What every mutation has: the guards it runs under and the iterations it is written in. */
function mapMutationBase<T extends { guards?: readonly Guard[]; within?: readonly BindingRef[] }>(
  node: T,
  f: Mapper,
): Partial<T> {
  const patch: Partial<T> = {};
  if (node.guards !== undefined)
    patch.guards = mapList(node.guards, (g: Guard) => patched(g, { expr: f(g.expr) }));
  if (node.within !== undefined) patch.within = mapList(node.within, (r) => mapRef(r, f));
  return patch;
}

type MapTable = { readonly [K in IrKind]: (node: IrNode<K>, f: Mapper) => IrNode<K> };

const leaf = <T>(node: T): T => node;

/** Each kind's direct sub-expressions, mapped in order (the order `children` lists them in). */
const MAP: MapTable = {
  Literal: leaf,
  Param: (n, f) => patched(n, { fallback: mapUndefined(n.fallback, f) }),
  TypeRoot: leaf,
  BindingRef: leaf,
  PointerStep: (n, f) => patched(n, { source: f(n.source) }),
  Backlink: (n, f) => patched(n, { source: f(n.source) }),
  Intersection: (n, f) => patched(n, { source: f(n.source) }),
  LinkProperty: (n, f) => patched(n, { link: mapLink(n.link, f) }),
  Shape: (n, f) => patched(n, { subject: f(n.subject), elements: mapShapeElements(n.elements, f) }),
  FreeObject: (n, f) => patched(n, { elements: mapShapeElements(n.elements, f) }),
  Call: (n, f) => patched(n, { args: mapList(n.args, f) }),
  Cast: (n, f) => patched(n, { expr: f(n.expr) }),
  ObjectJson: (n, f) => patched(n, { expr: f(n.expr) }),
  ObjectCast: (n, f) => patched(n, { expr: f(n.expr) }),
  Distinct: (n, f) => patched(n, { expr: f(n.expr) }),
  Exists: (n, f) => patched(n, { expr: f(n.expr) }),
  TypeCheck: (n, f) => patched(n, { expr: f(n.expr) }),
  Assert: (n, f) => patched(n, { expr: f(n.expr), messageExpr: mapUndefined(n.messageExpr, f) }),
  SetLiteral: (n, f) => patched(n, { elements: mapList(n.elements, f) }),
  ArrayLiteral: (n, f) => patched(n, { elements: mapList(n.elements, f) }),
  TupleLiteral: (n, f) => patched(n, { elements: mapList(n.elements, f) }),
  TupleElement: (n, f) => patched(n, { tuple: f(n.tuple) }),
  SetOp: (n, f) => patched(n, { left: f(n.left), right: f(n.right) }),
  Coalesce: (n, f) => patched(n, { left: f(n.left), right: f(n.right) }),
  IfElse: (n, f) => patched(n, { condition: f(n.condition), then: f(n.then), else: f(n.else) }),
  Select: (n, f) =>
    patched(n, {
      subject: f(n.subject),
      result: f(n.result),
      filter: mapOptional(n.filter, f),
      orderBy: mapSortKeys(n.orderBy, f),
      offset: mapOptional(n.offset, f),
      limit: mapOptional(n.limit, f),
    }),
  For: (n, f) => patched(n, { iterator: f(n.iterator), body: f(n.body) }),
  Group: (n, f) =>
    patched(n, {
      subject: f(n.subject),
      keys: mapList(n.keys, (k) => patched(k, { expr: f(k.expr) })),
      elements: f(n.elements),
    }),
  GroupKey: (n, f) => patched(n, { group: f(n.group) }),
  GroupGrouping: (n, f) => patched(n, { group: f(n.group) }),
  GroupElements: (n, f) => patched(n, { group: f(n.group) }),
  Insert: (n, f) => {
    const base = mapMutationBase(n, f);
    const elements = mapElements(n.elements, f);
    const conflict =
      n.conflict === null
        ? null
        : patched(n.conflict, {
            else: mapOptional(n.conflict.else, f),
            ...(n.conflict.keys === undefined
              ? {}
              : { keys: mapList(n.conflict.keys, (k) => patched(k, { fresh: f(k.fresh) })) }),
          });
    return patched(n, {
      ...base,
      elements,
      conflict,
      ...(n.id === undefined ? {} : { id: f(n.id) }),
    });
  },
  Update: (n, f) => {
    const base = mapMutationBase(n, f);
    return patched(n, {
      ...base,
      subject: f(n.subject),
      filter: mapOptional(n.filter, f),
      elements: mapElements(n.elements, f),
    });
  },
  Delete: (n, f) => {
    const base = mapMutationBase(n, f);
    return patched(n, {
      ...base,
      subject: f(n.subject),
      filter: mapOptional(n.filter, f),
      orderBy: mapSortKeys(n.orderBy, f),
      offset: mapOptional(n.offset, f),
      limit: mapOptional(n.limit, f),
    });
  },
};

/** `expr` with each direct sub-expression replaced by `f` of it (`expr` itself if none changes). */
export function mapChildren<T extends IrExpr>(expr: T, f: (child: IrExpr) => IrExpr): T {
  return (MAP[expr.kind] as unknown as (node: T, f: Mapper) => T)(expr, f);
}

/** The direct sub-expressions of a node (see the module comment), in evaluation order. */
export function children(expr: IrExpr): IrExpr[] {
  const out: IrExpr[] = [];
  mapChildren(expr, (child) => {
    out.push(child);
    return child;
  });
  return out;
}
