/**
 * sql/codegen/triggers: the integrity triggers of the storage layout (storage/integrity)
 * as DDL: one PL/pgSQL function and one row trigger per spec.
 *
 * Input: `TriggerSpec`s, whose actions name tables and columns (unquoted) and carry SqlExpr
 * trees. Output: `create or replace function`, `create [constraint] trigger` and the matching
 * drops. Invariants:
 * - identifiers through quoteIdent, messages and names in messages through quoteLiteral (no
 *   value of a row is ever spliced: rows are read through `old` / `new`);
 * - the function body is a quoted literal, not dollar-quoted, so no name can end it early;
 * - every function pins `search_path` to `pg_catalog` and names every table with its schema,
 *   and reads no other session setting: the same trigger behaves the same on any connection,
 *   through a transaction-mode pooler too (locks are transaction-scoped);
 * - `#variable_conflict use_column`: a column named like a PL/pgSQL variable is still a column.
 */
import type { SqlExpr } from '../ast';
import { printSql } from '../print';
import { q, type QName } from './ddl';
import { quoteIdent, quoteLiteral } from './quote';

/** The second key of svc's exclusivity locks (`pg_advisory_xact_lock(int, int)`). */
export const EXCLUSIVE_LOCK_CLASS = 0x5e7c_0003;

/** What a trigger does, in order. `old` / `new` are the row the trigger fires for. */
export type TriggerAction =
  /** `new.<column>`, unless null, must be the id of a row of one of `targets` (23503). */
  | {
      readonly kind: 'require-target';
      readonly column: string;
      readonly targets: readonly QName[];
      readonly message: string;
    }
  /**
   * Refuses the deletion of `old` while a row of `from` links to it through `column` (23503).
   * With `sources` (a multi link's junction `from`): only a row whose source object still exists
   * (one statement may delete a source and its target together; the junction row goes with the
   * source, whatever the order of the deletions).
   */
  | {
      readonly kind: 'refuse-if-linked';
      readonly from: QName;
      readonly column: string;
      readonly message: string;
      readonly sources?: QName;
    }
  /** `update from set column = null where column = old.id` (`on target delete allow`). */
  | { readonly kind: 'clear-links'; readonly from: QName; readonly column: string }
  /** `delete from from where column = old.id` (multi-link rows of an `allow` link). */
  | { readonly kind: 'delete-links'; readonly from: QName; readonly column: string }
  /**
   * Deletes the sources linking to `old` (`on target delete delete source`): for a single link,
   * the rows of `sources` whose `column` is `old.id`; for a multi link (`junction` set), the
   * rows of `sources` that `junction` pairs with `old.id`.
   */
  | {
      readonly kind: 'delete-sources';
      readonly sources: QName;
      readonly column: string;
      readonly junction: QName | null;
    }
  /**
   * On a multi link's junction table: when the row went because its target did (the target's
   * foreign key cascades), deletes the source `old.source` too (`delete source`).
   */
  | {
      readonly kind: 'delete-source-if-target-gone';
      readonly sources: QName;
      readonly targets: readonly QName[];
    }
  /**
   * Deletes the target `old.<value>` from every table of `targets` (`on source delete delete
   * target`): only once the source is gone (`sourceGone`: `old.<column>` is no longer an id of
   * that table; a multi link's junction row also goes when the link is merely unset), and, with
   * `orphanIn`, only when no row of those tables still links to it (`... if orphan`).
   */
  | {
      readonly kind: 'delete-target';
      readonly value: string;
      readonly targets: readonly QName[];
      readonly sourceGone: { readonly table: QName; readonly column: string } | null;
      readonly orphanIn: readonly { readonly table: QName; readonly column: string }[] | null;
    }
  /**
   * An exclusive constraint over several tables (a type hierarchy): under a transaction lock on
   * the constraint, refuses `new` when `where` holds for it and a row of another table of the
   * hierarchy has the same `elements` (23505). Elements are over the table's unqualified columns.
   */
  | {
      readonly kind: 'exclusive';
      readonly lockKey: number;
      readonly constraint: string;
      readonly elements: readonly SqlExpr[];
      readonly where: SqlExpr | null;
      readonly others: readonly {
        readonly table: QName;
        readonly elements: readonly SqlExpr[];
        readonly where: SqlExpr | null;
      }[];
      readonly message: string;
    };

