/**
 * plan/mutation: insert, update and delete → data-modifying CTEs of the one top-level statement
 * (PostgreSQL runs every data-modifying CTE once, on one snapshot; they must be top-level).
 *
 * Input: a Mutation IR node (query/mutation-ir) met while lifting `rel`. Output: the written
 * objects bound in `rel` (a `Bound` whose `alias` reads the written row's stored columns where
 * one table holds them), and CTEs added through `ctx.addCte`.
 *
 * Shape of the SQL, for each mutation (`N` a fresh number):
 * - `src_N` (materialized): one row per object to write — for an insert a new id
 *   (`svc_meta.uuid_generate_v7()`, computed once) and the single values; for update/delete the
 *   selected objects' ids and `__type__` (and the update's new single values). Values are planned
 *   in a fresh Rel, so the CTE is not correlated with the outer query; a `for` variable the
 *   mutation reads is planned into it (one row per iteration) and kept as columns `~it<i>`,
 *   through which the outer query joins back to its own iteration (Gel's approach, dml.py);
 * - one INSERT / UPDATE / DELETE per concrete table, `returning *`;
 * - multi pointers: `pairs_N_p` (the new junction rows: source, target|value, link properties),
 *   then INSERT / DELETE on the junction table (`:=` deletes what is not in the new set, `+=`
 *   inserts, `-=` deletes);
 * - `unless conflict`: the new row is written only when no object of the constraint's declaring
 *   type (every concrete table, so across the hierarchy) had the value before the statement;
 *   objects the statement itself writes with the same value violate the constraint (as in Gel);
 *   `else` is planned with the conflicting object bound.
 * Reads inside the statement see the snapshot before it (PostgreSQL's rule for CTEs), as Gel's
 * do, with Gel's overlays: the written objects' own columns come from the RETURNING rows; reads
 * through links (joins by id, junction rows) also see rows inserted and links written earlier in
 * the statement (`writtenTable`, `writtenJunction`, used by plan/sources); a type scanned as a set
 * does not. `mutationOutput` gives a bare mutation's whole stored row (item 16).
 * A mutation runs once per statement: one that reads the current element of an enclosing query
 * is refused here; one in a conditional branch (if/else, `??`) writes only the rows whose branch
 * conditions hold (`applyGuards`: its `src` rows are filtered by them).
 * Access policies (item 38, plan/access): what an update or delete reaches is what the caller may
 * select and `update read` / `delete`; every inserted and updated row is checked against the
 * `insert` / `update write` policies after the statement's writes (a failure raises, nothing is
 * written). An upsert whose `else` updates a type with update policies is refused here.
 */
import { InvalidReferenceError, QueryError } from '../../errors';
import type { Schema } from '../../model/schema';
import { storageLayout, tableName } from '../../storage/layout';
import {
  pgType,
  sql,
  type FromItem,
  type PgType,
  type SelectStatement,
  type SqlExpr,
  type SqlQuery,
  type SqlStatement,
  type Target,
} from '../../sql';
import { raise } from '../../std/operators';
import { decodeParam, jsonOf, pgTypeFor } from '../../std/scalars';
import { typeEnv } from '../ir';
import { rootKeyOf } from '../ir';
import { children as childrenOf } from '../ir';
import { typeLevelConflictGroups } from '../ir';
import type { BindingRef, IrExpr } from '../ir';
import type {
  ConflictKey,
  Delete,
  Insert,
  Mutation,
  MutationElement,
  Update,
  ValuePart,
} from '../ir';
import { containsMutation, isMutation } from '../ir';
import type { ObjectTypeInfo, PointerInfo, PointerStorage } from '../schema-index';
import type { PlanContext } from './planner';
import { Rel, type Bound } from './rel';
import { storedColumns, typeSource } from './sources';
import {
  addWriteCheck,
  afterCheck,
  reserveWriteCheck,
  rowsFiltered,
  subjectCondition,
} from './access';

type ObjectBound = Extract<Bound, { kind: 'object' }>;

/** What the output of a mutation needs to know about its CTEs. */
interface Written {
  /** Concrete type → the CTE holding its written rows (`returning *`). */
  readonly rows: ReadonlyMap<string, string>;
  /** Multi pointer name → how to read its rows after the statement. */
  readonly multi: ReadonlyMap<string, MultiState>;
}

/** A multi pointer's junction rows after the statement, for the written objects. */
type MultiState =
  | { readonly kind: 'replaced'; readonly pairs: string }
  | { readonly kind: 'added'; readonly pairs: string }
  | { readonly kind: 'removed'; readonly pairs: string };

/** Mutations already planned in a compilation: planned (written) once, however often read. */
const planned = new WeakMap<PlanContext, Map<string, { src: string; plan: Written }>>();

/**
 * Plans a `with` binding that writes (IrQuery.sideEffects) on its own, so its CTEs exist even
 * when the statement never reads it; reads of it later reuse them. One inside a `for` body (it
 * reads the `for` variable) is planned where it is read.
 */
export function planSideEffect(ctx: PlanContext, expr: IrExpr): void {
  const seen = new Set<IrExpr>();
  const inside = new Set<number>();
  let iterates = false;
  const visit = (e: IrExpr): void => {
    if (seen.has(e) || iterates) return;
    seen.add(e);
    if (e.kind === 'For') inside.add(e.binding.id);
    if (e.kind === 'Update' && e.each) inside.add(e.each.binding.id);
    if (e.kind === 'BindingRef') {
      if (e.binding.iteration && !inside.has(e.binding.id)) iterates = true;
      else visit(e.binding.expr);
      return;
    }
    for (const child of childrenOf(e)) visit(child);
  };
  visit(expr);
  if (!iterates) ctx.lift(new Rel(null), expr);
}

/** The written objects of `m`, bound in `rel` (the planner's dispatch calls this). */
export function planMutation(ctx: PlanContext, rel: Rel, m: Mutation): Bound {
  assertUncorrelated(ctx, rel, m);
  const iterations = iterationRefs(m);
  let done = planned.get(ctx);
  if (!done) {
    done = new Map();
    planned.set(ctx, done);
  }
  // By path id: the binder copies nodes (a subject with cardinality one) but keeps their ids.
  let entry = done.get(m.pathId);
  if (!entry) {
    const src = ctx.fresh(`${m.kind.toLowerCase()}_src`);
    const plan =
      m.kind === 'Insert'
        ? planInsert(ctx, m, src, iterations)
        : m.kind === 'Update'
          ? planUpdate(ctx, m, src, iterations)
          : planDelete(ctx, m, src, iterations);
    entry = { src, plan };
    done.set(m.pathId, entry);
  }
  return joinWritten(ctx, rel, m, entry.src, entry.plan, iterations);
}

// ---------------------------------------------------------------------------------------------
// insert

function planInsert(
  ctx: PlanContext,
  m: Insert,
  src: string,
  iterations: readonly BindingRef[],
): Written {
  const type = m.objectType;
  refuseGuardedUpsert(ctx, m);
  const r0 = new Rel(null);
  const keys = bindIterations(ctx, r0, iterations);
  bindExternals(ctx, r0, m);
  applyGuards(ctx, r0, m);
  const targets: Target[] = [
    sql.target(sql.func('uuid_generate_v7', [], 'svc_meta'), 'id'),
    ...keys.map((k, i) => sql.target(k, `~it${i}`)),
  ];
  const single = m.elements.filter((e) => !e.pointer.many);
  // Mutations nested in the values run only for an object that is inserted (no conflict).
  const guard = m.conflict ? conflictGuard(ctx, m, single) : null;
  if (guard) nestedGuardsOf(ctx).push(guard);
  const columns = singleValues(ctx, r0, single, targets, guard !== null);
  (m.conflict?.keys ?? []).forEach((key, j) => {
    targets.push(sql.target(ctx.value(r0, key.fresh), `k${j}`));
  });
  // Under policies that restrict inserts, the rows are checked before they are written (plan/
  // access): a stored column the insert does not give takes its default here, in `src`, so the
  // check reads the very values the insert writes.
  const check = reserveWriteCheck(ctx, type);
  const defaults = check ? columnDefaults(ctx, type, columns) : [];
  defaults.forEach((d, j) => {
    targets.push(sql.target(d.value, `d${j}`));
  });
  ctx.addCte(sql.cte(src, selectFrom(r0, targets), { materialized: true }));
  const written = [...columns, ...defaults.map((d, j) => ({ column: d.column, source: `d${j}` }))];

  const multiElements = m.elements.filter((x) => x.pointer.many);
  const multi = new Map<string, MultiState>();
  // Checked inserts: the new junction rows come from `src` (they are part of what is checked),
  // and are written for the rows actually inserted (`ins`); otherwise from `ins` itself.
  const prospective = check
    ? multiElements.map((e) => {
        const pairs = planPairs(ctx, e, src, src, iterations, null, sql.text(type));
        registerJunctionWrite(ctx, type, e, { pairs, mode: 'add', owners: null });
        return pairs;
      })
    : [];
  if (check) {
    addWriteCheck(
      ctx,
      type,
      'insert',
      (alias) => sql.subquery(wouldBeRows(ctx, type, src, written), alias),
      check,
    );
  }

  const s = 's';
  const conditions = m.conflict ? conflictChecks(ctx, m, single, s) : [];
  if (check) conditions.push(afterCheck(check));
  const table = tableName(type);
  const ins = ctx.fresh('insert');
  const statement = sql.insert({
    table,
    columns: ['id', ...written.map((c) => c.column)],
    source: sql.select({
      targets: [
        sql.target(sql.col('id', s)),
        ...written.map((c) => sql.target(sql.col(c.source, s))),
      ],
      from: [sql.table(null, src, s)],
      where: conditions.length > 0 ? sql.and(...conditions) : null,
    }),
    // No `on conflict do nothing`: the check is against the objects there before the statement
    // (Gel's rule); two objects the statement itself writes with one value, or a conflicting
    // object the check cannot see (an access policy hides it), violate the constraint.
    onConflict: null,
    returning: [sql.target(sql.star())],
  });
  ctx.addCte(sql.cte(ins, statement));
  const overlay = overlayOf(ctx);
  overlay.rows.set(type, [...(overlay.rows.get(type) ?? []), ins]);

  multiElements.forEach((e, i) => {
    const checked = prospective[i];
    // New junction rows, for the rows actually inserted.
    const pairs = checked ?? planPairs(ctx, e, ins, src, iterations, null, sql.text(type));
    const gate = checked ? { written: ins, check } : null;
    writeJunction(ctx, type, e, pairs, 'add', requiredCheck(e, type, ins, false), gate);
    multi.set(e.pointer.name, { kind: 'replaced', pairs });
    if (!checked) registerJunctionWrite(ctx, type, e, { pairs, mode: 'add', owners: null });
  });
  if (guard) nestedGuardsOf(ctx).pop();
  return { rows: new Map([[type, ins]]), multi };
}

