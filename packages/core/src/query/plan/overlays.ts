/**
 * plan/overlays: reads later in the statement see what it wrote (Gel's overlays).
 * PostgreSQL's snapshot hides rows written by the statement's own CTEs, so a table read through
 * a link (`writtenTable`) adds the rows inserted (and, for a link's targets, replaces the rows
 * updated) earlier in the statement, and a junction table (`writtenJunction`) is read as the
 * statement's earlier writes left it. plan/sources reads every table through these.
 */
import type { Schema } from '../../model/schema';
import { storageLayout, tableName } from '../../storage/layout';
import { sql, type FromItem, type SqlExpr, type SqlQuery } from '../../sql';
import { pgTypeFor } from '../../std/scalars';
import type { MutationElement } from '../ir';
import type { PointerInfo } from '../schema-index';
import type { PlanContext } from './context';

/** One write of a junction table earlier in the statement. */
interface JunctionWrite {
  readonly pairs: string;
  readonly concrete: string;
  readonly props: readonly string[];
  /** `add` (insert, `+=`), `replace` (`:=`: every row of the `owners` goes first), `remove` (`-=`). */
  readonly mode: 'add' | 'replace' | 'remove';
  /** For `replace`: the written objects (a CTE with `id` and `__type__`). */
  readonly owners: string | null;
}

/** Per compilation: concrete type → its insert CTEs, its update CTEs; junction table → its
 * writes. */
interface Overlay {
  readonly rows: Map<string, string[]>;
  readonly updated: Map<string, string[]>;
  readonly links: Map<string, JunctionWrite[]>;
}

export function registerJunctionWrite(
  ctx: PlanContext,
  concrete: string,
  e: MutationElement,
  write: Omit<JunctionWrite, 'concrete' | 'props'>,
): void {
  const storage = ctx.index.storage(concrete, e.pointer);
  if (storage.kind !== 'junction') return;
  const overlay = overlayOf(ctx);
  const key = `${storage.table.schema}.${storage.table.name}`;
  const entry: JunctionWrite = { ...write, concrete, props: e.linkProperties.map((p) => p.name) };
  overlay.links.set(key, [...(overlay.links.get(key) ?? []), entry]);
}

const overlays = new WeakMap<object, Overlay>();

export function overlayOf(ctx: object): Overlay {
  let overlay = overlays.get(ctx);
  if (!overlay) {
    overlay = { rows: new Map(), updated: new Map(), links: new Map() };
    overlays.set(ctx, overlay);
  }
  return overlay;
}

/** True when this compilation has inserted rows that reads must include (no caching then). */
export function hasWrittenRows(ctx: object): boolean {
  const overlay = overlays.get(ctx);
  return (
    overlay !== undefined &&
    (overlay.rows.size > 0 || overlay.updated.size > 0 || overlay.links.size > 0)
  );
}

/**
 * The rows of `concrete`'s table as a FROM item: the table, plus (UNION ALL) the rows this
 * statement inserted into it in CTEs planned before (PostgreSQL's snapshot would hide them), so
 * `select (insert A { b := (insert B {...}) }) { b: { name } }` finds the new B; with `updated`
 * (a link's targets), rows updated earlier in the statement are read as updated (the last
 * update's RETURNING row replaces the table's), as Gel's overlays have them:
 * `select (insert A { b := (update B ...) }) { b: { x } }` reads the new x.
 */
export function writtenTable(
  ctx: object,
  concrete: string,
  alias: string | null,
  updated = false,
): FromItem {
  const t = tableName(concrete);
  const overlay = overlays.get(ctx);
  const ctes = overlay?.rows.get(concrete) ?? [];
  const updates = updated ? (overlay?.updated.get(concrete) ?? []) : [];
  if (ctes.length === 0 && updates.length === 0) return sql.table(t.schema, t.name, alias);
  const all = (from: FromItem): SqlQuery =>
    sql.select({ targets: [sql.target(sql.star())], from: [from] });
  // A row of `from` (aliased `r`) not updated by any of `later`.
  const notIn = (later: readonly string[]): SqlExpr[] =>
    later.map((u) =>
      sql.not(
        sql.exists(
          sql.select({
            targets: [sql.target(sql.num(1))],
            from: [sql.table(null, u, 'u')],
            where: sql.bin('=', sql.col('id', 'u'), sql.col('id', 'r')),
          }),
        ),
      ),
    );
  const kept = (from: FromItem, later: readonly string[]): SqlQuery =>
    later.length === 0
      ? all(from)
      : sql.select({
          targets: [sql.target(sql.star('r'))],
          from: [from],
          where: sql.and(...notIn(later)),
        });
  const union = [
    kept(sql.table(t.schema, t.name, updates.length > 0 ? 'r' : null), updates),
    ...updates.map((u, i) => kept(sql.table(null, u, 'r'), updates.slice(i + 1))),
    ...ctes.map((c) => all(sql.table(null, c, null))),
  ];
  return sql.subquery(
    union.reduce((a, b) => sql.setOp('union', true, a, b)),
    alias ?? t.name,
  );
}

