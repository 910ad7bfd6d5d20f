/**
 * schema/diff/tables: type tables created, dropped and changed, with their FKs, CHECKs and indexes.
 */
import type { SqlExpr } from '../../sql/ast';
import { printType } from '../../sql/print';
import { checks as checkSql, ddl, type ColumnSpec, type QName } from '../../sql/codegen/ddl';
import type { OwnedCheck, OwnedForeignKey, OwnedIndex } from '../../storage/layout';
import {
  createJunction,
  describePointer,
  linkExtras,
  referencedColumns,
  tableColumns,
} from './columns';
import { type Planner, qkey } from './planner';
import { diffPointers } from './pointers';

export function planTables(p: Planner): void {
  const before = new Map(p.before.tables.map((t) => [t.type, t]));
  const after = new Map(p.after.tables.map((t) => [t.type, t]));
  const beforeCols = tableColumns(p.before);
  const afterCols = tableColumns(p.after);
  // Tables (type tables and junction tables) that are dropped, or dropped and made again: what
  // lived on them goes with them, and what lives on the new one is made anew.
  const droppedTables = new Set<string>();
  const afterJunctions = new Map(
    p.after.tables.flatMap((t) => t.junctions).map((j) => [qkey(j.table), j]),
  );
  for (const [type, t] of before) {
    if (!after.has(type)) droppedTables.add(qkey(t.table));
    for (const j of t.junctions) {
      const next = afterJunctions.get(qkey(j.table));
      if (!after.has(type) || !next || next.kind !== j.kind) droppedTables.add(qkey(j.table));
    }
  }
  /** Columns dropped and re-added (kind or storage changed): their indexes/checks must be remade. */
  const recreated = new Set<string>();

  // Type tables dropped (phase 4) and created (phase 6, phase 8 for their links).
  for (const [type, t] of before) {
    if (after.has(type)) continue;
    const becameAbstract = p.to.objectTypes.some((x) => x.name === type);
    const sql = [...t.junctions.map((j) => ddl.dropTable(j.table)), ddl.dropTable(t.table)];
    p.step(
      4,
      becameAbstract ? 'alter type' : 'drop type',
      type,
      becameAbstract ? `make ${type} abstract (its table is dropped)` : `drop type ${type}`,
      sql,
    );
    p.check(
      'data-loss',
      type,
      `dropping ${type} would delete its stored objects`,
      checkSql.tableHasRows(t.table, type),
    );
  }
  for (const [type, t] of after) {
    if (before.has(type)) continue;
    const wasAbstract = p.from?.objectTypes.some((x) => x.name === type) ?? false;
    p.step(
      6,
      wasAbstract ? 'alter type' : 'create type',
      type,
      wasAbstract ? `make ${type} concrete (create its table)` : `create type ${type}`,
      [
        ddl.createTable(
          t.table,
          t.columns.map((c) => c.column),
        ),
      ],
    );
    for (const c of t.columns) {
      if (c.kind !== 'link') continue;
      const sql = linkExtras(p, t, c.pointer);
      if (sql.length)
        p.step(8, 'create link', c.subject, describePointer(p.to, c.subject, 'create link'), sql);
    }
    for (const j of t.junctions) createJunction(p, t, j, 8);
  }

  // Tables in both: pointers.
  for (const [type, next] of after) {
    const prev = before.get(type);
    if (!prev) continue;
    diffPointers(p, prev, next, recreated);
  }

  // FKs, checks and indexes of surviving tables.
  const fkKey = (f: OwnedForeignKey) => `${qkey(f.spec.table)}\u0000${f.spec.name}`;
  const beforeFks = new Map(
    p.before.tables.flatMap((t) => t.foreignKeys).map((f) => [fkKey(f), f]),
  );
  const afterFks = new Map(p.after.tables.flatMap((t) => t.foreignKeys).map((f) => [fkKey(f), f]));
  const touches = (table: QName, columns: Iterable<string>) =>
    droppedTables.has(qkey(table)) ||
    [...columns].some((c) => recreated.has(`${qkey(table)}\u0000${c}`));
  const sameFk = (a: OwnedForeignKey, b: OwnedForeignKey) =>
    ddl.addForeignKey(a.spec) === ddl.addForeignKey(b.spec) &&
    !touches(a.spec.table, [a.spec.column]);
  // A foreign key whose name alone changed (a renamed type or pointer names it) is renamed.
  const fkRenamed = pairRenamed(beforeFks, afterFks, (a, b) =>
    sameFk({ ...a, spec: { ...a.spec, name: b.spec.name } }, b),
  );
  for (const [fk, next] of fkRenamed.values())
    p.step(
      2,
      'alter link',
      next.subject,
      `rename foreign key ${fk.spec.name} to ${next.spec.name}`,
      [ddl.renameConstraint(next.spec.table, fk.spec.name, next.spec.name)],
    );
  const fkKept = new Set([...fkRenamed.values()].map(([fk]) => fkKey(fk)));
  for (const [key, fk] of beforeFks) {
    const next = afterFks.get(key);
    if ((next && sameFk(fk, next)) || fkKept.has(key)) continue;
    const tableGone = droppedTables.has(qkey(fk.spec.table));
    if (
      tableGone &&
      (!droppedTables.has(qkey(fk.spec.target)) || qkey(fk.spec.target) === qkey(fk.spec.table))
    )
      continue;
    p.step(2, 'alter link', fk.subject, `drop foreign key ${fk.spec.name}`, [
      ddl.dropConstraint(fk.spec.table, fk.spec.name),
    ]);
  }
  for (const [key, fk] of afterFks) {
    const prev = beforeFks.get(key);
    if ((prev && sameFk(prev, fk)) || p.emitted.has(`fk:${key}`) || fkRenamed.has(key)) continue;
    const existed =
      beforeCols.get(qkey(fk.spec.table))?.has(fk.spec.column) &&
      !touches(fk.spec.table, [fk.spec.column]);
    // Only a new target can leave links dangling; a changed `on target delete` cannot.
    if (existed && (!prev || qkey(prev.spec.target) !== qkey(fk.spec.target))) {
      const target = `${fk.spec.target.schema}::${fk.spec.target.name}`;
      // A target the migration creates has no objects yet: any stored link would dangle (and
      // the check cannot name a table that does not exist yet).
      p.check(
        'violation',
        fk.subject,
        `${fk.subject} holds links to objects that are not ${target}`,
        beforeCols.has(qkey(fk.spec.target))
          ? checkSql.danglingLinks(fk.spec)
          : checkSql.columnHasValues(fk.spec.table, fk.spec.column, fk.subject),
      );
    }
    p.step(9, 'alter link', fk.subject, `add foreign key ${fk.spec.name}`, [
      ddl.addForeignKey(fk.spec),
    ]);
  }

  const checkKey = (c: OwnedCheck) => `${qkey(c.spec.table)}\u0000${c.spec.name}`;
  const beforeChecks = new Map(
    p.before.tables.flatMap((t) => t.checks).map((c) => [checkKey(c), c]),
  );
  const afterChecks = new Map(p.after.tables.flatMap((t) => t.checks).map((c) => [checkKey(c), c]));
  const sameCheck = (a: OwnedCheck, b: OwnedCheck) =>
    ddl.addCheck(a.spec) === ddl.addCheck(b.spec) &&
    !touches(b.spec.table, referencedColumns(b.spec.expr));
  /** The check query can run before applying only if every column it reads exists, same type. */
  const runnable = (table: QName, exprs: readonly SqlExpr[]): boolean => {
    const old = beforeCols.get(qkey(table));
    const now = afterCols.get(qkey(table));
    if (!old || !now) return false;
    const cols = new Set<string>();
    for (const e of exprs) referencedColumns(e, cols);
    return [...cols].every(
      (c) =>
        old.has(c) &&
        now.has(c) &&
        printType((old.get(c) as ColumnSpec).type) === printType((now.get(c) as ColumnSpec).type) &&
        !recreated.has(`${qkey(table)}\u0000${c}`),
    );
  };
  const checkRenamed = pairRenamed(beforeChecks, afterChecks, (a, b) =>
    sameCheck({ ...a, spec: { ...a.spec, name: b.spec.name } }, b),
  );
  for (const [c, next] of checkRenamed.values())
    p.step(
      2,
      'alter constraint',
      next.subject,
      `rename constraint ${c.spec.name} to ${next.spec.name}`,
      [ddl.renameConstraint(next.spec.table, c.spec.name, next.spec.name)],
    );
  const checkKept = new Set([...checkRenamed.values()].map(([c]) => checkKey(c)));
  for (const [key, c] of beforeChecks) {
    const next = afterChecks.get(key);
    if ((next && sameCheck(c, next)) || droppedTables.has(qkey(c.spec.table)) || checkKept.has(key))
      continue;
    p.step(2, 'drop constraint', c.subject, `drop constraint ${c.label} on ${c.subject}`, [
      ddl.dropConstraint(c.spec.table, c.spec.name),
    ]);
  }
  for (const [key, c] of afterChecks) {
    const prev = beforeChecks.get(key);
    if ((prev && sameCheck(prev, c)) || checkRenamed.has(key)) continue;
    if (runnable(c.spec.table, [c.spec.expr])) {
      p.check(
        'violation',
        c.subject,
        `stored data breaks the new constraint ${c.label} on ${c.subject}`,
        checkSql.failingCheck(c.spec, c.keys),
      );
    }
    p.step(9, 'create constraint', c.subject, `create constraint ${c.label} on ${c.subject}`, [
      ddl.addCheck(c.spec),
    ]);
  }

  const indexKey = (i: OwnedIndex) => `${qkey(i.spec.table)}\u0000${i.spec.name}`;
  const beforeIdx = new Map(p.before.tables.flatMap((t) => t.indexes).map((i) => [indexKey(i), i]));
  const afterIdx = new Map(p.after.tables.flatMap((t) => t.indexes).map((i) => [indexKey(i), i]));
  const sameIdx = (a: OwnedIndex, b: OwnedIndex) =>
    ddl.createIndex(a.spec) === ddl.createIndex(b.spec) &&
    !touches(
      b.spec.table,
      b.spec.elements.flatMap((e) => [...referencedColumns(e)]),
    );
  const idxRenamed = pairRenamed(beforeIdx, afterIdx, (a, b) =>
    sameIdx({ ...a, spec: { ...a.spec, name: b.spec.name } }, b),
  );
  for (const [i, next] of idxRenamed.values())
    p.step(
      2,
      i.kind === 'constraint'
        ? 'alter constraint'
        : i.kind === 'link'
          ? 'alter link'
          : 'alter index',
      next.subject,
      `rename index ${i.spec.name} to ${next.spec.name}`,
      [ddl.renameIndex(next.spec.table.schema, i.spec.name, next.spec.name)],
    );
  const idxKept = new Set([...idxRenamed.values()].map(([i]) => indexKey(i)));
  for (const [key, i] of beforeIdx) {
    const next = afterIdx.get(key);
    if ((next && sameIdx(i, next)) || droppedTables.has(qkey(i.spec.table)) || idxKept.has(key))
      continue;
    const kind =
      i.kind === 'constraint' ? 'drop constraint' : i.kind === 'link' ? 'alter link' : 'drop index';
    p.step(
      2,
      kind,
      i.subject,
      `drop ${i.kind === 'constraint' ? `constraint ${i.label} on` : 'index'} ${i.kind === 'constraint' ? i.subject : i.spec.name}`,
      [ddl.dropIndex(i.spec.table.schema, i.spec.name)],
    );
  }
  for (const [key, i] of afterIdx) {
    const prev = beforeIdx.get(key);
    if ((prev && sameIdx(prev, i)) || p.emitted.has(`ix:${key}`) || idxRenamed.has(key)) continue;
    if (
      i.spec.unique &&
      runnable(i.spec.table, [...i.spec.elements, ...(i.spec.where ? [i.spec.where] : [])])
    ) {
      p.check(
        'violation',
        i.subject,
        `stored objects of ${i.subject} have duplicate values for the new constraint ${i.label}`,
        checkSql.duplicates(i.spec),
      );
    }
    if (i.kind === 'constraint')
      p.step(9, 'create constraint', i.subject, `create constraint ${i.label} on ${i.subject}`, [
        ddl.createIndex(i.spec),
      ]);
    else
      p.step(
        9,
        i.kind === 'link' ? 'alter link' : 'create index',
        i.subject,
        i.kind === 'link' ? `create index ${i.spec.name}` : `create ${i.label} on ${i.subject}`,
        [ddl.createIndex(i.spec)],
      );
  }
}

/**
 * Objects of the stored layout that are, but for their name, one of the new layout that has no
 * match by name (an index or constraint named after a renamed type or pointer): by the new one's
 * key, the pair. Each stored object pairs at most once.
 */
function pairRenamed<T>(
  before: ReadonlyMap<string, T>,
  after: ReadonlyMap<string, T>,
  sameButName: (stored: T, next: T) => boolean,
): Map<string, [T, T]> {
  const pairs = new Map<string, [T, T]>();
  const taken = new Set<string>();
  const unmatched = [...before].filter(([key]) => !after.has(key));
  for (const [key, next] of after) {
    if (before.has(key)) continue;
    const found = unmatched.find(([k, stored]) => !taken.has(k) && sameButName(stored, next));
    if (!found) continue;
    taken.add(found[0]);
    pairs.set(key, [found[1], next]);
  }
  return pairs;
}
