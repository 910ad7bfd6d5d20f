/**
 * storage/views: abstract types as views — UNION ALL over the concrete descendants of the columns
 * the type declares, plus `"__type__"`.
 */
import type { ObjectType, Schema } from '../model/schema';
import { pgType } from '../sql/ast';
import { tableName } from './names';
import { pgTypeOf } from './types';
import type { ViewLayout } from './layout-types';
import { concreteTablesOf } from './hierarchy';
import { isStored } from './tables';

export function viewLayout(schema: Schema, type: ObjectType): ViewLayout {
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
