/**
 * storage/tables: the table of a concrete object type — its columns (`id`, stored single pointers,
 * single links' link properties), junction tables of multi pointers, foreign keys, and the checks
 * and indexes of its constraints (./constraints) and indexes (./indexes).
 */
import { InvalidDefinitionError } from '../errors';
import type { ObjectType, OnTargetDelete, Pointer, Schema } from '../model/schema';
import { pgType, sql, type SqlExpr } from '../sql/ast';
import type { ColumnSpec, OnDelete } from '../sql/codegen/ddl';
import { pgName } from '../sql/codegen/names';
import { ddlCompiler } from './ddl-compiler';
import { columnName, pointerTableName, tableName } from './names';
import { pgTypeOf, splitName } from './types';
import type {
  JunctionTable,
  OwnedCheck,
  OwnedForeignKey,
  OwnedIndex,
  PointerColumn,
  TypeTable,
} from './layout-types';
import { singleTable } from './hierarchy';
import {
  addLinkPropertyConstraints,
  addPointerConstraints,
  addTypeConstraints,
  computedConstraints,
} from './constraints';
import { addIndexes } from './indexes';

const ID_DEFAULT: SqlExpr = sql.func('uuid_generate_v7', [], 'svc_meta');

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

export function isStored(p: Pointer): boolean {
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

export function typeTable(schema: Schema, type: ObjectType): TypeTable {
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
          addLinkPropertyConstraints(schema, type, p, lp, table, false, indexes);
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
          addLinkPropertyConstraints(schema, type, p, lp, jt, true, indexes);
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
