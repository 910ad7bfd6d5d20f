/**
 * schema/storage/layout: where a Schema's data lives in PostgreSQL, as structured specs that
 * sql/codegen/ddl prints and schema/diff compares.
 *
 * Input: a built Schema. Output: a `StorageLayout`. Pure and deterministic.
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
import * as ql from '../syntax';
import { InvalidConstraintDefinitionError, InvalidDefinitionError } from '../errors';
import { ROOT_OBJECT_TYPES, targetObjectTypes } from '../model/schema';
import type {
  Constraint,
  Index,
  ObjectType,
  OnTargetDelete,
  Pointer,
  ScalarType,
  Schema,
  TypeRef,
} from '../model/schema';
import { pgType, sql, type PgType, type SqlExpr } from '../sql/ast';
import { ddlCompiler, type ScalarContext } from './ddl-compiler';
import type {
  CheckSpec,
  ColumnSpec,
  DomainSpec,
  ForeignKeySpec,
  IndexSpec,
  OnDelete,
  QName,
  ViewSpec,
} from '../sql/codegen/ddl';
import { pgName, shortHash } from '../sql/codegen/names';
import { columnName, domainName, pointerTableName, sequenceName, tableName } from './names';
import { quoteQualified } from '../sql/codegen/quote';
import { findScalar, pgTypeOf, splitName } from './types';
import type { TriggerSpec } from '../sql/codegen/triggers';
import { integrityTriggers } from './integrity';
import { FTS_INDEX, FTS_LANGUAGES, FTS_WITH_OPTIONS } from '../model/fts';

export interface StorageLayout {
  /** PostgreSQL schemas needed (modules with a table, view or domain), sorted. */
  readonly modules: readonly string[];
  /** In dependency order (a base before the scalars extending it). */
  readonly domains: readonly DomainLayout[];
  readonly tables: readonly TypeTable[];
  readonly views: readonly ViewLayout[];
  /** What foreign keys and unique indexes cannot hold (./integrity), sorted. */
  readonly triggers: readonly TriggerSpec[];
}

export interface DomainLayout {
  readonly scalar: string;
  readonly spec: DomainSpec;
  readonly sequence: QName | null;
}

export interface PointerColumn {
  readonly pointer: string;
  readonly kind: 'property' | 'link';
  /** For `default::User.email`-style subjects. */
  readonly subject: string;
  readonly target: TypeRef;
  readonly column: ColumnSpec;
  /** The default is applied by the query compiler (not expressible as a column default). */
  readonly queryDefault: boolean;
}

export interface JunctionTable {
  readonly pointer: string;
  readonly kind: 'property' | 'link';
  readonly subject: string;
  readonly target: TypeRef;
  readonly table: QName;
  /** `target` (links) or `value` (properties). */
  readonly valueColumn: 'target' | 'value';
  readonly columns: readonly ColumnSpec[];
  readonly primaryKey: readonly string[] | null;
}

export interface OwnedForeignKey {
  readonly subject: string;
  readonly pointer: string;
  readonly spec: ForeignKeySpec;
}

export interface OwnedCheck {
  /** `default::User.age` or `default::User`. */
  readonly subject: string;
  /** `std::max_value(150)` — for descriptions. */
  readonly label: string;
  readonly spec: CheckSpec;
  /** Key columns to list offending rows by (`id`, or `source` + `value`). */
  readonly keys: readonly string[];
}

export interface OwnedIndex {
  readonly subject: string;
  readonly kind: 'constraint' | 'index' | 'link';
  readonly label: string;
  readonly spec: IndexSpec;
  /**
   * For an `exclusive` constraint a type hierarchy shares (not delegated): the constraint's
   * identity, the same in every table of the hierarchy (./integrity checks across them).
   */
  readonly shared?: string;
}