/**
 * The stored single columns of `concrete` an insert does not give (`given`) and whose column
 * has a default: the default's SQL, computed once per new row in `src` and written explicitly.
 */
function columnDefaults(
  ctx: PlanContext,
  concrete: string,
  given: readonly { column: string }[],
): { column: string; value: SqlExpr }[] {
  const table = storageLayout(ctx.index.schema).tables.find((t) => t.type === concrete);
  const named = new Set(given.map((c) => c.column));
  return (table?.columns ?? []).flatMap((c) =>
    c.column.name === 'id' || named.has(c.column.name) || c.column.default === null
      ? []
      : [{ column: c.column.name, value: c.column.default }],
  );
}

/**
 * The rows a write is about to leave in `concrete`'s table, with every stored single column:
 * for an insert, `src`'s values (`given`: column ← src column), NULL for the others; for an
 * update (`from`: the table's current rows), the given columns replaced.
 */
function wouldBeRows(
  ctx: PlanContext,
  concrete: string,
  src: string,
  given: readonly { column: string; source: string }[],
  update: { readonly reset: ReadonlySet<string> } | null = null,
): SqlQuery {
  const s = 's';
  const t = 't';
  const sources = new Map(given.map((c) => [c.column, c.source]));
  const columns = [...storedColumns(ctx.index, concrete)];
  const value = (name: string, pg: PgType): SqlExpr => {
    const source = sources.get(name);
    if (source !== undefined) return sql.col(source, s);
    if (update === null || update.reset.has(name)) return sql.cast(sql.null(), pg);
    return sql.col(name, t);
  };
  const table = tableName(concrete);
  return sql.select({
    targets: [
      sql.target(sql.col('id', s), 'id'),
      ...columns.map(([name, pg]) => sql.target(value(name, pg), name)),
    ],
    from:
      update === null
        ? [sql.table(null, src, s)]
        : [
            sql.join(
              'inner',
              sql.table(null, src, s),
              sql.table(table.schema, table.name, t),
              sql.and(
                sql.bin('=', sql.col('id', t), sql.col('id', s)),
                sql.bin('=', sql.col('__type__', s), sql.text(concrete)),
              ),
            ),
          ],
  });
}

/** Per compilation: the conditions of the `unless conflict` inserts whose values are being
 * planned, innermost last (see `conflictGuard`). */
const nestedGuards = new WeakMap<PlanContext, ((rel: Rel) => SqlExpr[])[]>();

function nestedGuardsOf(ctx: PlanContext): ((rel: Rel) => SqlExpr[])[] {
  let list = nestedGuards.get(ctx);
  if (!list) {
    list = [];
    nestedGuards.set(ctx, list);
  }
  return list;
}

/**
 * For an insert with `unless conflict`: the condition that its object is inserted (nothing
 * conflicts with the values of its exclusive pointers), evaluated in the Rel of a mutation nested
 * in its values (which binds the same `for` variables), so that mutation writes only then, as in
 * Gel (`insert T { n := x, notes := (insert Note {...}) } unless conflict` inserts no note for an
 * existing `x`). Null when no exclusive pointer has a value to conflict on.
 */
function conflictGuard(
  ctx: PlanContext,
  m: Insert,
  single: readonly MutationElement[],
): ((rel: Rel) => SqlExpr[]) | null {
  const conflict = m.conflict as NonNullable<Insert['conflict']>;
  const pointers =
    conflict.on ??
    single
      .map((e) => e.pointer)
      .filter(
        (p) =>
          p.model?.constraints.length ||
          typeLevelConflictGroups(ctx.index.objectType(m.objectType) as ObjectTypeInfo).some((g) =>
            g.pointers.some((q) => q.name === p.name),
          ),
      );
  if (!pointers.some((p) => single.some((e) => e.pointer.name === p.name))) return null;
  // A value that is itself a write (`l := (insert X {...} unless conflict ...)`) runs before the
  // check can be made, as in Gel: the check cannot guard it (nor read it: it would plan itself).
  const written = (p: PointerInfo) =>
    single.some((e) => e.pointer.name === p.name && containsMutation(e.value));
  if (pointers.some(written)) return null;
  const keys = conflict.keys ?? [];
  return (rel) =>
    conflictChecks(ctx, m, single, {
      single: (at) => ctx.value(rel, (single[at] as MutationElement).value),
      key: (j) => ctx.value(rel, (keys[j] as ConflictKey).fresh),
    });
}

/** Where an insert's values are read: the `src` row's alias (`c<i>` columns for the single
 * elements, `k<j>` for the conflict keys), or expressions for them. */
type ConflictValues =
  | string
  | { readonly single: (at: number) => SqlExpr; readonly key: (j: number) => SqlExpr };

function valuesOf(s: ConflictValues): Exclude<ConflictValues, string> {
  return typeof s === 'string'
    ? { single: (at) => sql.col(`c${at}`, s), key: (j) => sql.col(`k${j}`, s) }
    : s;
}

/** `not exists` conditions on the `src` row `s`: no object of the constraint's declaring type
 * (any concrete table, as it was before the statement) already has the value(s) — of the `on`
 * pointers together, or of each exclusive pointer of the type alone; for a constraint on an
 * expression (`keys`), the expression's value. */
function conflictChecks(
  ctx: PlanContext,
  m: Insert,
  single: readonly MutationElement[],
  s: ConflictValues,
): SqlExpr[] {
  const conflict = m.conflict as NonNullable<Insert['conflict']>;
  const type = ctx.index.objectType(m.objectType) as ObjectTypeInfo;
  const byKeys = conflict.on !== null && conflict.keys !== undefined;
  const groups: { pointers: readonly PointerInfo[]; owner: string }[] = byKeys
    ? []
    : conflict.on !== null
      ? conflictOwners(conflict, m.objectType).map((owner) => ({
          pointers: conflict.on as readonly PointerInfo[],
          owner,
        }))
      : [...type.pointers.values()]
          .filter((p) => !p.many && p.name !== 'id')
          .flatMap((p) => {
            const c = (p.model?.constraints ?? []).find(
              (k) => k.name === 'std::exclusive' && k.subjectExpr === null && k.except === null,
            );
            const group: { pointers: readonly PointerInfo[]; owner: string } = {
              pointers: [p],
              owner: c?.declaredIn ?? '',
            };
            return c ? [group] : [];
          })
          .concat(typeLevelConflictGroups(type));
  const exists = (owner: string, match: (x: string, tag: SqlExpr) => SqlExpr | null) => {
    const x = ctx.fresh('x');
    const rows = typeSource(ctx, owner, x, { written: false });
    const where = match(x, rows.tag);
    if (where === null) return [];
    return [
      sql.not(
        sql.exists(sql.select({ targets: [sql.target(sql.num(1))], from: [rows.item], where })),
      ),
    ];
  };
  const out: SqlExpr[] = [];
  for (const group of groups) {
    out.push(...exists(group.owner, (x) => conflictMatch(group.pointers, single, x, s)));
  }
  (conflict.keys ?? []).forEach((key, j) => {
    out.push(...exists(key.owner, (x, tag) => keyMatch(ctx, key, j, x, tag, s)));
  });
  return out;
}

/**
 * The types whose objects an `unless conflict on .p` looks among: the declaring type of each
 * plain exclusive constraint on `p` (a type extending two types that each declare one, as
 * `Baz extending Foo, Bar`, conflicts with the objects of either), `conflict.owner` first.
 */
