/**
 * sql/transform: a typed walk of the SQL AST (./ast), for code that rewrites or inspects trees
 * the compilers built, instead of walking nodes through `Object.values`.
 *
 * One table per node family (expressions, FROM items, statements) names, for every `kind`, the
 * node's children by type and rebuilds the node from new ones (`mapChildren`). On it:
 * - `transformSql(node, t)`: top-down rewrite. `t.expr` sees each expression first and returns
 *   its replacement, or `undefined` to keep it and descend into its children;
 * - `someExpr(node, test)`: whether any expression in the tree (inside subqueries too) passes.
 * A node whose children are unchanged is returned as it is (same object), so a rewrite that
 * touches nothing copies nothing. Leaves (literals, parameters, column references) have no
 * children; types, names and aliases are never visited.
 */
import type {
  Cte,
  FromItem,
  OnConflict,
  OrderItem,
  SetClause,
  SqlExpr,
  SqlQuery,
  SqlStatement,
  Target,
  WindowSpec,
  WithClause,
} from './ast';
import { mapList, patched } from '../copy-on-write';

/** Any node of the tree that holds expressions. */
export type SqlNode = SqlExpr | FromItem | SqlStatement;

/** How `mapChildren` maps a node's direct children, one function per child type. */
export interface ChildMapper {
  expr(e: SqlExpr): SqlExpr;
  from(f: FromItem): FromItem;
  statement(s: SqlStatement): SqlStatement;
}

type ExprOf<K extends SqlExpr['kind']> = Extract<SqlExpr, { kind: K }>;
type FromOf<K extends FromItem['kind']> = Extract<FromItem, { kind: K }>;
type StatementOf<K extends SqlStatement['kind']> = Extract<SqlStatement, { kind: K }>;

function mapNullable<T>(value: T | null, f: (v: T) => T): T | null {
  return value === null ? null : f(value);
}

function mapOptional<T>(value: T | undefined, f: (v: T) => T): T | undefined {
  return value === undefined ? undefined : f(value);
}

function mapOrder(items: readonly OrderItem[], m: ChildMapper): readonly OrderItem[] {
  return mapList(items, (o) => patched(o, { expr: m.expr(o.expr) }));
}

function mapWindow(w: WindowSpec, m: ChildMapper): WindowSpec {
  return patched(w, {
    partitionBy: mapList(w.partitionBy, m.expr),
    orderBy: mapOrder(w.orderBy, m),
  });
}

function mapTargets(targets: readonly Target[], m: ChildMapper): readonly Target[] {
  return mapList(targets, (t) => patched(t, { expr: m.expr(t.expr) }));
}

function mapSet(set: readonly SetClause[], m: ChildMapper): readonly SetClause[] {
  return mapList(set, (c) => patched(c, { value: m.expr(c.value) }));
}

function mapWith(w: WithClause | null, m: ChildMapper): WithClause | null {
  return mapNullable(w, (clause) =>
    patched(clause, {
      ctes: mapList(clause.ctes, (c: Cte) => patched(c, { query: m.statement(c.query) })),
    }),
  );
}

function mapQuery(q: SqlQuery, m: ChildMapper): SqlQuery {
  return m.statement(q) as SqlQuery;
}

function mapOnConflict(c: OnConflict | null, m: ChildMapper): OnConflict | null {
  return mapNullable(c, (conflict) => {
    const target =
      conflict.target?.kind === 'columns'
        ? patched(conflict.target, { where: mapNullable(conflict.target.where, m.expr) })
        : conflict.target;
    const action =
      conflict.action.kind === 'update'
        ? patched(conflict.action, {
            set: mapSet(conflict.action.set, m),
            where: mapNullable(conflict.action.where, m.expr),
          })
        : conflict.action;
    return patched(conflict, { target, action });
  });
}

/** Every expression kind: its children, rebuilt by `m`. */
const EXPRESSIONS: { [K in SqlExpr['kind']]: (n: ExprOf<K>, m: ChildMapper) => ExprOf<K> } = {
  ColumnRef: (n) => n,
  DomainValue: (n) => n,
  Literal: (n) => n,
  Param: (n) => n,
  Star: (n) => n,
  DefaultValue: (n) => n,
  FuncCall: (n, m) =>
    patched(n, {
      args: mapList(n.args, m.expr),
      orderBy: mapOptional(n.orderBy, (o) => mapOrder(o, m)),
      filter: mapOptional(n.filter, m.expr),
      over: mapOptional(n.over, (w) => mapWindow(w, m)),
    }),
  BinOp: (n, m) => patched(n, { left: m.expr(n.left), right: m.expr(n.right) }),
  UnaryOp: (n, m) => patched(n, { operand: m.expr(n.operand) }),
  Cast: (n, m) => patched(n, { expr: m.expr(n.expr) }),
  Case: (n, m) =>
    patched(n, {
      whens: mapList(n.whens, (w) => patched(w, { when: m.expr(w.when), then: m.expr(w.then) })),
      else: mapNullable(n.else, m.expr),
    }),
  ArrayExpr: (n, m) => patched(n, { elements: mapList(n.elements, m.expr) }),
  RowExpr: (n, m) => patched(n, { elements: mapList(n.elements, m.expr) }),
  Subscript: (n, m) => patched(n, { expr: m.expr(n.expr), index: m.expr(n.index) }),
  Slice: (n, m) =>
    patched(n, {
      expr: m.expr(n.expr),
      lower: mapNullable(n.lower, m.expr),
      upper: mapNullable(n.upper, m.expr),
    }),
  Collate: (n, m) => patched(n, { expr: m.expr(n.expr) }),
  InList: (n, m) => patched(n, { expr: m.expr(n.expr), list: mapList(n.list, m.expr) }),
  AnyOp: (n, m) => patched(n, { left: m.expr(n.left), array: m.expr(n.array) }),
  Paren: (n, m) => patched(n, { expr: m.expr(n.expr) }),
  FieldSelect: (n, m) => patched(n, { expr: m.expr(n.expr) }),
  BoolOp: (n, m) => patched(n, { args: mapList(n.args, m.expr) }),
  SubLink: (n, m) => patched(n, { query: mapQuery(n.query, m) }),
  AnySubLink: (n, m) => patched(n, { left: m.expr(n.left), query: mapQuery(n.query, m) }),
};