export interface TypeTable {
  readonly type: string;
  readonly table: QName;
  /** `id` first, then stored single pointers in the type's order. */
  readonly columns: readonly PointerColumn[];
  readonly junctions: readonly JunctionTable[];
  readonly foreignKeys: readonly OwnedForeignKey[];
  readonly checks: readonly OwnedCheck[];
  readonly indexes: readonly OwnedIndex[];
}

export interface ViewLayout {
  readonly type: string;
  readonly spec: ViewSpec;
}

// ---------------------------------------------------------------------------------------------
// Names (./names: the structure the query compiler's schema index reads, without expressions)

export { columnName, domainName, pointerTableName, sequenceName, tableName } from './names';

const ID_DEFAULT: SqlExpr = sql.func('uuid_generate_v7', [], 'svc_meta');

// ---------------------------------------------------------------------------------------------

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

/**
 * Concrete types whose tables hold rows of `type` (itself if concrete, and its descendants;
 * every concrete type for the roots `std::BaseObject` and `std::Object`).
 */
export function concreteTablesOf(schema: Schema, type: string): ObjectType[] {
  const root = (ROOT_OBJECT_TYPES as readonly string[]).includes(type);
  return schema.objectTypes.filter(
    (t) => !t.abstract && (root || t.name === type || t.ancestors.includes(type)),
  );
}

/** Concrete types whose tables hold rows a link to `target` may reach (a union: any member's). */
export function targetTablesOf(schema: Schema, target: TypeRef): ObjectType[] {
  const names = new Set(
    targetObjectTypes(target).flatMap((t) => concreteTablesOf(schema, t).map((c) => c.name)),
  );
  return schema.objectTypes.filter((t) => names.has(t.name));
}

function orderDomains(schema: Schema): ScalarType[] {
  const out: ScalarType[] = [];
  const seen = new Set<string>();
  const visit = (s: ScalarType): void => {
    if (seen.has(s.name)) return;
    seen.add(s.name);
    const base = findScalar(schema, s.base);
    if (base) visit(base);
    if (!s.abstract) out.push(s);
  };
  for (const s of schema.scalarTypes) visit(s);
  return out;
}

function domainLayout(schema: Schema, scalar: ScalarType): DomainLayout {
  const [module, short] = splitName(scalar.name);
  const name = domainName(scalar.name);
  const baseScalar = findScalar(schema, scalar.base);
  const base: PgType = scalar.enumValues
    ? pgType('text')
    : baseScalar && !baseScalar.abstract
      ? pgTypeOf({ kind: 'scalar', name: scalar.base })
      : pgTypeOf({ kind: 'scalar', name: scalar.stdBase });
  const checks: { name: string; expr: SqlExpr }[] = [];
  if (scalar.enumValues) {
    checks.push({
      name: pgName(`${short}.enum`),
      expr: {
        kind: 'InList',
        expr: { kind: 'DomainValue' },
        list: scalar.enumValues.map((v) => sql.text(v)),
        negated: false,
      },
    });
  }
  const valueType: TypeRef = { kind: 'scalar', name: scalar.stdBase };
  const ctx: ScalarContext = {
    schema,
    module,
    mode: 'domain',
    subject: { kind: 'value', type: valueType },
  };
  const own = scalar.constraints.filter(
    (c) => c.declaredIn === scalar.name || !baseScalar || baseScalar.abstract,
  );
  const named = constraintNames(own, short);
  own.forEach((c, i) => {
    if (c.name === 'std::exclusive') {
      throw new InvalidConstraintDefinitionError(
        `exclusive cannot be declared on scalar type ${scalar.name}`,
        { position: spanPos(c.span) },
      );
    }
    checks.push({ name: named[i] as string, expr: ddlCompiler().compileConstraint(c, ctx) });
  });
  const sequence = scalar.stdBase === 'std::sequence' ? sequenceName(scalar.name) : null;
  const dflt = sequence
    ? sql.func('nextval', [
        sql.cast(sql.text(quoteQualified(sequence.schema, sequence.name)), pgType('regclass')),
      ])
    : null;
  return { scalar: scalar.name, spec: { name, base, default: dflt, checks }, sequence };
}

