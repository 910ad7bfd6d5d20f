/**
 * plan/rel: the SELECT the planner is assembling (`Rel`) and what a path is bound to in it
 * (`Bound`).
 *
 * A Rel is a join tree (items are added left to right: `inner` multiplies rows, `left` keeps
 * them and leaves NULLs — the planner's representation of an empty optional value), WHERE
 * conditions, order keys inherited from ordered sets lifted into it, and the path ids bound in
 * it. A nested Rel (a subquery) sees its parents' bindings, which is how correlation and Gel's
 * path factoring come out: the same path id in an inner scope is the outer row.
 */
import { sql, type FromItem, type OrderItem, type SqlExpr } from '../../sql';
import type { IrExpr, IrType } from '../ir';

/** Extra columns a lifted link row has (link properties). */
export type LinkRow =
  /** A multi link: the junction row's alias (`source`, `target`, properties by name). */
  | { readonly kind: 'junction'; readonly alias: string }
  /** A single link: columns `link@prop` of the source row. */
  | { readonly kind: 'column'; readonly alias: string; readonly pointer: string };

export type Bound =
  | {
      readonly kind: 'object';
      /** The static type of the set. */
      readonly type: string;
      readonly id: SqlExpr;
      /** The concrete type's name as SQL text. */
      readonly tag: SqlExpr;
      /** An alias whose columns are the object's stored columns, or null (join to read them). */
      readonly alias: string | null;
      readonly link: LinkRow | null;
      /** The element's JSON output, when computed where the set was (a shape in a subquery). */
      readonly out: SqlExpr | null;
      /** True when the row may stand for "no object" (a left join): id NULL. */
      readonly nullable: boolean;
    }
  | {
      readonly kind: 'value';
      readonly type: IrType;
      readonly expr: SqlExpr;
      readonly out: SqlExpr | null;
      /** True when the value may be NULL (an empty optional value). */
      readonly nullable: boolean;
    };

export class Rel {
  from: FromItem | null = null;
  readonly where: SqlExpr[] = [];
  readonly order: OrderItem[] = [];
  /**
   * `for` variables bound here or carried up from the rows of a subquery joined here: each row
   * carries its iteration's value, so a view element reading the variable (`for x in ... union
   * (User { m := x })`, then `.m` outside) finds it.
   */
  readonly carried = new Map<string, Bound>();
  private readonly bindings = new Map<string, Bound>();
  /** Sets without a path id, by node: one occurrence in the query is one element per row. */
  private readonly nodes = new Map<IrExpr, Bound>();

  constructor(readonly parent: Rel | null) {}

  bind(pathId: string, bound: Bound): void {
    this.bindings.set(pathId, bound);
  }

  bindNode(expr: IrExpr, bound: Bound): void {
    this.nodes.set(expr, bound);
  }

  lookupNode(expr: IrExpr): Bound | undefined {
    return this.nodes.get(expr) ?? this.parent?.lookupNode(expr);
  }

  /** The binding of a path id here or in an enclosing Rel. */
  lookup(pathId: string): Bound | undefined {
    return this.bindings.get(pathId) ?? this.parent?.lookup(pathId);
  }

  /** Whether a path id bound in this Rel (not an enclosing one) satisfies `test`. */
  someBoundHere(test: (pathId: string) => boolean): boolean {
    for (const id of this.bindings.keys()) if (test(id)) return true;
    return false;
  }

  /** Adds a FROM item: `inner` (rows multiply; `on` becomes a condition) or `left` (rows kept). */
  join(type: 'inner' | 'left', item: FromItem, on: SqlExpr | null = null): void {
    if (this.from === null) {
      if (type === 'inner') {
        this.from = item;
        if (on) this.where.push(on);
        return;
      }
      // Nothing to keep rows of yet: start from one empty row.
      this.from = sql.subquery(sql.select({ targets: [] }), 'one');
    }
    this.from = sql.join(type, this.from, item, on ?? sql.bool(true));
  }
}
