/**
 * plan/mutation/common: what the mutation modules share — the per-compilation registries (the
 * mutations planned so far, the guards of `unless conflict` inserts being planned, the objects
 * bound outside a mutation that its CTEs find again, the unconditional `with` writes) and small
 * SQL helpers.
 */
import { QueryError } from '../../../errors';
import {
  concatText,
  pgType,
  sql,
  type FromItem,
  type SelectStatement,
  type SqlExpr,
  type Target,
} from '../../../sql';
import { raise } from '../../../std/operators';
import { pgTypeFor } from '../../../std/scalars';
import type { BindingRef, IrExpr, IrType } from '../../ir';
import type { PointerInfo } from '../../schema-index';
import { typeSource } from '../sources';
import type { PlanContext } from '../context';
import type { Rel, Bound } from '../rel';

export type ObjectBound = Extract<Bound, { kind: 'object' }>;

/** What the output of a mutation needs to know about its CTEs. */
export interface Written {
  /** Concrete type → the CTE holding its written rows (`returning *`). */
  readonly rows: ReadonlyMap<string, string>;
  /** Multi pointer name → how to read its rows after the statement. */
  readonly multi: ReadonlyMap<string, MultiState>;
  /**
   * An insert's `unless conflict` on exclusive multi pointers: pointer name → the CTE of the
   * new `(source, value)` rows, planned from `src` before the insert (its conflict check reads them).
   */
  readonly conflictPairs?: ReadonlyMap<string, string>;
}

/** A multi pointer's junction rows after the statement, for the written objects. */
export type MultiState =
  | { readonly kind: 'replaced'; readonly pairs: string }
  | { readonly kind: 'added'; readonly pairs: string }
  | { readonly kind: 'removed'; readonly pairs: string };

/** Mutations already planned in a compilation: planned (written) once, however often read. */
export const planned = new WeakMap<PlanContext, Map<string, { src: string; plan: Written }>>();

/** Per compilation: the conditions of the `unless conflict` inserts whose values are being
 * planned, innermost last (see `conflictGuard`). */
const nestedGuards = new WeakMap<PlanContext, ((rel: Rel) => SqlExpr[])[]>();

export function nestedGuardsOf(ctx: PlanContext): ((rel: Rel) => SqlExpr[])[] {
  let list = nestedGuards.get(ctx);
  if (!list) {
    list = [];
    nestedGuards.set(ctx, list);
  }
  return list;
}

/** Objects bound outside a mutation that its own CTEs must find again (the conflicting object of
 * an `unless conflict ... else`): path id → how to join it into a fresh Rel. */
export const externals = new WeakMap<PlanContext, Map<string, (rel: Rel) => Bound>>();

/** Per compilation: the path ids of the mutations of `with` bindings (IrQuery.sideEffects). */
export const unconditional = new WeakMap<PlanContext, Set<string>>();