function spanPos(span: ql.Span | null): { line: number; column: number } | undefined {
  return span ? { line: span.start.line, column: span.start.column } : undefined;
}

/** `max_value` for `std::max_value`, `positive` for `default::positive`. */
function shortConstraint(name: string): string {
  return splitName(name)[1];
}

function constraintLabel(c: Constraint): string {
  const args = c.args.map((a) => ql.printExpression(a)).join(', ');
  const on = c.subjectExpr ? ` on (${ql.printExpression(c.subjectExpr)})` : '';
  return `${c.name}${c.args.length ? `(${args})` : ''}${on}`;
}

/**
 * Names for constraints on one subject: `<prefix>.<constraint>`; an `expression` constraint, or
 * one of several of the same name, also gets a hash of its text so names follow content.
 */
function constraintNames(constraints: readonly Constraint[], prefix: string): string[] {
  const counts = new Map<string, number>();
  for (const c of constraints) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  return constraints.map((c) => {
    const base = `${prefix}.${shortConstraint(c.name)}`;
    const hashed =
      c.name === 'std::expression' || (counts.get(c.name) ?? 0) > 1 || c.subjectExpr !== null;
    return pgName(
      hashed
        ? `${base}.${shortHash(constraintLabel(c) + (c.except ? ` except ${ql.printExpression(c.except)}` : ''))}`
        : base,
    );
  });
}

function onDelete(
  policy: OnTargetDelete | null,
  multi: boolean,
): { onDelete: OnDelete; deferred: boolean } {
  switch (policy ?? 'restrict') {
    case 'restrict':
      return { onDelete: 'no action', deferred: false };
    case 'deferred restrict':
      return { onDelete: 'no action', deferred: true };
    case 'allow':
      return { onDelete: multi ? 'cascade' : 'set null', deferred: false };
    case 'delete source':
      return { onDelete: 'cascade', deferred: false };
  }
}

/**
 * The one table rows of `type` live in, if there is exactly one (concrete, no subtypes): a
 * link there gets a foreign key; any other target is polymorphic (./integrity's triggers).
 */
export function singleTable(schema: Schema, type: TypeRef): QName | null {
  if (type.kind !== 'object') return null;
  const tables = concreteTablesOf(schema, type.name);
  return tables.length === 1 && tables[0]?.name === type.name ? tableName(type.name) : null;
}

function isStored(p: Pointer): boolean {
  return p.computed === null;
}

function compileDefault(
  schema: Schema,
  module: string,
  p: Pointer,
): { sql: SqlExpr | null; queryDefault: boolean } {
  if (!p.default) return { sql: null, queryDefault: false };
  try {
    const compiled = ddlCompiler().compileScalar(p.default, {
      schema,
      module,
      mode: 'default',
      subject: { kind: 'none' },
    });
    return { sql: compiled.sql, queryDefault: false };
  } catch (error) {
    // A default PostgreSQL cannot evaluate (a query, a global, a path): the query compiler
    // applies it on insert.
    if (error instanceof InvalidDefinitionError) return { sql: null, queryDefault: true };
    throw error;
  }
}