function conflictOwners(conflict: NonNullable<Insert['conflict']>, inserted: string): string[] {
  const owners = [conflict.owner ?? inserted];
  const [pointer, ...more] = conflict.on ?? [];
  if (pointer && more.length === 0) {
    for (const c of pointer.model?.constraints ?? []) {
      if (c.name === 'std::exclusive' && c.subjectExpr === null && c.except === null)
        if (!owners.includes(c.declaredIn)) owners.push(c.declaredIn);
    }
  }
  return owners;
}

/** `<the key's expression over the existing object x> = <its value over the new values>`. */
function keyMatch(
  ctx: PlanContext,
  key: ConflictKey,
  j: number,
  x: string,
  tag: SqlExpr,
  s: ConflictValues,
): SqlExpr {
  const rel = new Rel(null);
  rel.bind(key.pathId, {
    kind: 'object',
    type: key.owner,
    id: sql.col('id', x),
    tag,
    alias: x,
    link: null,
    out: null,
    nullable: false,
  });
  const existing = ctx.value(rel, key.existing);
  if (rel.from !== null || rel.where.length > 0) {
    throw new QueryError(
      `\`unless conflict\` on an exclusive constraint over '${key.owner}' whose expression reads more than the object's own properties is not supported yet`,
    );
  }
  return sql.bin('=', existing, valuesOf(s).key(j));
}

/** `x.p = s.c<i>` for each pointer (null when a pointer has no value in the insert: the database
 * default, unknown here, is left to the unique index). */
function conflictMatch(
  pointers: readonly PointerInfo[],
  single: readonly MutationElement[],
  x: string,
  s: ConflictValues,
): SqlExpr | null {
  const parts: SqlExpr[] = [];
  for (const pointer of pointers) {
    const at = single.findIndex((e) => e.pointer.name === pointer.name);
    if (at < 0) return null;
    parts.push(sql.bin('=', sql.col(pointer.name, x), valuesOf(s).single(at)));
  }
  return sql.and(...parts);
}

/**
 * The single elements' values as `src` columns (`c<i>`; a single link's link properties
 * `c<i>@<j>`), appended to `targets`; the stored columns they go to.
 */
function singleValues(
  ctx: PlanContext,
  r0: Rel,
  single: readonly MutationElement[],
  targets: Target[],
  /** Values that write are read as at most one element (the write may be skipped). */
  optionalWrites = false,
): { column: string; source: string }[] {
  const columns: { column: string; source: string }[] = [];
  single.forEach((e, i) => {
    const name = `c${i}`;
    if (e.parts !== null) {
      // Each part lifted (not just valued), so its link properties read the same target element;
      // at most one element in all (a single link), so the first present part's values win.
      const lifted = e.parts.map((part) => {
        if (part.carried) {
          const carried = liftCarried(ctx, r0, e, part, 'left');
          return { id: carried.id, props: part.props, values: carried.props };
        }
        const bound = ctx.lift(r0, part.value);
        return {
          id: bound.kind === 'object' ? bound.id : bound.expr,
          props: part.props,
          values: null,
        };
      });
      const pick = (of: (l: (typeof lifted)[number]) => SqlExpr): SqlExpr =>
        lifted.length === 1
          ? of(lifted[0] as (typeof lifted)[number])
          : sql.func(
              'coalesce',
              lifted.map((l) => caseWhen(sql.isNull(l.id, true), of(l))),
            );
      targets.push(
        sql.target(
          pick((l) => l.id),
          name,
        ),
      );
      e.linkProperties.forEach((property, j) => {
        targets.push(
          sql.target(
            pick((l) => {
              if (l.values) return l.values[j] as SqlExpr;
              const expr = l.props[j];
              return expr ? ctx.value(r0, expr) : sql.null();
            }),
            `${name}@${j}`,
          ),
        );
        columns.push({ column: `${e.pointer.name}@${property.name}`, source: `${name}@${j}` });
      });
    } else if (optionalWrites && containsMutation(e.value)) {
      // A nested mutation that may write nothing (see `conflictGuard`) leaves the row, NULL.
      const { query, columns: shape } = ctx.rows(r0, e.value);
      const v = ctx.fresh('nv');
      const select = sql.select({
        targets: [sql.target(sql.col(shape.object ? 'id' : 'v', v))],
        from: [sql.subquery(query, v)],
        limit: sql.num(1),
      });
      targets.push(sql.target(sql.scalar(select), name));
    } else if (e.value.card.min === 0 && dropsRowWhenEmpty(e.value)) {
      // A possibly empty statement (`status := (select Status filter ...)`) writes NULL when
      // empty; joined, it would drop the object's row (nothing inserted or updated).
      targets.push(sql.target(atMostOneValue(ctx, r0, e.value), name));
    } else {
      targets.push(sql.target(ctx.value(r0, e.value), name));
    }
    columns.push({ column: e.pointer.name, source: name });
  });
  return columns;
}

// ---------------------------------------------------------------------------------------------
// update

function planUpdate(
  ctx: PlanContext,
  m: Update,
  src: string,
  iterations: readonly BindingRef[],
): Written {
  const r0 = new Rel(null);
  const keys = bindIterations(ctx, r0, iterations);
  bindExternals(ctx, r0, m);
  applyGuards(ctx, r0, m);
  const subject = objectOf(ctx, r0, m.subject);
  if (m.filter) r0.where.push(ctx.value(r0, m.filter));
  // Visible (the subject's rows pass `select`) and reachable by an update (`update read`).
  const reach = subjectCondition(ctx, subject.type, 'update read', subject);
  if (reach) r0.where.push(reach);
  // The writes in the values iterate over the updated objects: this object is their iteration.
  const perObject = m.each ? [...iterations, m.each] : iterations;
  if (m.each) {
    r0.bind(m.each.pathId, subject);
    keys.push(subject.id);
  }
  const single = m.elements.filter((e) => !e.pointer.many);
  const targets: Target[] = [
    sql.target(subject.id, 'id'),
    sql.target(subject.tag, '__type__'),
    ...keys.map((k, i) => sql.target(k, `~it${i}`)),
  ];
  const columns = singleValues(ctx, r0, single, targets);
  ctx.addCte(sql.cte(src, selectFrom(r0, targets, subject), { materialized: true }));

  const concrete = concreteOf(ctx, m.subject);
  // The new junction rows of each multi element, and what reads later in the statement see of
  // them (registered before the checks, which read them too).
  const multiElements = m.elements.filter((x) => x.pointer.many);
  const multi = new Map<string, MultiState>();
  const multiPairs = multiElements.map((e) => {
    const pairs = planPairs(
      ctx,
      e,
      src,
      src,
      perObject,
      { pathId: m.subjectPathId, type: (m.subject.type as { name: string }).name },
      null,
    );
    const mode = e.op === ':=' ? 'replace' : e.op === '+=' ? 'add' : 'remove';
    for (const c of concrete) {
      if (ctx.index.storage(c, e.pointer).kind !== 'junction') continue;
      registerJunctionWrite(ctx, c, e, { pairs, mode, owners: mode === 'replace' ? src : null });
    }
    multi.set(e.pointer.name, {
      kind: e.op === ':=' ? 'replaced' : e.op === '+=' ? 'added' : 'removed',
      pairs,
    });
    return pairs;
  });

  // Each row as the update leaves it, checked before anything is written (`update write`).
  const checks = new Map<string, string>();
  const reset = new Set(resetLinkProperties(single).map((r) => r.column));
  for (const c of concrete) {
    const check = reserveWriteCheck(ctx, c);
    if (check === null) continue;
    checks.set(c, check);
    addWriteCheck(
      ctx,
      c,
      'update write',
      (alias) => sql.subquery(wouldBeRows(ctx, c, src, columns, { reset }), alias),
      check,
    );
  }

  const rows = new Map<string, string>();
  for (const c of concrete) {
    if (single.length === 0) continue;
    const s = 's';
    const t = 't';
    const upd = ctx.fresh('update');
    const table = tableName(c);
    const check = checks.get(c);
    ctx.addCte(
      sql.cte(
        upd,
        sql.update({
          table,
          alias: t,
          set: [
            ...columns.map((c) => ({ column: c.column, value: sql.col(c.source, s) })),
            ...resetLinkProperties(single),
          ],
          from: [sql.table(null, src, s)],
          where: sql.and(
            sql.bin('=', sql.col('id', t), sql.col('id', s)),
            ...(check ? [afterCheck(check)] : []),
          ),
          returning: [sql.target(sql.star(t))],
        }),
      ),
    );
    rows.set(c, upd);
    const overlay = overlayOf(ctx);
    overlay.updated.set(c, [...(overlay.updated.get(c) ?? []), upd]);
  }

  multiElements.forEach((e, i) => {
    const pairs = multiPairs[i] as string;
    for (const c of concrete) {
      if (ctx.index.storage(c, e.pointer).kind !== 'junction') continue;
      const check = checks.get(c);
      const gate = check ? { written: null, check } : null;
      if (e.op === ':=') {
        clearJunction(ctx, c, e.pointer, src, pairs, gate);
        writeJunction(ctx, c, e, pairs, 'add', requiredCheck(e, c, src, true), gate);
      } else if (e.op === '+=') {
        writeJunction(ctx, c, e, pairs, 'add', null, gate);
      } else {
        writeJunction(ctx, c, e, pairs, 'remove', null, gate);
      }
    }
  });
  return { rows, multi };
}