/**
 * A multi pointer's junction table as a FROM item (source, target|value, the link properties) as
 * it is after this statement's earlier writes of it: rows of objects whose pointer was replaced,
 * and removed or re-added pairs, left out; new pairs added. (Reads through links of written
 * objects see what was written, as Gel's overlays do.)
 */
export function writtenJunction(
  ctx: { readonly index: { readonly schema: Schema } },
  table: { readonly schema: string; readonly name: string },
  pointer: PointerInfo,
  alias: string | null,
): FromItem {
  const writes = overlays.get(ctx)?.links.get(`${table.schema}.${table.name}`) ?? [];
  if (writes.length === 0) return sql.table(table.schema, table.name, alias);
  const valueColumn = pointer.kind === 'link' ? 'target' : 'value';
  const props = [...pointer.properties.values()].filter((p) => !p.computed);
  const j = 'j';
  const samePair = (w: JunctionWrite): SqlExpr =>
    sql.exists(
      sql.select({
        targets: [sql.target(sql.num(1))],
        from: [sql.table(null, w.pairs, 'p')],
        where: sql.and(
          sql.bin('=', sql.col('~type', 'p'), sql.text(w.concrete)),
          sql.bin('=', sql.col('source', 'p'), sql.col('source', j)),
          sql.bin('=', sql.col(valueColumn, 'p'), sql.col(valueColumn, j)),
        ),
      }),
    );
  const gone: SqlExpr[] = writes.flatMap((w) => {
    if (w.mode === 'replace' && w.owners !== null) {
      return [
        sql.exists(
          sql.select({
            targets: [sql.target(sql.num(1))],
            from: [sql.table(null, w.owners, 'o')],
            where: sql.and(
              sql.bin('=', sql.col('id', 'o'), sql.col('source', j)),
              sql.bin('=', sql.col('__type__', 'o'), sql.text(w.concrete)),
            ),
          }),
        ),
      ];
    }
    // A removed pair goes; a re-added link pair comes back from the pairs with its new properties.
    if (w.mode === 'remove' || pointer.kind === 'link') return [samePair(w)];
    return [];
  });
  const own = sql.select({
    targets: ['source', valueColumn, ...props.map((p) => p.name)].map((c) =>
      sql.target(sql.col(c, j), c),
    ),
    from: [sql.table(table.schema, table.name, j)],
    where: gone.length > 0 ? sql.not(sql.or(...gone)) : null,
  });
  // A link property the write left out has the column's default (PostgreSQL applies it to the
  // junction row; the pairs CTE does not have it).
  const columns = storageLayout(ctx.index.schema)
    .tables.flatMap((t) => t.junctions)
    .find((jt) => jt.table.schema === table.schema && jt.table.name === table.name)?.columns;
  const unwritten = (p: PointerInfo): SqlExpr =>
    sql.cast(columns?.find((c) => c.name === p.name)?.default ?? sql.null(), pgTypeFor(p.target));
  const added = writes
    .filter((w) => w.mode !== 'remove')
    .map((w) =>
      sql.select({
        targets: [
          sql.target(sql.col('source'), 'source'),
          sql.target(sql.col(valueColumn), valueColumn),
          ...props.map((p) =>
            sql.target(w.props.includes(p.name) ? sql.col(p.name) : unwritten(p), p.name),
          ),
        ],
        from: [sql.table(null, w.pairs, null)],
        where: sql.bin('=', sql.col('~type'), sql.text(w.concrete)),
      }),
    );
  const union = added.reduce<SqlQuery>((a, b) => sql.setOp('union', true, a, b), own);
  return sql.subquery(union, alias ?? table.name);
}