function typeTable(schema: Schema, type: ObjectType): TypeTable {
  const [module, short] = splitName(type.name);
  const table = tableName(type.name);
  const columns: PointerColumn[] = [];
  const junctions: JunctionTable[] = [];
  const foreignKeys: OwnedForeignKey[] = [];
  const checks: OwnedCheck[] = [];
  const indexes: OwnedIndex[] = [];
  for (const p of type.pointers) {
    if (!isStored(p)) {
      computedConstraints(schema, type, p, table, checks, indexes);
      continue;
    }
    const subject = `${type.name}.${p.name}`;
    if (p.name === 'id') {
      columns.push({
        pointer: 'id',
        kind: 'property',
        subject,
        target: p.target,
        column: {
          name: 'id',
          type: pgType('uuid'),
          notNull: true,
          default: ID_DEFAULT,
          primaryKey: true,
        },
        queryDefault: false,
      });
      continue;
    }
    const dflt = compileDefault(schema, module, p);
    if (p.cardinality === 'one') {
      columns.push({
        pointer: p.name,
        kind: p.kind,
        subject,
        target: p.target,
        column: {
          name: columnName(p.name),
          type: pgTypeOf(p.target),
          notNull: p.required,
          default: dflt.sql,
        },
        queryDefault: dflt.queryDefault,
      });
      if (p.kind === 'link') {
        for (const lp of p.properties) {
          if (!isStored(lp)) continue;
          const lpDefault = compileDefault(schema, module, lp);
          columns.push({
            pointer: `${p.name}@${lp.name}`,
            kind: 'property',
            subject: `${subject}@${lp.name}`,
            target: lp.target,
            column: {
              name: columnName(p.name, lp.name),
              type: pgTypeOf(lp.target),
              notNull: false,
              default: lpDefault.sql,
            },
            queryDefault: lpDefault.queryDefault,
          });
        }
        const target = singleTable(schema, p.target);
        if (target) {
          foreignKeys.push({
            subject,
            pointer: p.name,
            spec: {
              table,
              name: pgName(`${short}.${p.name}.fk`),
              column: p.name,
              target,
              ...onDelete(p.onTargetDelete, false),
            },
          });
        }
        indexes.push({
          subject,
          kind: 'link',
          label: `index on link ${subject}`,
          spec: {
            table,
            name: pgName(`${short}.${p.name}.index`),
            unique: false,
            elements: [sql.col(p.name)],
            where: null,
          },
        });
      }
      addPointerConstraints(schema, type, p, table, false, ['id'], checks, indexes);
    } else {
      const jt = pointerTableName(type.name, p.name);
      const valueColumn = p.kind === 'link' ? 'target' : 'value';
      const jcolumns: ColumnSpec[] = [
        { name: 'source', type: pgType('uuid'), notNull: true, default: null },
        { name: valueColumn, type: pgTypeOf(p.target), notNull: true, default: null },
      ];
      if (p.kind === 'link') {
        for (const lp of p.properties) {
          if (!isStored(lp)) continue;
          jcolumns.push({
            name: lp.name,
            type: pgTypeOf(lp.target),
            notNull: false,
            default: compileDefault(schema, module, lp).sql,
          });
        }
      }
      junctions.push({
        pointer: p.name,
        kind: p.kind,
        subject,
        target: p.target,
        table: jt,
        valueColumn,
        columns: jcolumns,
        primaryKey: p.kind === 'link' ? ['source', 'target'] : null,
      });
      foreignKeys.push({
        subject,
        pointer: p.name,
        spec: {
          table: jt,
          name: pgName(`${jt.name}.source.fk`),
          column: 'source',
          target: table,
          onDelete: 'cascade',
          deferred: false,
        },
      });
      const target = singleTable(schema, p.target);
      if (p.kind === 'link' && target) {
        foreignKeys.push({
          subject,
          pointer: p.name,
          spec: {
            table: jt,
            name: pgName(`${jt.name}.target.fk`),
            column: 'target',
            target,
            ...onDelete(p.onTargetDelete, true),
          },
        });
      }
      indexes.push({
        subject,
        kind: 'link',
        label: `index on ${subject}`,
        spec: {
          table: jt,
          name: pgName(`${jt.name}.${p.kind === 'link' ? 'target' : 'source'}.index`),
          unique: false,
          elements: [sql.col(p.kind === 'link' ? 'target' : 'source')],
          where: null,
        },
      });
      addPointerConstraints(schema, type, p, jt, true, ['source', valueColumn], checks, indexes);
    }
  }
  addTypeConstraints(schema, type, table, checks, indexes);
  addIndexes(schema, type, table, indexes);
  return { type: type.name, table, columns, junctions, foreignKeys, checks, indexes };
}