/** Value kinds the planner binds as joined rows (an empty one leaves no row). */
function dropsRowWhenEmpty(expr: IrExpr): boolean {
  switch (expr.kind) {
    case 'Select':
    case 'Shape':
    case 'For':
    case 'SetOp':
    case 'Distinct':
    case 'Backlink':
    case 'Intersection':
      return true;
    case 'BindingRef':
      return !expr.binding.iteration && !expr.binding.transparent;
    default:
      return false;
  }
}

/** The value of a set of at most one element as a scalar subquery: NULL when it is empty. */
function atMostOneValue(ctx: PlanContext, r0: Rel, value: IrExpr): SqlExpr {
  const { query, columns: shape } = ctx.rows(r0, value);
  const v = ctx.fresh('ov');
  return sql.scalar(
    sql.select({
      targets: [sql.target(sql.col(shape.object ? 'id' : 'v', v))],
      from: [sql.subquery(query, v)],
      limit: sql.num(1),
    }),
  );
}

/** A single link set anew loses the link properties not written with it (a new link). */
function resetLinkProperties(
  single: readonly MutationElement[],
): { column: string; value: SqlExpr }[] {
  return single.flatMap((e) =>
    e.pointer.kind !== 'link'
      ? []
      : [...e.pointer.properties.values()]
          .filter((p) => !p.computed && !e.linkProperties.some((l) => l.name === p.name))
          .map((p) => ({ column: `${e.pointer.name}@${p.name}`, value: sql.null() })),
  );
}

// ---------------------------------------------------------------------------------------------
// delete

function planDelete(
  ctx: PlanContext,
  m: Delete,
  src: string,
  iterations: readonly BindingRef[],
): Written {
  const r0 = new Rel(null);
  const keys = bindIterations(ctx, r0, iterations);
  bindExternals(ctx, r0, m);
  applyGuards(ctx, r0, m);
  const subject = objectOf(ctx, r0, m.subject);
  if (m.filter) r0.where.push(ctx.value(r0, m.filter));
  // Visible (the subject's rows pass `select`) and deletable (`delete`).
  const reach = subjectCondition(ctx, subject.type, 'delete', subject);
  if (reach) r0.where.push(reach);
  const order = m.orderBy.map((k) => sql.order(ctx.value(r0, k.expr), k.direction, k.empty));
  const targets: Target[] = [
    sql.target(subject.id, 'id'),
    sql.target(subject.tag, '__type__'),
    ...keys.map((k, i) => sql.target(k, `~it${i}`)),
  ];
  const base = selectFrom(r0, targets, subject);
  const query: SqlQuery =
    m.limit || m.offset || order.length > 0
      ? {
          ...base,
          orderBy: order,
          limit: m.limit ? ctx.value(new Rel(null), m.limit) : null,
          offset: m.offset ? ctx.value(new Rel(null), m.offset) : null,
        }
      : base;
  ctx.addCte(sql.cte(src, query, { materialized: true }));
  const rows = new Map<string, string>();
  for (const c of concreteOf(ctx, m.subject)) {
    const s = 's';
    const t = 't';
    const del = ctx.fresh('delete');
    const table = tableName(c);
    ctx.addCte(
      sql.cte(
        del,
        sql.delete({
          table,
          alias: t,
          using: [sql.table(null, src, s)],
          where: sql.bin('=', sql.col('id', t), sql.col('id', s)),
          returning: [sql.target(sql.star(t))],
        }),
      ),
    );
    rows.set(c, del);
    // `on source delete` (delete target, if orphan) is held by the database's triggers
    // (schema/storage/integrity), which run as each source row goes.
  }
  return { rows, multi: new Map() };
}

// ---------------------------------------------------------------------------------------------
// Multi pointers

/**
 * The new junction rows of a multi element: `pairs_N` (source, target|value, link properties by
 * name), one row per written object (`owners`, joined to `src` for the iteration columns) and
 * value element. The value is planned with the written object bound as `subjectPathId` (an
 * update's `.x`) and each `for` variable bound to its `src` column.
 */
function planPairs(
  ctx: PlanContext,
  e: MutationElement,
  owners: string,
  src: string,
  iterations: readonly BindingRef[],
  subject: { readonly pathId: string; readonly type: string } | null,
  /** The written objects' concrete type, when one (else `src`'s `__type__`). */
  tag: SqlExpr | null,
): string {
  // One SELECT per part of the value (the whole value when it has no link properties), each
  // with the link properties written with its elements; UNION ALL of them.
  const parts = e.parts ?? [{ value: e.value, pathId: '', props: [] }];
  const selects = parts.map((part, k) => {
    const rel = new Rel(null);
    const o = ctx.fresh('o');
    const s = ctx.fresh('s');
    rel.join('inner', sql.table(null, owners, o));
    if (owners !== src)
      rel.join('inner', sql.table(null, src, s), sql.bin('=', sql.col('id', s), sql.col('id', o)));
    const row = owners === src ? o : s;
    iterations.forEach((ref, i) => {
      rel.bind(ref.pathId, iterationBound(ref, sql.col(`~it${i}`, row)));
    });
    if (subject !== null) {
      rel.bind(subject.pathId, {
        kind: 'object',
        type: subject.type,
        id: sql.col('id', row),
        tag: sql.col('__type__', row),
        alias: null,
        link: null,
        out: null,
        nullable: false,
      });
    }
    const carried = part.carried ? liftCarried(ctx, rel, e, part, 'inner') : null;
    const bound = carried ? null : ctx.lift(rel, part.value);
    const value = carried
      ? carried.id
      : bound?.kind === 'object'
        ? bound.id
        : (bound?.expr as SqlExpr);
    const valueColumn = e.pointer.kind === 'link' ? 'target' : 'value';
    const targets: Target[] = [
      sql.target(sql.col('id', o), 'source'),
      sql.target(value, valueColumn),
      sql.target(tag ?? sql.col('__type__', row), '~type'),
    ];
    e.linkProperties.forEach((property, j) => {
      const expr = part.props[j];
      targets.push(
        sql.target(
          carried
            ? (carried.props[j] as SqlExpr)
            : expr
              ? ctx.value(rel, expr)
              : sql.cast(sql.null(), pgTypeFor(property.target)),
          property.name,
        ),
      );
    });
    // Which part a pair comes from: when two parts give the same target, the later one's link
    // properties are written (see writeJunction).
    if (parts.length > 1) targets.push(sql.target(sql.num(k), '~part'));
    rel.where.push(sql.isNull(value, true));
    return selectFrom(rel, targets);
  });
  const pairs = ctx.fresh('pairs');
  const query = selects
    .slice(1)
    .reduce<SqlQuery>((acc, next) => sql.setOp('union', true, acc, next), selects[0] as SqlQuery);
  ctx.addCte(sql.cte(pairs, query, { materialized: true }));
  return pairs;
}

/**
 * A part whose link properties ride on its shapes (ValuePart.carried): its elements joined into
 * `rel` as rows (`join`: `left` keeps a row without a value), each target's id and its link
 * properties read back from the element's JSON output (JSON null or a missing key: NULL).
 */
function liftCarried(
  ctx: PlanContext,
  rel: Rel,
  e: MutationElement,
  part: ValuePart,
  join: 'inner' | 'left',
): { id: SqlExpr; props: SqlExpr[] } {
  const { query } = ctx.rows(rel, part.value);
  const alias = ctx.fresh('lv');
  rel.join(join, sql.subquery(query, alias, { lateral: true }));
  const json = sql.cast(sql.col('~json', alias), pgType('jsonb'));
  const env = typeEnv(ctx.index);
  const props = e.linkProperties.map((property, j): SqlExpr => {
    const key = part.carried?.[j] ?? null;
    const pg = pgTypeFor(property.target);
    const dflt = part.props[j];
    const otherwise = dflt ? ctx.value(rel, dflt) : sql.cast(sql.null(), pg);
    if (key === null) return otherwise;
    const item = sql.bin('->', json, sql.text(key));
    // JSON null (an empty value): NULL; no key (an element no shape wrote it on): `otherwise`.
    return {
      kind: 'Case',
      whens: [
        {
          when: sql.bin('<>', sql.func('jsonb_typeof', [item]), sql.text('null')),
          then: sql.cast(decodeParam(property.target, item, env), pg),
        },
        { when: sql.isNull(item, true), then: sql.cast(sql.null(), pg) },
      ],
      else: otherwise,
    };
  });
  return { id: sql.col('id', alias), props };
}

/** Inserts (`add`) or deletes (`remove`) the pairs in the pointer's junction table of `concrete`. */
/** For a required multi pointer given a possibly empty value: the written objects (`owners`,
 * rows of `concrete` among them) that must get at least one row. */
interface RequiredCheck {
  readonly owners: string;
  /** `owners` has a `__type__` column (an update's `src`), to pick this table's rows. */
  readonly typed: boolean;
  readonly concrete: string;
  readonly message: string;
}

function requiredCheck(
  e: MutationElement,
  concrete: string,
  owners: string,
  typed: boolean,
): RequiredCheck | null {
  if (!e.pointer.required || e.value.card.min === 1) return null;
  return {
    owners,
    typed,
    concrete,
    message: `missing value for required ${e.pointer.kind} '${concrete}.${e.pointer.name}'`,
  };
}