export function iterationBound(ref: BindingRef, value: SqlExpr): Bound {
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

export function objectOf(ctx: PlanContext, rel: Rel, expr: IrExpr): ObjectBound {
  const bound = ctx.lift(rel, expr);
  if (bound.kind !== 'object') throw new QueryError('update and delete apply to objects');
  return bound;
}

export function concreteOf(ctx: PlanContext, subject: IrExpr): readonly string[] {
  return ctx.index.objectType((subject.type as { name: string }).name)?.concrete ?? [];
}

/** `CASE WHEN when THEN then END`. */
export function caseWhen(when: SqlExpr, then: SqlExpr): SqlExpr {
  return { kind: 'Case', whens: [{ when, then }], else: null };
}

/** `select targets from rel's FROM where rel's conditions` (and the subject present). */
export function selectFrom(rel: Rel, targets: Target[], present?: ObjectBound): SelectStatement {
  const where = [...rel.where];
  if (present?.nullable) where.push(sql.isNull(present.id, true));
  return sql.select({
    targets,
    from: rel.from ? [rel.from] : [],
    where: where.length > 0 ? sql.and(...where) : null,
  });
}

/**
 * A link value written for objects of `concrete`, whose own declaration of the link may narrow
 * the target (`overloaded link status -> MajorLifeEvent` in a subtype): an update through a
 * parent type checks at run time that the value is an object of the narrowed target, as Gel
 * does, else raises InvalidLinkTargetError (SQLSTATE 42809, wrong_object_type) naming the type
 * given. Values statically of the narrowed target are not checked.
 */
export function covariantTarget(
  ctx: PlanContext,
  concrete: string,
  pointer: PointerInfo,
  valueType: IrType,
  value: SqlExpr,
): SqlExpr {
  const own = ctx.index.objectType(concrete)?.pointers.get(pointer.name);
  if (own?.kind !== 'link' || own.target.kind !== 'object' || pointer.target.kind !== 'object')
    return value;
  const narrow = own.target.name;
  if (narrow === pointer.target.name) return value;
  const given = valueType.kind === 'object' ? ctx.index.objectType(valueType.name) : undefined;
  if (given && (given.name === narrow || given.ancestors.includes(narrow))) return value;
  const x = ctx.fresh('ct');
  const inNarrow = typeSource(ctx, narrow, x, { visible: true });
  const y = ctx.fresh('ct');
  const wide = typeSource(ctx, pointer.target.name, y, { visible: true });
  const fits = sql.exists(
    sql.select({
      targets: [sql.target(sql.num(1))],
      from: [inNarrow.item],
      where: sql.bin('=', sql.col('id', x), value),
    }),
  );
  const actual = sql.scalar(
    sql.select({
      targets: [sql.target(wide.tag)],
      from: [wide.item],
      where: sql.bin('=', sql.col('id', y), value),
    }),
  );
  const message = concatText([
    sql.text(`invalid target for link '${pointer.name}' of object type '${concrete}': '`),
    actual,
    sql.text(`' (expecting '${narrow}')`),
  ]);
  return {
    kind: 'Case',
    whens: [{ when: sql.or(sql.isNull(value), fits), then: value }],
    else: raise(value, pgType('uuid'), message, '42809'),
  };
}

/**
 * The new value of an exclusive pointer of an object of `concrete` (its id `source`), checked
 * against the objects as they were before the statement (Gel's rule: one statement cannot free
 * a value and take it again, as deleting its holder and giving the value to another object),
 * the object itself aside: a conflict raises ConstraintViolationError (SQLSTATE 23505). A single
 * pointer compares the owner's rows, a multi pointer its junction rows. The unique indexes and
 * triggers hold the rows as the statement leaves them.
 */
export function exclusiveAsBefore(
  ctx: PlanContext,
  concrete: string,
  pointer: PointerInfo,
  value: SqlExpr,
  source: SqlExpr,
): SqlExpr {
  const conflict = exclusiveConflict(ctx, concrete, pointer, value, source);
  if (conflict === null) return value;
  return { kind: 'Case', whens: [conflict], else: value };
}

/**
 * `exclusiveAsBefore`'s test and its error as one CASE branch (`when <taken> then raise(...)`),
 * or null when the pointer has no exclusive constraint to check. An UPDATE checks its values
 * with it in a CTE of their own (update.ts), not inside its SET.
 */
export function exclusiveConflict(
  ctx: PlanContext,
  concrete: string,
  pointer: PointerInfo,
  value: SqlExpr,
  source: SqlExpr,
): { readonly when: SqlExpr; readonly then: SqlExpr } | null {
  const own = ctx.index.objectType(concrete)?.pointers.get(pointer.name) ?? pointer;
  const owners = new Set(
    (own.model?.constraints ?? [])
      .filter((c) => c.name === 'std::exclusive' && c.subjectExpr === null && c.except === null)
      .map((c) => (c.delegated ? concrete : c.declaredIn)),
  );
  const exists = (from: FromItem, where: SqlExpr) =>
    sql.exists(sql.select({ targets: [sql.target(sql.num(1))], from: [from], where }));
  const taken = [...owners].flatMap((owner) => {
    if (!own.many) {
      const x = ctx.fresh('ex');
      const rows = typeSource(ctx, owner, x, { written: false, visible: true });
      return [
        exists(
          rows.item,
          sql.and(
            sql.bin('=', sql.col(pointer.name, x), value),
            sql.bin('<>', sql.col('id', x), source),
          ),
        ),
      ];
    }
    return (ctx.index.objectType(owner)?.concrete ?? []).flatMap((c) => {
      const theirs = ctx.index.objectType(c)?.pointers.get(pointer.name);
      const storage = theirs ? ctx.index.storage(c, theirs) : null;
      if (storage?.kind !== 'junction') return [];
      const j = ctx.fresh('ex');
      return [
        exists(
          sql.table(storage.table.schema, storage.table.name, j),
          sql.and(
            sql.bin('=', sql.col(storage.valueColumn, j), value),
            sql.bin('<>', sql.col('source', j), source),
          ),
        ),
      ];
    });
  });
  if (taken.length === 0) return null;
  const type = pointer.kind === 'link' ? pgType('uuid') : pgTypeFor(pointer.target);
  const message = sql.text(`${pointer.name} violates exclusivity constraint`);
  return { when: sql.or(...taken), then: raise(value, type, message, '23505') };
}