/** Constraints on a single computed property: over its expression, compiled on the row. */
function computedConstraints(
  schema: Schema,
  type: ObjectType,
  p: Pointer,
  table: QName,
  checks: OwnedCheck[],
  indexes: OwnedIndex[],
): void {
  if (p.kind !== 'property' || p.cardinality !== 'one' || p.constraints.length === 0) return;
  addPointerConstraints(schema, type, p, table, false, ['id'], checks, indexes);
}

/** The identity of an exclusive constraint across the tables of a hierarchy (not delegated). */
function sharedExclusive(c: Constraint, subject: string): { shared?: string } {
  if (c.delegated) return {};
  const except = c.except ? ` except ${ql.printExpression(c.except)}` : '';
  return { shared: `${subject}: ${constraintLabel(c)}${except}` };
}

/** `__subject__`: a pointer constraint's value (an exclusive constraint's index element). */
const SUBJECT = ql.parseExpression('__subject__');

function applies(type: ObjectType, c: Constraint): boolean {
  return !(c.delegated && c.declaredIn === type.name);
}

function addPointerConstraints(
  schema: Schema,
  type: ObjectType,
  p: Pointer,
  table: QName,
  junction: boolean,
  keys: readonly string[],
  checks: OwnedCheck[],
  indexes: OwnedIndex[],
): void {
  const [module, short] = splitName(type.name);
  const subject = `${type.name}.${p.name}`;
  const list = p.constraints.filter((c) => applies(type, c));
  if (list.length === 0) return;
  const names = constraintNames(list, `${short}.${p.name}`);
  const ctx: ScalarContext = {
    schema,
    module,
    mode: 'check',
    subject: { kind: 'pointer', type: type.name, pointer: p.name, junction },
  };
  list.forEach((c, i) => {
    const name = names[i] as string;
    if (c.name === 'std::exclusive') {
      const elements = c.subjectExpr
        ? indexElements(schema, type, c.subjectExpr, { ...ctx, mode: 'index' })
        : [ddlCompiler().compileScalar(SUBJECT, { ...ctx, mode: 'index' }).sql];
      const where = c.except
        ? sql.not(
            sql.func('coalesce', [
              ddlCompiler().compileScalar(c.except, { ...ctx, mode: 'index' }).sql,
              sql.bool(false),
            ]),
          )
        : null;
      indexes.push({
        subject,
        kind: 'constraint',
        label: constraintLabel(c),
        spec: { table, name, unique: true, elements, where },
        ...sharedExclusive(c, `${c.declaredIn}.${p.name}`),
      });
    } else {
      checks.push({
        subject,
        label: constraintLabel(c),
        spec: { table, name, expr: ddlCompiler().compileConstraint(c, ctx) },
        keys,
      });
    }
  });
}

function addTypeConstraints(
  schema: Schema,
  type: ObjectType,
  table: QName,
  checks: OwnedCheck[],
  indexes: OwnedIndex[],
): void {
  const [module, short] = splitName(type.name);
  const list = type.constraints.filter((c) => applies(type, c));
  const names = constraintNames(list, short);
  const ctx: ScalarContext = {
    schema,
    module,
    mode: 'check',
    subject: { kind: 'object', type: type.name },
  };
  list.forEach((c, i) => {
    const name = names[i] as string;
    if (c.name === 'std::exclusive') {
      if (!c.subjectExpr) {
        throw new InvalidConstraintDefinitionError(
          `exclusive on type ${type.name} needs \`on (...)\``,
          { position: spanPos(c.span) },
        );
      }
      const elements = indexElements(schema, type, c.subjectExpr, { ...ctx, mode: 'index' });
      const where = c.except
        ? sql.not(
            sql.func('coalesce', [
              ddlCompiler().compileScalar(c.except, { ...ctx, mode: 'index' }).sql,
              sql.bool(false),
            ]),
          )
        : null;
      indexes.push({
        subject: type.name,
        kind: 'constraint',
        label: constraintLabel(c),
        spec: { table, name, unique: true, elements, where },
        ...sharedExclusive(c, c.declaredIn),
      });
    } else {
      checks.push({
        subject: type.name,
        label: constraintLabel(c),
        spec: { table, name, expr: ddlCompiler().compileConstraint(c, ctx) },
        keys: ['id'],
      });
    }
  });
}