/**
 * What a junction write waits for under access policies (plan/access): `check`, the write check
 * its statement reads first; `written`, the CTE of the rows actually inserted, whose pairs alone
 * are written (checked inserts plan their pairs from every row they are about to insert).
 */
interface JunctionGate {
  readonly written: string | null;
  readonly check: string | null;
}

/** `statement` with `conditions` added to what it writes (an insert's rows, a WHERE). */
function gated(statement: SqlStatement, conditions: readonly SqlExpr[]): SqlStatement {
  if (conditions.length === 0) return statement;
  switch (statement.kind) {
    case 'Insert': {
      const g = 'g';
      const source = statement.source as SqlQuery;
      return {
        ...statement,
        source: sql.select({
          targets: [sql.target(sql.star(g))],
          from: [sql.subquery(source, g)],
          where: sql.and(...conditions),
        }),
      };
    }
    case 'Update':
    case 'Delete':
      return {
        ...statement,
        where: statement.where ? sql.and(statement.where, ...conditions) : sql.and(...conditions),
      };
    default:
      return statement;
  }
}

function writeJunction(
  ctx: PlanContext,
  concrete: string,
  e: MutationElement,
  pairs: string,
  mode: 'add' | 'remove',
  required: RequiredCheck | null = null,
  gate: JunctionGate | null = null,
): void {
  const pointer = e.pointer;
  const storage = ctx.index.storage(concrete, pointer);
  if (storage.kind !== 'junction') return;
  // The link properties written (the others keep their defaults, or NULL).
  const props = e.linkProperties.map((p) => p.name);
  const resetProps =
    e.op === ':='
      ? [...pointer.properties.values()].filter((p) => !p.computed).map((p) => p.name)
      : props;
  const p = 'p';
  const name = ctx.fresh(mode === 'add' ? 'link' : 'unlink');
  let statement: SqlStatement;
  if (mode === 'add') {
    const columns = ['source', storage.valueColumn, ...props];
    // A target given by several parts of the value is one link row: the last part's.
    const byPart = e.parts !== null && e.parts.length > 1;
    let source: SqlQuery = sql.select({
      targets: columns.map((c) => sql.target(sql.col(c, p))),
      from: [sql.table(null, pairs, p)],
      // Only the rows of objects this table holds (and, for a checked insert, inserted).
      where: sql.and(
        sql.bin('=', sql.col('~type', p), sql.text(concrete)),
        ...(gate?.written
          ? [
              sql.exists(
                sql.select({
                  targets: [sql.target(sql.num(1))],
                  from: [sql.table(null, gate.written, 'w')],
                  where: sql.bin('=', sql.col('id', 'w'), sql.col('source', p)),
                }),
              ),
            ]
          : []),
      ),
      ...(byPart
        ? {
            distinct: [sql.col('source', p), sql.col(storage.valueColumn, p)],
            orderBy: [
              sql.order(sql.col('source', p)),
              sql.order(sql.col(storage.valueColumn, p)),
              sql.order(sql.col('~part', p), 'desc'),
            ],
          }
        : {}),
    });
    if (required !== null) {
      // A written object without a row fails the statement (SQLSTATE 23502: MissingRequiredError).
      const o = 'o';
      const missing = sql.select({
        targets: [
          sql.target(raise(sql.col('id', o), pgType('uuid'), sql.text(required.message), '23502')),
          ...columns.slice(1).map(() => sql.target(sql.null())),
        ],
        from: [sql.table(null, required.owners, o)],
        where: sql.and(
          ...(required.typed ? [sql.bin('=', sql.col('__type__', o), sql.text(concrete))] : []),
          sql.not(
            sql.exists(
              sql.select({
                targets: [sql.target(sql.num(1))],
                from: [sql.table(null, pairs, 'q')],
                where: sql.bin('=', sql.col('source', 'q'), sql.col('id', o)),
              }),
            ),
          ),
        ),
      });
      source = sql.setOp('union', true, source, missing);
    }
    statement = sql.insert({
      table: storage.table,
      columns,
      source,
      // A link row already there stays; its link properties take the written values (`:=` links
      // anew, so the ones not written are reset too: `excluded` has their defaults).
      onConflict:
        pointer.kind === 'link'
          ? {
              target: { kind: 'columns', columns: ['source', 'target'], where: null },
              action:
                resetProps.length > 0
                  ? {
                      kind: 'update',
                      set: resetProps.map((c) => ({ column: c, value: sql.col(c, 'excluded') })),
                      where: null,
                    }
                  : { kind: 'nothing' },
            }
          : null,
    });
  } else if (pointer.kind === 'property') {
    statement = removeOccurrences(storage, pairs, concrete, pointer);
  } else {
    const j = 'j';
    statement = sql.delete({
      table: storage.table,
      alias: j,
      using: [sql.table(null, pairs, p)],
      where: sql.and(
        sql.bin('=', sql.col('source', j), sql.col('source', p)),
        sql.bin('=', sql.col(storage.valueColumn, j), sql.col(storage.valueColumn, p)),
        ...(pointer.required ? [keepsOneRow(storage, pairs, j, concrete, pointer)] : []),
      ),
    });
  }
  ctx.addCte(sql.cte(name, gated(statement, gate?.check ? [afterCheck(gate.check)] : [])));
}

/**
 * `-=` on a multi property: multiset subtraction (Gel's `except`), one stored occurrence per
 * occurrence in the removed set (`{'1', '1', '2'} -= {'1'}` leaves `{'1', '2'}`). Each row of an
 * object's value is ranked among the rows holding the same value; the first `count` rows go,
 * `count` being how often the removed set holds the value. A required property keeps a row or the
 * statement fails (SQLSTATE 23502), as for links.
 */
function removeOccurrences(
  storage: Extract<PointerStorage, { kind: 'junction' }>,
  pairs: string,
  concrete: string,
  pointer: PointerInfo,
): SqlStatement {
  const value = storage.valueColumn;
  const ranked = (k: string, touchedOnly: boolean): FromItem =>
    sql.subquery(
      sql.select({
        targets: [
          sql.target(sql.col('ctid', 'r0'), 'rid'),
          sql.target(sql.col('source', 'r0'), 'source'),
          sql.target(sql.col(value, 'r0'), 'v'),
          sql.target(
            sql.agg('row_number', [], {
              over: {
                partitionBy: [sql.col('source', 'r0'), sql.col(value, 'r0')],
                orderBy: [sql.order(sql.col('ctid', 'r0'))],
              },
            }),
            'n',
          ),
        ],
        from: [sql.table(storage.table.schema, storage.table.name, 'r0')],
        // Only the (object, value) groups the removal touches (all: whether a row remains).
        where: !touchedOnly
          ? null
          : sql.exists(
              sql.select({
                targets: [sql.target(sql.num(1))],
                from: [sql.table(null, pairs, 'q0')],
                where: sql.and(
                  sql.bin('=', sql.col('source', 'q0'), sql.col('source', 'r0')),
                  sql.bin('=', sql.col(value, 'q0'), sql.col(value, 'r0')),
                ),
              }),
            ),
      }),
      k,
    );
  const taken = (k: string): SqlExpr =>
    sql.bin(
      '<=',
      sql.col('n', k),
      sql.scalar(
        sql.select({
          targets: [sql.target(sql.agg('count', [sql.star()]))],
          from: [sql.table(null, pairs, 'q')],
          where: sql.and(
            sql.bin('=', sql.col('source', 'q'), sql.col('source', k)),
            sql.bin('=', sql.col(value, 'q'), sql.col('v', k)),
          ),
        }),
      ),
    );
  const j = 'j';
  const r = 'r';
  const conditions: SqlExpr[] = [sql.bin('=', sql.col('ctid', j), sql.col('rid', r)), taken(r)];
  if (pointer.required) {
    const remains = sql.exists(
      sql.select({
        targets: [sql.target(sql.num(1))],
        from: [ranked('k', false)],
        where: sql.and(
          sql.bin('=', sql.col('source', 'k'), sql.col('source', j)),
          sql.not(taken('k')),
        ),
      }),
    );
    const message = `missing value for required ${pointer.kind} '${concrete}.${pointer.name}'`;
    conditions.push({
      kind: 'Case',
      whens: [{ when: remains, then: sql.bool(true) }],
      else: raise(sql.col('source', j), pgType('bool'), sql.text(message), '23502'),
    });
  }
  return sql.delete({
    table: storage.table,
    alias: j,
    using: [ranked(r, true)],
    where: sql.and(...conditions),
  });
}

/**
 * `-=` on a required multi pointer: true while the object `j.source` keeps a row the removal does
 * not take; else the statement fails (SQLSTATE 23502: MissingRequiredError, as Gel).
 */