export interface TriggerSpec {
  /** The table it fires on. */
  readonly table: QName;
  /** The trigger's name (unique on its table) and its function's (in the table's schema). */
  readonly name: string;
  readonly timing: 'before' | 'after';
  readonly events: readonly ('insert' | 'update' | 'delete')[];
  /** `update of <columns>`; null: any update (when `update` is an event). */
  readonly updateOf: readonly string[] | null;
  /** A constraint trigger checked at commit (`deferred restrict`). */
  readonly deferred: boolean;
  readonly actions: readonly TriggerAction[];
}

/** Every unqualified column of `expr` read from `table` (`new`, or a subquery's alias). */
export function qualifyColumns(expr: SqlExpr, table: string): SqlExpr {
  const walk = (e: SqlExpr): SqlExpr => {
    switch (e.kind) {
      case 'ColumnRef':
        return e.table === null ? { ...e, table } : e;
      case 'FuncCall':
        return { ...e, args: e.args.map(walk) };
      case 'BinOp':
        return { ...e, left: walk(e.left), right: walk(e.right) };
      case 'UnaryOp':
        return { ...e, operand: walk(e.operand) };
      case 'Cast':
      case 'Collate':
      case 'Paren':
        return { ...e, expr: walk(e.expr) };
      case 'Case':
        return {
          ...e,
          whens: e.whens.map((w) => ({ when: walk(w.when), then: walk(w.then) })),
          else: e.else === null ? null : walk(e.else),
        };
      case 'ArrayExpr':
      case 'RowExpr':
        return { ...e, elements: e.elements.map(walk) };
      case 'Subscript':
        return { ...e, expr: walk(e.expr), index: walk(e.index) };
      case 'Slice':
        return {
          ...e,
          expr: walk(e.expr),
          lower: e.lower === null ? null : walk(e.lower),
          upper: e.upper === null ? null : walk(e.upper),
        };
      case 'InList':
        return { ...e, expr: walk(e.expr), list: e.list.map(walk) };
      case 'AnyOp':
        return { ...e, left: walk(e.left), array: walk(e.array) };
      default:
        return e;
    }
  };
  return walk(expr);
}

const ID = quoteIdent('id');
const col = (row: string, name: string) => `${row}.${quoteIdent(name)}`;

function raise(code: string, message: string, constraint?: string): string {
  const extra = constraint === undefined ? '' : `, constraint = ${quoteLiteral(constraint)}`;
  return `raise exception using errcode = ${quoteLiteral(code)}, message = ${message}${extra};`;
}

function tuple(elements: readonly SqlExpr[], row: string): string {
  const printed = elements.map((e) => printSql(qualifyColumns(e, row)));
  return printed.length === 1 ? `(${printed[0]})` : `row(${printed.join(', ')})`;
}

function action(a: TriggerAction): string {
  switch (a.kind) {
    case 'require-target': {
      const found = a.targets.map(
        (t) => `exists (select 1 from ${q(t)} as t where t.${ID} = ${col('new', a.column)})`,
      );
      const any = found.length === 0 ? 'false' : found.join(' or ');
      return `if ${col('new', a.column)} is not null and not (${any}) then ${raise('23503', `${quoteLiteral(a.message)} || ' (' || ${col('new', a.column)}::text || ')'`)} end if;`;
    }
    case 'refuse-if-linked': {
      const live = a.sources
        ? ` and exists (select 1 from ${q(a.sources)} as o where o.${ID} = s.${quoteIdent('source')})`
        : '';
      return `if exists (select 1 from ${q(a.from)} as s where s.${quoteIdent(a.column)} = ${col('old', 'id')}${live}) then ${raise('23503', `${quoteLiteral(a.message)} || ' (' || ${col('old', 'id')}::text || ')'`)} end if;`;
    }
    case 'clear-links':
      return `update ${q(a.from)} set ${quoteIdent(a.column)} = null where ${quoteIdent(a.column)} = ${col('old', 'id')};`;
    case 'delete-links':
      return `delete from ${q(a.from)} where ${quoteIdent(a.column)} = ${col('old', 'id')};`;
    case 'delete-sources':
      return a.junction === null
        ? `delete from ${q(a.sources)} where ${quoteIdent(a.column)} = ${col('old', 'id')};`
        : `delete from ${q(a.sources)} where ${ID} in (select j.${quoteIdent('source')} from ${q(a.junction)} as j where j.${quoteIdent(a.column)} = ${col('old', 'id')});`;
    case 'delete-source-if-target-gone': {
      const gone = a.targets.map(
        (t) =>
          ` and not exists (select 1 from ${q(t)} as t where t.${ID} = ${col('old', 'target')})`,
      );
      return `if true${gone.join('')} then delete from ${q(a.sources)} where ${ID} = ${col('old', 'source')}; end if;`;
    }
    case 'delete-target': {
      const value = col('old', a.value);
      const orphan = (a.orphanIn ?? []).map(
        (o) =>
          ` and not exists (select 1 from ${q(o.table)} as o where o.${quoteIdent(o.column)} = ${value})`,
      );
      const deletes = a.targets
        .map((t) => `delete from ${q(t)} where ${ID} = ${value}${orphan.join('')};`)
        .join(' ');
      const gone = a.sourceGone
        ? ` and not exists (select 1 from ${q(a.sourceGone.table)} as s where s.${ID} = ${col('old', a.sourceGone.column)})`
        : '';
      return `if ${value} is not null${gone} then ${deletes} end if;`;
    }
    case 'exclusive': {
      const mine = tuple(a.elements, 'new');
      const clash = a.others.map((o) => {
        const where = o.where ? ` and (${printSql(qualifyColumns(o.where, 't'))}) is true` : '';
        return `exists (select 1 from ${q(o.table)} as t where ${tuple(o.elements, 't')} = ${mine}${where})`;
      });
      const applies = a.where ? `(${printSql(qualifyColumns(a.where, 'new'))}) is true and ` : '';
      return `perform pg_advisory_xact_lock(${EXCLUSIVE_LOCK_CLASS}, ${a.lockKey}); if ${applies}(${clash.join(' or ') || 'false'}) then ${raise('23505', quoteLiteral(a.message), a.constraint)} end if;`;
    }
  }
}