/**
 * A tuple of expressions indexes several columns (nested tuples flattened: `((a, b), c)` is
 * unique exactly when `(a, b, c)` is); anything else is one element.
 */
function indexElements(
  schema: Schema,
  type: ObjectType,
  expr: ql.Expr,
  ctx: ScalarContext,
): SqlExpr[] {
  void schema;
  void type;
  if (expr.kind === 'TupleLiteral') {
    return expr.elements.flatMap((e) => indexElements(schema, type, e, ctx));
  }
  return [ddlCompiler().compileScalar(expr, ctx).sql];
}

function addIndexes(schema: Schema, type: ObjectType, table: QName, indexes: OwnedIndex[]): void {
  const [module, short] = splitName(type.name);
  const ctx: ScalarContext = {
    schema,
    module,
    mode: 'index',
    subject: { kind: 'object', type: type.name },
  };
  const seen = new Set<string>();
  for (const index of type.indexes) {
    const elements =
      index.kind === FTS_INDEX
        ? [ftsDocument(index.expr, ctx)]
        : indexElements(schema, type, index.expr, ctx);
    // An index on a single link alone duplicates the link's own index (item 37).
    if (elements.length === 1 && isSingleLinkColumn(type, elements[0] as SqlExpr) && !index.except)
      continue;
    const where = index.except
      ? sql.not(
          sql.func('coalesce', [
            ddlCompiler().compileScalar(index.except, ctx).sql,
            sql.bool(false),
          ]),
        )
      : null;
    // A kind of index is part of its name: `fts::index` and a plain index on one expression differ.
    const suffix = index.kind === null ? 'index' : index.kind.replace('::', '.');
    const name = pgName(`${short}.${indexSlug(index)}.${suffix}`);
    if (seen.has(name)) continue;
    seen.add(name);
    indexes.push({
      subject: type.name,
      kind: 'index',
      label: `index on (${ql.printExpression(index.expr)})`,
      spec: { table, name, unique: false, elements, where, ...indexMethod(index.kind) },
    });
  }
}

/** `pg::gin` → `gin`; `fts::index` is a GIN index over a tsvector. */
function indexMethod(kind: string | null): { method?: string } {
  if (kind === FTS_INDEX) return { method: 'gin' };
  if (kind?.startsWith('pg::')) return { method: kind.slice('pg::'.length) };
  return {};
}

/**
 * The tsvector of an `fts::index`: each `fts::with_options(text, language := fts::Language.x,
 * weight_category := fts::Weight.y)` of the (tuple of) documents becomes
 * `setweight(to_tsvector('<config>'::regconfig, coalesce(text, '')), 'y')`, concatenated.
 */