function keepsOneRow(
  storage: Extract<PointerStorage, { kind: 'junction' }>,
  pairs: string,
  j: string,
  concrete: string,
  pointer: PointerInfo,
): SqlExpr {
  const k = 'k';
  const q = 'q';
  const removed = sql.exists(
    sql.select({
      targets: [sql.target(sql.num(1))],
      from: [sql.table(null, pairs, q)],
      where: sql.and(
        sql.bin('=', sql.col('source', q), sql.col('source', k)),
        sql.bin('=', sql.col(storage.valueColumn, q), sql.col(storage.valueColumn, k)),
      ),
    }),
  );
  const remains = sql.exists(
    sql.select({
      targets: [sql.target(sql.num(1))],
      from: [sql.table(storage.table.schema, storage.table.name, k)],
      where: sql.and(sql.bin('=', sql.col('source', k), sql.col('source', j)), sql.not(removed)),
    }),
  );
  const message = `missing value for required ${pointer.kind} '${concrete}.${pointer.name}'`;
  return {
    kind: 'Case',
    whens: [{ when: remains, then: sql.bool(true) }],
    else: raise(sql.col('source', j), pgType('bool'), sql.text(message), '23502'),
  };
}

/** `:=` on a multi pointer: the junction rows of the written objects that are not in the new set. */
function clearJunction(
  ctx: PlanContext,
  concrete: string,
  pointer: PointerInfo,
  src: string,
  pairs: string,
  gate: JunctionGate | null = null,
): void {
  const storage = ctx.index.storage(concrete, pointer);
  if (storage.kind !== 'junction') return;
  const j = 'j';
  const s = 's';
  const keep = sql.exists(
    sql.select({
      targets: [sql.target(sql.num(1))],
      from: [sql.table(null, pairs, 'p')],
      where: sql.and(
        sql.bin('=', sql.col('source', 'p'), sql.col('source', j)),
        sql.bin('=', sql.col(storage.valueColumn, 'p'), sql.col(storage.valueColumn, j)),
      ),
    }),
  );
  ctx.addCte(
    sql.cte(
      ctx.fresh('unlink'),
      sql.delete({
        table: storage.table,
        alias: j,
        using: [sql.table(null, src, s)],
        // Multi properties are multisets: every old value goes, the new ones are inserted.
        where: sql.and(
          sql.bin('=', sql.col('source', j), sql.col('id', s)),
          ...(pointer.kind === 'link' ? [sql.not(keep)] : []),
          ...(gate?.check ? [afterCheck(gate.check)] : []),
        ),
      }),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Overlays: reads later in the statement see the rows it inserted

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

function registerJunctionWrite(
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

function overlayOf(ctx: object): Overlay {
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

// ---------------------------------------------------------------------------------------------
// The written objects in the outer query, and their output

function joinWritten(
  ctx: PlanContext,
  rel: Rel,
  m: Mutation,
  src: string,
  plan: Written,
  iterations: readonly BindingRef[],
): Bound {
  const type = (m.type as { name: string }).name;
  let anchor: string | null = null;
  if (iterations.length > 0) {
    // This iteration's rows: `src` rows whose iteration columns are the outer query's.
    anchor = ctx.fresh('ws');
    const conditions = iterations.map((ref, i) => {
      const outer = rel.lookup(ref.pathId);
      if (!outer)
        throw new QueryError(`'${ref.binding.name}' is used outside the statement that binds it`);
      const value = outer.kind === 'object' ? outer.id : outer.expr;
      return sql.bin('is not distinct from', sql.col(`~it${i}`, anchor as string), value);
    });
    rel.join('inner', sql.table(null, src, anchor), sql.and(...conditions));
  }
  if (m.kind === 'Insert' && m.conflict?.else) return withElse(ctx, rel, m, src, plan, anchor);
  const rows = [...plan.rows];
  const w = ctx.fresh('w');
  const onAnchor = anchor ? sql.bin('=', sql.col('id', w), sql.col('id', anchor)) : null;
  if (rows.length === 1) {
    // One table: its RETURNING rows (an update's new values).
    const [concrete, cte] = rows[0] as [string, string];
    rel.join('inner', sql.table(null, cte, w), onAnchor);
    return {
      kind: 'object',
      type,
      id: sql.col('id', w),
      tag: sql.text(concrete),
      alias: w,
      link: null,
      out: null,
      nullable: false,
    };
  }
  if (rows.length > 1) {
    // Several tables: their RETURNING rows with every column any of them has.
    rel.join('inner', sql.subquery(writtenRows(ctx, plan.rows), w), onAnchor);
    return {
      kind: 'object',
      type,
      id: sql.col('id', w),
      tag: sql.col('__type__', w),
      alias: w,
      link: null,
      out: null,
      nullable: false,
    };
  }
  // Only multi pointers written: the ids and types from `src`.
  const from = anchor ?? w;
  if (!anchor) rel.join('inner', sql.table(null, src, w));
  return {
    kind: 'object',
    type,
    id: sql.col('id', from),
    tag: sql.col('__type__', from),
    alias: null,
    link: null,
    out: null,
    nullable: false,
  };
}

/** The written rows of several concrete tables (CTE each) as one relation: `id`, every stored
 * column any of them has (NULL where a table lacks it), `__type__`. */
function writtenRows(ctx: PlanContext, rows: ReadonlyMap<string, string>): SqlQuery {
  const columns = new Map<string, PgType>();
  for (const c of rows.keys())
    for (const [name, t] of storedColumns(ctx.index, c)) columns.set(name, t);
  const branches = [...rows].map(([c, cte]) => {
    const own = storedColumns(ctx.index, c);
    return sql.select({
      targets: [
        sql.target(sql.col('id'), 'id'),
        ...[...columns].map(([name, t]) =>
          sql.target(own.has(name) ? sql.col(name) : sql.cast(sql.null(), t), name),
        ),
        sql.target(sql.text(c), '__type__'),
      ],
      from: [sql.table(null, cte, null)],
    }) as SqlQuery;
  });
  return branches.reduce((a, b) => sql.setOp('union', true, a, b));
}

/** Objects bound outside a mutation that its own CTEs must find again (the conflicting object of
 * an `unless conflict ... else`): path id → how to join it into a fresh Rel. */
const externals = new WeakMap<PlanContext, Map<string, (rel: Rel) => Bound>>();

/**
 * `unless conflict on .p else (...)`: the inserted object, or what `else` yields for the object
 * that conflicted — one row either way (the insert wrote only when nothing conflicted).
 */
function withElse(
  ctx: PlanContext,
  rel: Rel,
  m: Insert,
  src: string,
  plan: Written,
  anchor: string | null,
): Bound {
  const conflict = m.conflict as NonNullable<Insert['conflict']>;
  const pointers = conflict.on as readonly PointerInfo[];
  const owner = conflict.owner ?? m.objectType;
  const single = m.elements.filter((e) => !e.pointer.many);
  const iterations = iterationRefs(m);
  // The conflicting object of a src row: joined wherever it is read (here, or in the CTEs of an
  // `else (update ...)`).
  const [, insertCte] = [...plan.rows][0] as [string, string];
  const conflicting = (inner: Rel, s: string): Bound => {
    const x = ctx.fresh('cx');
    const rows = typeSource(ctx, owner, x, { written: false });
    // A pointer the insert leaves empty conflicts with nothing.
    const match =
      (conflict.keys !== undefined
        ? conflict.keys.length > 0
          ? sql.and(...conflict.keys.map((k, j) => keyMatch(ctx, k, j, x, rows.tag, s)))
          : null
        : conflictMatch(pointers, single, x, s)) ?? sql.bool(false);
    // An object that was there before the statement (not the one it just inserted).
    const fresh = sql.exists(
      sql.select({
        targets: [sql.target(sql.num(1))],
        from: [sql.table(null, insertCte, 'n')],
        where: sql.bin('=', sql.col('id', 'n'), sql.col('id', x)),
      }),
    );
    inner.join('inner', rows.item, sql.and(match, sql.not(fresh)));
    return {
      kind: 'object',
      type: m.objectType,
      id: sql.col('id', x),
      tag: rows.tag,
      alias: x,
      link: null,
      out: null,
      nullable: false,
    };
  };
  let registry = externals.get(ctx);
  if (!registry) {
    registry = new Map();
    externals.set(ctx, registry);
  }
  registry.set(conflict.conflictPathId, (fresh) => {
    const s = ctx.fresh('cs');
    const conditions = iterations.flatMap((ref, i) => {
      const outer = fresh.lookup(ref.pathId);
      return outer
        ? [
            sql.bin(
              'is not distinct from',
              sql.col(`~it${i}`, s),
              outer.kind === 'object' ? outer.id : outer.expr,
            ),
          ]
        : [];
    });
    fresh.join(
      'inner',
      sql.table(null, src, s),
      conditions.length > 0 ? sql.and(...conditions) : null,
    );
    return conflicting(fresh, s);
  });

  const inner = new Rel(rel);
  const s = anchor ?? ctx.fresh('cs');
  if (!anchor) inner.join('inner', sql.table(null, src, s));
  inner.bind(conflict.conflictPathId, conflicting(inner, s));
  // A mutation in `else` writes only when there is a conflict (Gel: `else (detached (insert T
  // {...}))` inserts nothing for a new object).
  const noConflict = conflictGuard(ctx, m, single);
  const onConflict = noConflict
    ? (r: Rel) => {
        const checks = noConflict(r);
        return checks.length > 0 ? [sql.not(sql.and(...checks))] : [];
      }
    : null;
  if (onConflict) nestedGuardsOf(ctx).push(onConflict);
  const other = ctx.lift(inner, conflict.else as IrExpr);
  if (onConflict) nestedGuardsOf(ctx).pop();
  if (other.kind !== 'object') throw new QueryError('the else clause must yield objects');
  // Both branches carry the inserted type's stored columns, so the answer reads them (the else
  // branch's from its own rows when it wrote them, e.g. an update; else from the table).
  const columns = [...storedColumns(ctx.index, m.objectType).keys()];
  let elseColumns = other.alias;
  if (elseColumns === null) {
    // The conflicting object may be of another type under the constraint's owner.
    elseColumns = ctx.fresh('cy');
    const rows = typeSource(ctx, owner, elseColumns);
    inner.join('inner', rows.item, sql.bin('=', sql.col('id', elseColumns), other.id));
  }
  const elseRows = selectFrom(
    inner,
    [
      sql.target(other.id, 'id'),
      ...columns.map((c) => sql.target(sql.col(c, elseColumns as string), c)),
      sql.target(other.tag, '__type__'),
    ],
    other,
  );
  const [concrete, cte] = [...plan.rows][0] as [string, string];
  const w = 'w';
  const newRows = sql.select({
    targets: [
      sql.target(sql.col('id', w), 'id'),
      ...columns.map((c) => sql.target(sql.col(c, w), c)),
      sql.target(sql.text(concrete), '__type__'),
    ],
    from: [sql.table(null, cte, w)],
    where: anchor ? sql.bin('=', sql.col('id', w), sql.col('id', anchor)) : null,
  });
  const u = ctx.fresh('u');
  rel.join(
    'inner',
    sql.subquery(sql.setOp('union', true, newRows, elseRows), u, { lateral: true }),
  );
  return {
    kind: 'object',
    type: m.objectType,
    id: sql.col('id', u),
    tag: sql.col('__type__', u),
    alias: u,
    link: null,
    out: null,
    nullable: false,
  };
}

/** A conditional mutation (mutation-ir `Guard`) writes only the `src` rows where its branch's
 * conditions hold: the condition (true/false for an if/else branch, `exists left` false for the
 * right of `??`) is evaluated in the mutation's own Rel, per `for` iteration when it reads one. */
function applyGuards(ctx: PlanContext, rel: Rel, m: Mutation): void {
  for (const guard of m.guards ?? []) {
    rel.where.push(sql.bin('is', ctx.value(rel, guard.expr), sql.bool(guard.when)));
  }
  // Nested in the values of `unless conflict` inserts: only for the objects they insert (a
  // `with` binding's mutation read there runs whatever happens, as in Gel).
  if (unconditional.get(ctx)?.has(m.pathId)) return;
  for (const guard of nestedGuardsOf(ctx)) rel.where.push(...guard(rel));
}

/** Per compilation: the path ids of the mutations of `with` bindings (IrQuery.sideEffects). */
const unconditional = new WeakMap<PlanContext, Set<string>>();

/** Records the mutations of the statement's `with` bindings that write: they run
 * unconditionally, wherever they are first read. */
export function markSideEffects(ctx: PlanContext, exprs: readonly IrExpr[]): void {
  const ids = new Set<string>();
  const seen = new Set<IrExpr>();
  const visit = (expr: IrExpr): void => {
    if (seen.has(expr)) return;
    seen.add(expr);
    if (isMutation(expr) && (expr.guards ?? []).length === 0) ids.add(expr.pathId);
    if (expr.kind === 'BindingRef') visit(expr.binding.expr);
    for (const child of childrenOf(expr)) visit(child);
  };
  for (const expr of exprs) visit(expr);
  unconditional.set(ctx, ids);
}

/** True when `expr`'s elements come from a mutation's written objects (through bindings,
 * `??`, if/else, unions, selects and shapes of them, links and `[is T]` from them). */
export function derivesFromMutation(expr: IrExpr): boolean {
  switch (expr.kind) {
    case 'Insert':
    case 'Update':
    case 'Delete':
      return true;
    case 'BindingRef':
      return !expr.binding.iteration && derivesFromMutation(expr.binding.expr);
    case 'Coalesce':
    case 'SetOp':
      return derivesFromMutation(expr.left) || derivesFromMutation(expr.right);
    case 'IfElse':
      return derivesFromMutation(expr.then) || derivesFromMutation(expr.else);
    case 'SetLiteral':
      return expr.elements.some(derivesFromMutation);
    case 'Select':
    case 'Shape':
      return derivesFromMutation(expr.subject);
    case 'Intersection':
    case 'PointerStep':
    case 'Backlink':
      return derivesFromMutation(expr.source);
    case 'Assert':
    case 'Distinct':
      return derivesFromMutation(expr.expr);
    case 'For':
      return derivesFromMutation(expr.body);
    default:
      return false;
  }
}

/** Binds in a fresh Rel the outside objects (see `externals`) that `m` reads. */
function bindExternals(ctx: PlanContext, rel: Rel, m: Mutation): void {
  const registry = externals.get(ctx);
  if (!registry || registry.size === 0) return;
  const wanted = new Set<string>();
  // The conflicting objects of the inserts inside `m` (one it reads through a `with` binding
  // included) are theirs, not external to `m`.
  const owned = new Set<string>();
  const seen = new Set<IrExpr>();
  const visit = (expr: IrExpr): void => {
    if (seen.has(expr)) return;
    seen.add(expr);
    if (expr.kind === 'TypeRoot' && registry.has(expr.pathId)) wanted.add(expr.pathId);
    if (expr.kind === 'Insert' && expr.conflict) owned.add(expr.conflict.conflictPathId);
    if (expr.kind === 'BindingRef') visit(expr.binding.expr);
    for (const child of childrenOf(expr)) visit(child);
  };
  visit(m);
  for (const pathId of wanted) {
    if (!owned.has(pathId)) rel.bind(pathId, (registry.get(pathId) as (r: Rel) => Bound)(rel));
  }
}

/**
 * The whole stored row of each written object (item 16): `id`, every stored property (std's JSON
 * form), every single link as its id, every multi pointer as an array (ids for links) — read
 * from the statement's CTEs, since the tables still show the snapshot before it.
 */
export function mutationOutput(
  ctx: PlanContext,
  _rel: Rel,
  m: Mutation,
  bound: ObjectBound,
): SqlExpr {
  const plan = planned.get(ctx)?.get(m.pathId)?.plan;
  const type = (m.type as { name: string }).name;
  if (!plan) return sql.func('json_build_object', [sql.text('id'), bound.id]);
  const concrete =
    plan.rows.size > 0 ? [...plan.rows.keys()] : [...(ctx.index.objectType(type)?.concrete ?? [])];
  const rowOf = (c: string): SqlExpr => {
    const info = ctx.index.objectType(c) as ObjectTypeInfo;
    const env = typeEnv(ctx.index);
    const entries: [string, SqlExpr][] = [['id', bound.id]];
    for (const p of info.pointers.values()) {
      if (p.model === null || p.computed || p.name === 'id') continue;
      if (p.many) {
        const state = plan.multi.get(p.name) ?? null;
        // A new object has no rows but the ones written (its defaults are written too).
        const none = m.kind === 'Insert' && state === null;
        entries.push([
          p.name,
          none ? sql.cast(sql.text('[]'), pgType('json')) : multiJson(ctx, p, bound.id, state, c),
        ]);
      } else if (bound.alias !== null) {
        const col = sql.col(p.name, bound.alias);
        if (p.kind === 'link') {
          // A linked object the caller may not see is not shown (the link stays stored).
          const seen = visibleTarget(ctx, p, col);
          entries.push([p.name, sql.func('to_json', [seen ? caseWhen(seen, col) : col])]);
        } else {
          entries.push([p.name, jsonOf(p.target, col, env)]);
        }
      }
    }
    return sql.jsonObject(entries);
  };
  if (concrete.length === 1) return rowOf(concrete[0] as string);
  // Each row as its own concrete type stores it.
  return {
    kind: 'Case',
    whens: concrete.map((c) => ({ when: sql.bin('=', bound.tag, sql.text(c)), then: rowOf(c) })),
    else: sql.func('json_build_object', [sql.text('id'), bound.id]),
  };
}

function multiJson(
  ctx: PlanContext,
  p: PointerInfo,
  id: SqlExpr,
  state: MultiState | null,
  type: string,
): SqlExpr {
  const env = typeEnv(ctx.index);
  const valueColumn = p.kind === 'link' ? 'target' : 'value';
  const r = 'r';
  const elementJson = (col: SqlExpr) =>
    p.kind === 'link' ? sql.func('to_json', [col]) : jsonOf(p.target, col, env);
  const oldRows = (): SelectStatement => {
    const j = 'jr';
    const rows = junctionRows(ctx, type, p, j);
    return sql.select({
      targets: [sql.target(sql.col(valueColumn, j), 'v')],
      from: [rows],
      where: sql.bin('=', sql.col('source', j), id),
    });
  };
  const pairRows = (pairs: string): SqlQuery =>
    sql.select({
      targets: [sql.target(sql.col(valueColumn, 'pr'), 'v')],
      from: [sql.table(null, pairs, 'pr')],
      where: sql.bin('=', sql.col('source', 'pr'), id),
    });
  let rows: SqlQuery;
  if (state === null) rows = oldRows();
  else if (state.kind === 'replaced') rows = pairRows(state.pairs);
  else if (state.kind === 'added')
    rows = sql.setOp(
      p.kind === 'link' ? 'union' : 'union',
      p.kind !== 'link',
      oldRows(),
      pairRows(state.pairs),
    );
  else {
    // As the DELETE did: every old row whose value was removed goes.
    const old = oldRows() as SelectStatement;
    const removed = sql.exists(
      sql.select({
        targets: [sql.target(sql.num(1))],
        from: [sql.table(null, state.pairs, 'pr')],
        where: sql.and(
          sql.bin('=', sql.col('source', 'pr'), id),
          sql.bin('=', sql.col(valueColumn, 'pr'), sql.col(valueColumn, 'jr')),
        ),
      }),
    );
    rows = { ...old, where: sql.and(old.where ?? sql.bool(true), sql.not(removed)) };
  }
  const seen = p.kind === 'link' ? visibleTarget(ctx, p, sql.col('v', r)) : null;
  return sql.scalar(
    sql.select({
      targets: [sql.target(sql.jsonArrayAgg(elementJson(sql.col('v', r)), { orEmpty: true }))],
      from: [sql.subquery(rows, r)],
      where: seen,
    }),
  );
}

/**
 * For the whole-row output of a write (item 16): the condition that the object `id` a link of
 * it holds is one the caller may select (through the access hook, with this statement's new
 * rows), or null when every target is visible.
 */
function visibleTarget(ctx: PlanContext, p: PointerInfo, id: SqlExpr): SqlExpr | null {
  const target = (p.target as { name: string }).name;
  if (!rowsFiltered(ctx, target)) return null;
  const alias = ctx.fresh('vt');
  const rows = typeSource(ctx, target, alias);
  return sql.exists(
    sql.select({
      targets: [sql.target(sql.num(1))],
      from: [rows.item],
      where: sql.bin('=', sql.col('id', alias), id),
    }),
  );
}

function junctionRows(ctx: PlanContext, type: string, p: PointerInfo, alias: string) {
  const tables = (ctx.index.objectType(type)?.concrete ?? []).flatMap((c) => {
    const storage = ctx.index.storage(c, p);
    return storage.kind === 'junction' ? [storage.table] : [];
  });
  const valueColumn = p.kind === 'link' ? 'target' : 'value';
  const branches: SqlQuery[] = tables.map((t) =>
    sql.select({
      targets: [sql.target(sql.col('source')), sql.target(sql.col(valueColumn))],
      from: [sql.table(t.schema, t.name)],
    }),
  );
  if (branches.length === 0) {
    return sql.subquery(
      sql.select({
        targets: [
          sql.target(sql.cast(sql.null(), pgType('uuid')), 'source'),
          sql.target(sql.null(), valueColumn),
        ],
        where: sql.bool(false),
      }),
      alias,
    );
  }
  return sql.subquery(
    branches.reduce((a, b) => sql.setOp('union', true, a, b)),
    alias,
  );
}

// ---------------------------------------------------------------------------------------------
// Helpers

/**
 * Spec item 38: `insert ... unless conflict ... else (update ...)` on a type whose update is
 * restricted by access policies is refused before anything runs (the conflicting object, which
 * the caller may not see, would decide between two differently checked writes).
 */
function refuseGuardedUpsert(ctx: PlanContext, m: Insert): void {
  const otherwise = m.conflict?.else;
  if (!otherwise || !ctx.access.policies) return;
  const updates: Update[] = [];
  const visit = (e: IrExpr): void => {
    if (e.kind === 'Update') updates.push(e);
    for (const c of childrenOf(e)) visit(c);
  };
  visit(otherwise);
  for (const u of updates) {
    const type = (u.subject.type as { name: string }).name;
    if (restrictsUpdates(ctx, type)) {
      throw new QueryError(
        `an upsert (\`unless conflict ... else (update ...)\`) cannot update ${type}: its updates are restricted by access policies`,
        {
          hint: 'select the conflicting object and update it in a separate statement, or run it with the service credential',
        },
      );
    }
  }
}

/** True when a concrete type of `type` has a row-level update policy, or is closed to the caller. */
function restrictsUpdates(ctx: PlanContext, type: string): boolean {
  if (!rowsFiltered(ctx, type)) return false;
  return (ctx.index.objectType(type)?.concrete ?? []).some((c) => {
    const policies = ctx.index.objectType(c)?.model?.policies;
    if (policies === undefined) return false;
    if (policies.length === 0) return ctx.access.defaultAccess === 'deny';
    return policies.some(
      (p) => p.kinds.includes('update read') || p.kinds.includes('update write'),
    );
  });
}

/**
 * A mutation runs once per statement, in its own CTEs: it may read `for` variables (planned into
 * its CTEs) but not the current row of an enclosing query (`select User { x := (insert Log {
 * user := User }) }` would need one write per row, a data-modifying CTE cannot be correlated).
 */
function assertUncorrelated(ctx: PlanContext, rel: Rel, m: Mutation): void {
  const registry = externals.get(ctx);
  const seen = new Set<IrExpr>();
  const visit = (expr: IrExpr): void => {
    if (seen.has(expr)) return;
    seen.add(expr);
    if (
      (expr.kind === 'TypeRoot' || expr.kind === 'PointerStep') &&
      !registry?.has(expr.pathId) &&
      rel.lookup(expr.pathId)
    ) {
      throw new QueryError(
        'a mutation cannot read the current element of an enclosing query; it runs once per statement (use `for x in ... union (...)` to write per element)',
      );
    }
    // Another occurrence of the same root beside the mutation, in the same row (`select
    // (Subordinate, (insert T { subordinates := Subordinate }))`): Gel refuses to factor it in.
    if (expr.kind === 'TypeRoot' && !registry?.has(expr.pathId)) {
      const key = rootKeyOf(expr.pathId);
      if (
        key !== expr.pathId &&
        rel.someBoundHere((id) => id !== expr.pathId && rootKeyOf(id) === key)
      )
        throw new InvalidReferenceError(
          `cannot reference correlated set '${expr.objectType}' here`,
        );
    }
    for (const child of childrenOf(expr)) visit(child);
  };
  visit(m);
}

/** `for` variables read inside the mutation whose `for` is outside it (a `for` inside, e.g. in a
 * link's value, is planned where it is). Nested mutations included: they plan their own CTEs but
 * their `for` variables must be available here too. */
function iterationRefs(m: Mutation): BindingRef[] {
  const inside = new Set<number>();
  const refs = new Map<string, BindingRef>();
  const seen = new Set<IrExpr>();
  const visit = (expr: IrExpr): void => {
    if (seen.has(expr)) return;
    seen.add(expr);
    if (expr.kind === 'For') inside.add(expr.binding.id);
    if (expr.kind === 'Update' && expr.each) inside.add(expr.each.binding.id);
    if (expr.kind === 'BindingRef') {
      if (expr.binding.iteration) refs.set(expr.pathId, expr);
      else visit(expr.binding.expr);
      return;
    }
    for (const child of childrenOf(expr)) visit(child);
  };
  visit(m);
  return [...refs.values()].filter((ref) => !inside.has(ref.binding.id));
}

/** Binds each `for` variable in `rel` by planning its iterator there; their values, in order. */
function bindIterations(ctx: PlanContext, rel: Rel, refs: readonly BindingRef[]): SqlExpr[] {
  return refs.map((ref) => {
    const bound = ctx.lift(rel, ref.binding.expr);
    rel.bind(ref.pathId, bound);
    const value = bound.kind === 'object' ? bound.id : bound.expr;
    // An empty iterator (lifted as a NULL row) has no iterations.
    if (bound.nullable) rel.where.push(sql.isNull(value, true));
    return value;
  });
}

function iterationBound(ref: BindingRef, value: SqlExpr): Bound {
  if (ref.type.kind === 'object') {
    return {
      kind: 'object',
      type: ref.type.name,
      id: value,
      tag: sql.null(),
      alias: null,
      link: null,
      out: null,
      nullable: false,
    };
  }
  return { kind: 'value', type: ref.type, expr: value, out: null, nullable: false };
}

function objectOf(ctx: PlanContext, rel: Rel, expr: IrExpr): ObjectBound {
  const bound = ctx.lift(rel, expr);
  if (bound.kind !== 'object') throw new QueryError('update and delete apply to objects');
  return bound;
}

function concreteOf(ctx: PlanContext, subject: IrExpr): readonly string[] {
  return ctx.index.objectType((subject.type as { name: string }).name)?.concrete ?? [];
}

/** `select targets from rel's FROM where rel's conditions` (and the subject present). */
/** `CASE WHEN when THEN then END`. */
function caseWhen(when: SqlExpr, then: SqlExpr): SqlExpr {
  return { kind: 'Case', whens: [{ when, then }], else: null };
}

function selectFrom(rel: Rel, targets: Target[], present?: ObjectBound): SelectStatement {
  const where = [...rel.where];
  if (present?.nullable) where.push(sql.isNull(present.id, true));
  return sql.select({
    targets,
    from: rel.from ? [rel.from] : [],
    where: where.length > 0 ? sql.and(...where) : null,
  });
}
