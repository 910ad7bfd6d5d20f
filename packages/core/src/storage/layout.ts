/**
 * storage/layout: where a Schema's data lives in PostgreSQL, as structured specs that
 * sql/codegen/ddl prints and schema/diff compares (their shapes: ./layout-types).
 *
 * Input: a built Schema. Output: a `StorageLayout`. Deterministic; the expressions in it (defaults,
 * checks, index elements) come from the DDL expression compiler the layout is handed
 * (./ddl-compiler). The parts: tables (./tables), their constraints (./constraints) and indexes
 * (./indexes), domains (./domains), views (./views), triggers (./integrity).
 * Decisions (see also ./types):
 * - one PostgreSQL schema per module, named as the module (`"default"`);
 * - a table per concrete object type, named after the type (`"default"."User"`) with
 *   `"id" uuid primary key default svc_meta.uuid_generate_v7()`;
 * - a stored single property or link is a column named after the pointer (a link is the
 *   target's uuid); link properties of a single link are columns `"<link>@<prop>"`; required
 *   → NOT NULL; computed pointers have no column;
 * - a multi link is a table `"<Type>.<link>"` (`source`, `target`, link properties; primary key
 *   (source, target); index on target); a multi property is `"<Type>.<prop>"` (`source`,
 *   `value`; multisets, so no primary key; index on source). `source` references the owner with
 *   `on delete cascade`;
 * - a link's foreign key follows `on target delete`: restrict → `no action` (checked at the end
 *   of the statement, as Gel does), deferred restrict → `no action deferrable initially
 *   deferred`, allow → `set null` (single) / `cascade` (the junction row), delete source →
 *   `cascade` (for a multi link that removes the link row; deleting the source object itself is
 *   ./integrity's triggers). A link whose target is abstract, has subtypes or is a union has
 *   rows in several tables, so it gets NO foreign key: ./integrity's triggers check its target
 *   and apply `on target delete`; each single link column is indexed (`"<Type>.<link>.index"`),
 *   so an `index on (.link)` alone is skipped as redundant;
 * - a property default compiles to the column default (the DDL expression compiler, ./ddl-compiler); a default the database
 *   cannot evaluate (a query, a global) has no column default and is applied by the query
 *   compiler (`queryDefault`);
 * - `exclusive` → a unique index; `except (...)` → a partial index; other constraints → CHECKs.
 *   A pointer constraint on a multi property applies to each value (in its table). Exclusive
 *   across a type hierarchy is a unique index per table plus ./integrity's cross-table check;
 * - `on source delete` policies and the triggers above: ./integrity;
 * - abstract types are views: UNION ALL over the concrete descendants of the columns the type
 *   declares, plus `"__type__"` (the concrete type's name, a constant per branch — no column is
 *   stored per row). Concrete types with subtypes have no view (the compiler unions);
 * - custom scalars are domains (with their CHECKs); a custom scalar extending `sequence` gets a
 *   SEQUENCE `"<Scalar>.seq"` and the domain defaults to its nextval.
 */
import type { Schema } from '../model/schema';
import type { StorageLayout } from './layout-types';
import { orderDomains, domainLayout } from './domains';
import { typeTable } from './tables';
import { viewLayout } from './views';
import { integrityTriggers } from './integrity';

export type {
  DomainLayout,
  JunctionTable,
  OwnedCheck,
  OwnedForeignKey,
  OwnedIndex,
  PointerColumn,
  StorageLayout,
  TypeTable,
  ViewLayout,
} from './layout-types';
export { concreteTablesOf, singleTable, targetTablesOf } from './hierarchy';
export { viewSignature } from './views';
export { columnName, domainName, pointerTableName, sequenceName, tableName } from './names';

const layouts = new WeakMap<Schema, StorageLayout>();

/** The storage layout of a schema (memoised per Schema object: schemas are immutable). */
export function storageLayout(schema: Schema): StorageLayout {
  let layout = layouts.get(schema);
  if (!layout) {
    layout = buildLayout(schema);
    layouts.set(schema, layout);
  }
  return layout;
}

function buildLayout(schema: Schema): StorageLayout {
  const modules = new Set<string>();
  const domains = orderDomains(schema).map((s) => domainLayout(schema, s));
  for (const d of domains) modules.add(d.spec.name.schema);
  const tables = schema.objectTypes.filter((t) => !t.abstract).map((t) => typeTable(schema, t));
  for (const t of tables) modules.add(t.table.schema);
  const views = schema.objectTypes.filter((t) => t.abstract).map((t) => viewLayout(schema, t));
  for (const v of views) modules.add(v.spec.name.schema);
  const triggers = integrityTriggers(schema, tables);
  return { modules: [...modules].sort(), domains, tables, views, triggers };
}