function ftsDocument(expr: ql.Expr, ctx: ScalarContext): SqlExpr {
  const documents = expr.kind === 'TupleLiteral' ? expr.elements : [expr];
  const vectors = documents.map((doc) => {
    const name = doc.kind === 'FunctionCall' ? `${doc.func.module ?? ''}::${doc.func.name}` : '';
    if (doc.kind !== 'FunctionCall' || name !== FTS_WITH_OPTIONS || doc.args.length !== 1) {
      throw new InvalidDefinitionError(
        `an fts::index is on fts::with_options(...) documents, not \`${ql.printExpression(doc)}\``,
        { position: spanPos(doc.span) },
      );
    }
    const member = (arg: string, enumName: string): string | null => {
      const value = doc.namedArgs.find((a) => a.name === arg)?.value;
      if (!value) return null;
      const path = value.kind === 'Path' ? value : null;
      const subject = path?.subject?.kind === 'ObjectRef' ? path.subject : null;
      const step = path?.steps[0];
      const written = subject ? `${subject.module ?? 'fts'}::${subject.name}` : '';
      if (written !== enumName || path?.steps.length !== 1 || step?.kind !== 'Ptr') {
        throw new InvalidDefinitionError(`${arg} must be a member of ${enumName}`, {
          position: spanPos(value.span),
        });
      }
      return step.name;
    };
    const language = member('language', 'fts::Language');
    const config = language === null ? null : FTS_LANGUAGES[language];
    if (!config) {
      throw new InvalidDefinitionError('fts::with_options needs language := fts::Language.<x>', {
        position: spanPos(doc.span),
      });
    }
    const text = ddlCompiler().compileScalar(doc.args[0] as ql.Expr, ctx).sql;
    const vector = sql.func('to_tsvector', [
      sql.cast(sql.text(config), pgType('regconfig')),
      sql.func('coalesce', [text, sql.text('')]),
    ]);
    const weight = member('weight_category', 'fts::Weight');
    return weight === null ? vector : sql.func('setweight', [vector, sql.text(weight)]);
  });
  return vectors.reduce((acc, v) => sql.bin('||', acc, v));
}

function isSingleLinkColumn(type: ObjectType, e: SqlExpr): boolean {
  if (e.kind !== 'ColumnRef') return false;
  const p = type.pointers.find((x) => x.name === e.name);
  return p?.kind === 'link' && p.cardinality === 'one';
}

/** `name` for `.name`, `name,email` for `(.name, .email)`, else a hash of the expression. */
function indexSlug(index: Index): string {
  const plain = (e: ql.Expr): string | null =>
    e.kind === 'Path' &&
    e.subject === null &&
    e.steps.length === 1 &&
    e.steps[0]?.kind === 'Ptr' &&
    e.steps[0].via === '.'
      ? e.steps[0].name
      : null;
  const exceptPart = index.except ? `.${shortHash(ql.printExpression(index.except))}` : '';
  const one = plain(index.expr);
  if (one !== null) return one + exceptPart;
  if (index.expr.kind === 'TupleLiteral') {
    const names = index.expr.elements.map(plain);
    if (names.every((n) => n !== null)) return names.join(',') + exceptPart;
  }
  return `expr.${shortHash(ql.printExpression(index.expr))}${exceptPart}`;
}

function viewLayout(schema: Schema, type: ObjectType): ViewLayout {
  const own = type.pointers.filter((p) => isStored(p) && p.cardinality === 'one');
  const columns = own.map((p) => ({
    name: p.name,
    type: p.name === 'id' ? pgType('uuid') : pgTypeOf(p.target),
  }));
  const branches = concreteTablesOf(schema, type.name)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((t) => ({
      table: tableName(t.name),
      typeName: t.name,
      columns: columns.map((c) => ({
        name: c.name,
        type: c.type,
        from: t.pointers.some((p) => p.name === c.name && isStored(p) && p.cardinality === 'one')
          ? c.name
          : null,
      })),
    }));
  return { type: type.name, spec: { name: tableName(type.name), columns, branches } };
}

/** For diffs: the text a view's definition depends on (its SQL and its sources' column types). */
export function viewSignature(view: ViewLayout): string {
  return JSON.stringify([
    view.spec.columns.map((c) => [c.name, c.type]),
    view.spec.branches.map((b) => [b.table, b.columns.map((c) => c.from)]),
  ]);
}