function body(spec: TriggerSpec): string {
  const result = spec.timing === 'before' ? 'return old;' : 'return null;';
  return `#variable_conflict use_column\nbegin ${spec.actions.map(action).join(' ')} ${result} end`;
}

const functionName = (spec: TriggerSpec): QName => ({ schema: spec.table.schema, name: spec.name });

/**
 * For a migration's data check on a new `exclusive` trigger: the values it would refuse among
 * stored rows (one value in several tables of the hierarchy, or twice in one), at most 20.
 * Every table of a hierarchy has such a trigger; the check comes with the first table's only.
 * `stored` tells which tables exist before the migration: the check runs before any step, and
 * a table the migration creates holds no rows yet (null when no table of the hierarchy exists).
 */
export function sharedDuplicates(
  spec: TriggerSpec,
  stored: (table: QName) => boolean,
): string | null {
  const a = spec.actions.find((x) => x.kind === 'exclusive');
  if (!a || a.kind !== 'exclusive') return null;
  const order = (t: QName) => `${t.schema}\u0000${t.name}`;
  if (a.others.some((o) => order(o.table) < order(spec.table))) return null;
  const tables = [{ table: spec.table, elements: a.elements, where: a.where }, ...a.others].filter(
    (o) => stored(o.table),
  );
  if (tables.length === 0) return null;
  const selects = tables.map((o) => {
    const printed = o.elements.map((e) => printSql(qualifyColumns(e, 't')));
    const values = printed.map((e, i) => `${e} as ${quoteIdent(`value${i + 1}`)}`);
    const present = printed.map((e) => `(${e}) is not null`);
    if (o.where) present.push(`(${printSql(qualifyColumns(o.where, 't'))}) is true`);
    return `select ${values.join(', ')} from ${q(o.table)} as t where ${present.join(' and ')}`;
  });
  const keys = a.elements.map((_, i) => quoteIdent(`value${i + 1}`)).join(', ');
  return `select ${keys}, count(*) as ${quoteIdent('count')} from (${selects.join(' union all ')}) as found group by ${keys} having count(*) > 1 order by count(*) desc limit 20`;
}

export const triggerDdl = {
  createFunction: (spec: TriggerSpec) =>
    `create or replace function ${q(functionName(spec))}() returns trigger language plpgsql set search_path = pg_catalog as ${quoteLiteral(body(spec))}`,
  createTrigger: (spec: TriggerSpec) => {
    const events = spec.events
      .map((e) =>
        e === 'update' && spec.updateOf
          ? `update of ${spec.updateOf.map(quoteIdent).join(', ')}`
          : e,
      )
      .join(' or ');
    const kind = spec.deferred ? 'constraint trigger' : 'trigger';
    const deferral = spec.deferred ? ' deferrable initially deferred' : '';
    return `create ${kind} ${quoteIdent(spec.name)} ${spec.timing} ${events} on ${q(spec.table)}${deferral} for each row execute function ${q(functionName(spec))}()`;
  },
  dropTrigger: (spec: TriggerSpec) =>
    `drop trigger if exists ${quoteIdent(spec.name)} on ${q(spec.table)}`,
  dropFunction: (spec: TriggerSpec) => `drop function if exists ${q(functionName(spec))}()`,
};
