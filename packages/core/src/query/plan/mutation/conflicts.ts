/**
 * plan/mutation/conflicts: `insert ... unless conflict [on ...] [else ...]`. The new object is
 * inserted only when no object of the constraint's declaring type had the value before the
 * statement (`conflictChecks`: `not exists` conditions on the `src` row); mutations nested in
 * its values write only then (`conflictGuard`); `else` is planned with the conflicting object
 * bound, and the answer is the inserted object or what `else` yields (`withElse`).
 */
import { QueryError } from '../../../errors';
import { pgType, sql, type SqlExpr } from '../../../sql';
import { typeLevelConflictGroups } from '../../ir';
import type { IrExpr } from '../../ir';
import {
  containsMutation,
  type ConflictKey,
  type Insert,
  type MutationElement,
  type Update,
} from '../../ir';
import { OBJECT, type ObjectTypeInfo, type PointerInfo } from '../../schema-index';
import type { PlanContext } from '../context';
import { Rel, type Bound } from '../rel';
import { storedColumns, typeSource } from '../sources';
import { rowsFiltered } from '../access';
import { type Written, nestedGuardsOf, externals, selectFrom } from './common';
import { children } from '../../ir';
import { iterationRefs, sameRank } from './scope';

/**
 * For an insert with `unless conflict`: the condition that its object is inserted (nothing
 * conflicts with the values of its exclusive pointers), evaluated in the Rel of a mutation nested
 * in its values (which binds the same `for` variables), so that mutation writes only then, as in
 * Gel (`insert T { n := x, notes := (insert Note {...}) } unless conflict` inserts no note for an
 * existing `x`). Null when no exclusive pointer has a value to conflict on.
 */
export function conflictGuard(
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
  // A computed exclusive pointer (a key over the row) is compared whatever the insert gives.
  const computed = (conflict.keys ?? []).some((k) => k.row !== undefined);
  // A given id (Insert.id) is compared too: named by `on .id`, or among every exclusive
  // pointer without `on`.
  const idCompared =
    m.id !== undefined && (conflict.on === null || conflict.on.some((p) => p.name === 'id'));
  if (
    !computed &&
    !idCompared &&
    !pointers.some((p) => single.some((e) => e.pointer.name === p.name))
  )
    return null;
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
      id: m.id ? () => ctx.value(rel, m.id as IrExpr) : null,
    });
}

/** Where an insert's values are read: the `src` row's alias (`c<i>` columns for the single
 * elements, `k<j>` for the conflict keys, `id` for a given id), or expressions for them (`id`
 * null: the insert gives none, the database chooses it, nothing can conflict on it). */
type ConflictValues =
  | string
  | {
      readonly single: (at: number) => SqlExpr;
      readonly key: (j: number) => SqlExpr;
      readonly id: (() => SqlExpr) | null;
    };

function valuesOf(s: ConflictValues, m: Insert): Exclude<ConflictValues, string> {
  return typeof s === 'string'
    ? {
        single: (at) => sql.col(`c${at}`, s),
        key: (j) => sql.col(`k${j}`, s),
        id: m.id ? () => sql.col('id', s) : null,
      }
    : s;
}

/** `not exists` conditions on the `src` row `s`: no object of the constraint's declaring type
 * (any concrete table, as it was before the statement) already has the value(s) — of the `on`
 * pointers together, or of each exclusive pointer of the type alone; for a constraint on an
 * expression (`keys`), the expression's value. */