/** Every FROM item kind: its children, rebuilt by `m`. */
const FROM_ITEMS: { [K in FromItem['kind']]: (n: FromOf<K>, m: ChildMapper) => FromOf<K> } = {
  TableFrom: (n) => n,
  SubqueryFrom: (n, m) => patched(n, { query: mapQuery(n.query, m) }),
  FunctionFrom: (n, m) => patched(n, { call: m.expr(n.call) }),
  JoinFrom: (n, m) =>
    patched(n, { left: m.from(n.left), right: m.from(n.right), on: mapNullable(n.on, m.expr) }),
};

/** Every statement kind: its children, rebuilt by `m`. */
const STATEMENTS: {
  [K in SqlStatement['kind']]: (n: StatementOf<K>, m: ChildMapper) => StatementOf<K>;
} = {
  Select: (n, m) =>
    patched(n, {
      with: mapWith(n.with, m),
      distinct: typeof n.distinct === 'boolean' ? n.distinct : mapList(n.distinct, m.expr),
      targets: mapTargets(n.targets, m),
      from: mapList(n.from, m.from),
      where: mapNullable(n.where, m.expr),
      groupBy: mapList(n.groupBy, m.expr),
      having: mapNullable(n.having, m.expr),
      orderBy: mapOrder(n.orderBy, m),
      limit: mapNullable(n.limit, m.expr),
      offset: mapNullable(n.offset, m.expr),
    }),
  SetOperation: (n, m) =>
    patched(n, {
      with: mapWith(n.with, m),
      left: mapQuery(n.left, m),
      right: mapQuery(n.right, m),
      orderBy: mapOrder(n.orderBy, m),
      limit: mapNullable(n.limit, m.expr),
      offset: mapNullable(n.offset, m.expr),
    }),
  Values: (n, m) =>
    patched(n, { with: mapWith(n.with, m), rows: mapList(n.rows, (r) => mapList(r, m.expr)) }),
  Insert: (n, m) =>
    patched(n, {
      with: mapWith(n.with, m),
      source: mapNullable(n.source, (q) => mapQuery(q, m)),
      onConflict: mapOnConflict(n.onConflict, m),
      returning: mapTargets(n.returning, m),
    }),
  Update: (n, m) =>
    patched(n, {
      with: mapWith(n.with, m),
      set: mapSet(n.set, m),
      from: mapList(n.from, m.from),
      where: mapNullable(n.where, m.expr),
      returning: mapTargets(n.returning, m),
    }),
  Delete: (n, m) =>
    patched(n, {
      with: mapWith(n.with, m),
      using: mapList(n.using, m.from),
      where: mapNullable(n.where, m.expr),
      returning: mapTargets(n.returning, m),
    }),
};

const STATEMENT_KINDS = new Set<string>(Object.keys(STATEMENTS));
const FROM_KINDS = new Set<string>(Object.keys(FROM_ITEMS));

function isStatement(node: SqlNode): node is SqlStatement {
  return STATEMENT_KINDS.has(node.kind);
}

function isFromItem(node: SqlNode): node is FromItem {
  return FROM_KINDS.has(node.kind);
}

/** `node` with each direct child mapped by `m` (the same node when none changed). */
export function mapChildren<N extends SqlNode>(node: N, m: ChildMapper): N;
export function mapChildren(node: SqlNode, m: ChildMapper): SqlNode {
  if (isStatement(node))
    return (STATEMENTS[node.kind] as (n: SqlStatement, m: ChildMapper) => SqlStatement)(node, m);
  if (isFromItem(node))
    return (FROM_ITEMS[node.kind] as (n: FromItem, m: ChildMapper) => FromItem)(node, m);
  return (EXPRESSIONS[node.kind] as (n: SqlExpr, m: ChildMapper) => SqlExpr)(node, m);
}

/** A top-down rewrite: `expr` returns an expression's replacement, or undefined to descend. */
export interface SqlTransform {
  expr?(e: SqlExpr): SqlExpr | undefined;
}

/** `node` rewritten by `t` everywhere in it, subqueries included. */
export function transformSql<N extends SqlNode>(node: N, t: SqlTransform): N {
  const m: ChildMapper = {
    expr: (e) => t.expr?.(e) ?? mapChildren(e, m),
    from: (f) => mapChildren(f, m),
    statement: (s) => mapChildren(s, m),
  };
  if (isStatement(node) || isFromItem(node)) return mapChildren(node, m);
  return m.expr(node as SqlExpr) as N;
}

/** Whether some expression in `node` (itself included, subqueries too) passes `test`. */
export function someExpr(node: SqlNode, test: (e: SqlExpr) => boolean): boolean {
  let found = false;
  const m: ChildMapper = {
    expr: (e) => {
      if (!found && test(e)) found = true;
      if (!found) mapChildren(e, m);
      return e;
    },
    from: (f) => (found ? f : mapChildren(f, m)),
    statement: (s) => (found ? s : mapChildren(s, m)),
  };
  if (isStatement(node) || isFromItem(node)) mapChildren(node, m);
  else m.expr(node as SqlExpr);
  return found;
}