export function conflictChecks(
  ctx: PlanContext,
  m: Insert,
  single: readonly MutationElement[],
  s: ConflictValues,
  pairs?: ReadonlyMap<string, string>,
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
          .filter((p) => p.name !== 'id')
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
          .concat(typeLevelConflictGroups(type))
          .concat(
            m.id ? [{ pointers: [type.pointers.get('id') as PointerInfo], owner: OBJECT }] : [],
          );
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
    out.push(...exists(group.owner, (x) => groupMatch(ctx, m, group, single, x, s, pairs)));
  }
  (conflict.keys ?? []).forEach((key, j) => {
    out.push(...exists(key.owner, (x, tag) => keyMatch(ctx, m, single, key, j, x, tag, s)));
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
  m: Insert,
  single: readonly MutationElement[],
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
  const value = ctx.value(rel, key.existing);
  // An expression reading more than the object's own columns (a computed pointer planned as a
  // lateral subquery): its value for `x` as a scalar subquery.
  const existing =
    rel.from !== null || rel.where.length > 0
      ? sql.scalar(selectFrom(rel, [sql.target(value)]))
      : value;
  const fresh = key.row ? rowValue(ctx, m, single, key, key.row, s) : valuesOf(s, m).key(j);
  return sql.bin('=', existing, fresh);
}

/**
 * A computed pointer's value for the object the insert would write: its expression over a row of
 * the inserted type's stored columns holding the insert's single values (null where it gives
 * none: a default is left to the unique index, as for a plain pointer).
 */
function rowValue(
  ctx: PlanContext,
  m: Insert,
  single: readonly MutationElement[],
  key: ConflictKey,
  row: string,
  s: ConflictValues,
): SqlExpr {
  const values = valuesOf(s, m);
  const targets = [...storedColumns(ctx.index, m.objectType)].map(([column, type]) => {
    const at = single.findIndex((e) => e.pointer.name === column);
    // A value that is itself a write is read from `src` only (planned here, in the guard of
    // that very write, it would plan itself).
    const written =
      at >= 0 && typeof s !== 'string' && containsMutation((single[at] as MutationElement).value);
    return sql.target(at < 0 || written ? sql.cast(sql.null(), type) : values.single(at), column);
  });
  const y = ctx.fresh('cr');
  const rel = new Rel(null);
  rel.join('inner', sql.subquery(sql.select({ targets, from: [], where: null }), y));
  rel.bind(row, {
    kind: 'object',
    type: m.objectType,
    id: sql.cast(sql.null(), pgType('uuid')),
    tag: sql.text(m.objectType),
    alias: y,
    link: null,
    out: null,
    nullable: false,
  });
  const value = ctx.value(rel, key.fresh);
  return sql.scalar(selectFrom(rel, [sql.target(value)]));
}

/** The match of an existing object `x` with the new values for one exclusive group: a multi
 * pointer's (`multiMatch`), else the single pointers' (`conflictMatch`). */
function groupMatch(
  ctx: PlanContext,
  m: Insert,
  group: { readonly pointers: readonly PointerInfo[]; readonly owner: string },
  single: readonly MutationElement[],
  x: string,
  s: ConflictValues,
  pairs: ReadonlyMap<string, string> | undefined,
): SqlExpr | null {
  const [first, ...rest] = group.pointers;
  if (first?.many && rest.length === 0) {
    const newRows = pairs?.get(first.name);
    return newRows && typeof s === 'string'
      ? multiMatch(ctx, group.owner, first, newRows, x, s)
      : null;
  }
  return conflictMatch(group.pointers, single, x, valuesOf(s, m));
}

/**
 * An exclusive multi pointer: some value of the new object (its rows in `newRows`, by `src` row
 * `s`) is one of the existing object `x`'s (the junction rows of any concrete table of the
 * constraint's owner, as they were before the statement).
 */
function multiMatch(
  ctx: PlanContext,
  owner: string,
  pointer: PointerInfo,
  newRows: string,
  x: string,
  s: string,
): SqlExpr | null {
  const n = ctx.fresh('mn');
  const tests = (ctx.index.objectType(owner)?.concrete ?? []).flatMap((c) => {
    const own = ctx.index.objectType(c)?.pointers.get(pointer.name);
    const storage = own ? ctx.index.storage(c, own) : null;
    if (storage?.kind !== 'junction') return [];
    const j = ctx.fresh('mj');
    return [
      sql.exists(
        sql.select({
          targets: [sql.target(sql.num(1))],
          from: [sql.table(storage.table.schema, storage.table.name, j)],
          where: sql.and(
            sql.bin('=', sql.col('source', j), sql.col('id', x)),
            sql.bin('=', sql.col(storage.valueColumn, j), sql.col(storage.valueColumn, n)),
          ),
        }),
      ),
    ];
  });
  if (tests.length === 0) return null;
  return sql.exists(
    sql.select({
      targets: [sql.target(sql.num(1))],
      from: [sql.table(null, newRows, n)],
      where: sql.and(sql.bin('=', sql.col('source', n), sql.col('id', s)), sql.or(...tests)),
    }),
  );
}

/** `x.p = s.c<i>` for each pointer (null when a pointer has no value in the insert: the database
 * default, unknown here, is left to the unique index; an id the database chooses is new). */
function conflictMatch(
  pointers: readonly PointerInfo[],
  single: readonly MutationElement[],
  x: string,
  values: Exclude<ConflictValues, string>,
): SqlExpr | null {
  const parts: SqlExpr[] = [];
  for (const pointer of pointers) {
    if (pointer.name === 'id') {
      if (values.id === null) return null;
      parts.push(sql.bin('=', sql.col('id', x), values.id()));
      continue;
    }
    const at = single.findIndex((e) => e.pointer.name === pointer.name);
    if (at < 0) return null;
    parts.push(sql.bin('=', sql.col(pointer.name, x), values.single(at)));
  }
  return sql.and(...parts);
}

/**
 * `unless conflict on .p else (...)`: the inserted object, or what `else` yields for the object
 * that conflicted — one row either way (the insert wrote only when nothing conflicted).
 */
export function withElse(
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
          ? sql.and(...conflict.keys.map((k, j) => keyMatch(ctx, m, single, k, j, x, rows.tag, s)))
          : null
        : groupMatch(ctx, m, { pointers, owner }, single, x, s, plan.conflictPairs)) ??
      sql.bool(false);
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
            ...sameRank(fresh, ref, i, s),
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

/**
 * `insert ... unless conflict ... else (update ...)` on a type whose update is restricted by
 * access policies is refused before anything runs (the conflicting object, which
 * the caller may not see, would decide between two differently checked writes).
 */
export function refuseGuardedUpsert(ctx: PlanContext, m: Insert): void {
  const otherwise = m.conflict?.else;
  if (!otherwise || !ctx.access.policies) return;
  const updates: Update[] = [];
  const visit = (e: IrExpr): void => {
    if (e.kind === 'Update') updates.push(e);
    for (const c of children(e)) visit(c);
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
