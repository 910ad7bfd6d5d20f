/**
 * storage/integrity: the rules a foreign key or a unique index cannot hold, held by
 * triggers in the database so that no SQL path (the query compiler, a hand-written statement)
 * can break them.
 *
 * Input: a Schema and its type tables (./layout). Output: `TriggerSpec`s (sql/codegen/triggers),
 * sorted by table and name. Pure and deterministic.
 * Rules:
 * - a link whose target is polymorphic (a union, an abstract type, a type with subtypes,
 *   `std::Object`: rows in several tables) has no foreign key, so:
 *   - its value must be the id of a row of a target table (on the column, or on the multi
 *     link's junction table), checked at the end of the statement (23503);
 *   - `on target delete` is a trigger on each target table: `restrict` refuses the deletion at
 *     the end of the statement (23503) while a source that still exists links to it, `deferred restrict` at commit, `allow` unsets the link
 *     (or removes the junction row), `delete source` deletes the sources;
 * - `on target delete delete source` of a multi link deletes the source objects whatever the
 *   target (with one target table, its foreign key removes the junction row, and the row's
 *   deletion, its target gone, deletes the source);
 * - `on source delete delete target` deletes the target once the source is gone, and
 *   `delete target if orphan` only when no other source of that link still links to it;
 * - an `exclusive` constraint (not delegated) whose type has rows in several tables (a type and
 *   its subtypes) is one unique index per table plus, on each table, a check of the others
 *   under a transaction-scoped advisory lock on the constraint (23505).
 */
import { createHash } from 'node:crypto';
import { isSchemaModuleType } from '../model/introspection';
import { type ObjectType, type Pointer, type Schema, targetObjectTypes } from '../model/schema';
import type { QName } from '../sql/codegen/ddl';
import { pgName } from '../sql/codegen/names';
import type { TriggerAction, TriggerSpec } from '../sql/codegen/triggers';
import { singleTable, targetTablesOf } from './hierarchy';
import type { TypeTable } from './layout-types';
import { pointerTableName, tableName } from './names';
import { splitName } from './types';

/** Where a stored link's values live: a column of the source table, or a junction table. */
interface LinkStorage {
  readonly source: ObjectType;
  readonly pointer: Pointer;
  readonly table: QName;
  readonly column: string;
  readonly multi: boolean;
}

function linkStorage(source: ObjectType, pointer: Pointer): LinkStorage {
  const multi = pointer.cardinality === 'many';
  return {
    source,
    pointer,
    table: multi ? pointerTableName(source.name, pointer.name) : tableName(source.name),
    column: multi ? 'target' : pointer.name,
    multi,
  };
}

function storedLinks(schema: Schema): LinkStorage[] {
  return schema.objectTypes
    .filter((t) => !t.abstract)
    .flatMap((t) =>
      t.pointers
        .filter((p) => p.kind === 'link' && p.computed === null)
        .map((p) => linkStorage(t, p)),
    );
}

/** `default::User.friends`, for names and messages. */
const subjectOf = (link: LinkStorage) => `${link.source.name}.${link.pointer.name}`;

function spec(
  table: QName,
  readable: string,
  timing: TriggerSpec['timing'],
  events: TriggerSpec['events'],
  actions: TriggerAction[],
  options: { updateOf?: readonly string[]; deferred?: boolean } = {},
): TriggerSpec {
  return {
    table,
    name: pgName(readable),
    timing,
    events,
    updateOf: options.updateOf ?? null,
    deferred: options.deferred ?? false,
    actions,
  };
}

export function integrityTriggers(schema: Schema, tables: readonly TypeTable[]): TriggerSpec[] {
  const out: TriggerSpec[] = [];
  const links = storedLinks(schema);
  for (const link of links) {
    // A link to the schema module's catalogue (model/introspection) is not checked here.
    if (targetObjectTypes(link.pointer.target).some(isSchemaModuleType)) continue;
    const subject = subjectOf(link);
    const polymorphic = singleTable(schema, link.pointer.target) === null;
    const targets = targetTablesOf(schema, link.pointer.target);
    if (polymorphic) {
      out.push(
        spec(
          link.table,
          `${subject}.target`,
          'after',
          ['insert', 'update'],
          [
            {
              kind: 'require-target',
              column: link.column,
              targets: targets.map((t) => tableName(t.name)),
              message: `link '${link.pointer.name}' of '${link.source.name}' does not point to an object of type '${printTarget(link)}'`,
            },
          ],
          { updateOf: [link.column] },
        ),
      );
    }
    const policy = link.pointer.onTargetDelete ?? 'restrict';
    for (const target of targets) {
      const name = `${subject}.on target delete.${target.name}`;
      const targetTable = tableName(target.name);
      if (policy === 'delete source' && polymorphic) {
        // After the target's deletion (end of statement): one statement may delete a source
        // and its target together.
        out.push(
          spec(
            targetTable,
            name,
            'after',
            ['delete'],
            [
              {
                kind: 'delete-sources',
                sources: tableName(link.source.name),
                column: link.column,
                junction: link.multi ? link.table : null,
              },
            ],
          ),
        );
      } else if (polymorphic && policy !== 'delete source') {
        const action: TriggerAction =
          policy === 'allow'
            ? link.multi
              ? { kind: 'delete-links', from: link.table, column: link.column }
              : { kind: 'clear-links', from: link.table, column: link.column }
            : {
                kind: 'refuse-if-linked',
                from: link.table,
                column: link.column,
                message: `deletion of '${target.name}' is prohibited by link target policy of '${subject}'`,
                ...(link.multi ? { sources: tableName(link.source.name) } : {}),
              };
        out.push(
          spec(targetTable, name, 'after', ['delete'], [action], {
            deferred: policy === 'deferred restrict',
          }),
        );
      }
    }
    if (policy === 'delete source' && !polymorphic && link.multi) {
      // The target's foreign key removes the junction row; the row's going deletes the source.
      out.push(
        spec(
          link.table,
          `${subject}.on target delete`,
          'after',
          ['delete'],
          [
            {
              kind: 'delete-source-if-target-gone',
              sources: tableName(link.source.name),
              targets: targets.map((t) => tableName(t.name)),
            },
          ],
        ),
      );
    }
    const onSource = link.pointer.onSourceDelete ?? 'allow';
    if (onSource !== 'allow') {
      const siblings = links.filter(
        (l) =>
          l.pointer.name === link.pointer.name && l.pointer.declaredIn === link.pointer.declaredIn,
      );
      out.push(
        spec(
          link.table,
          `${subject}.on source delete`,
          'after',
          ['delete'],
          [
            {
              kind: 'delete-target',
              value: link.column,
              targets: targets.map((t) => tableName(t.name)),
              sourceGone: link.multi
                ? { table: tableName(link.source.name), column: 'source' }
                : null,
              orphanIn:
                onSource === 'delete target if orphan'
                  ? siblings.map((s) => ({ table: s.table, column: s.column }))
                  : null,
            },
          ],
        ),
      );
    }
  }
  out.push(...sharedExclusives(tables));
  return out.sort((a, b) =>
    `${a.table.schema}\u0000${a.table.name}\u0000${a.name}` <
    `${b.table.schema}\u0000${b.table.name}\u0000${b.name}`
      ? -1
      : 1,
  );
}

function printTarget(link: LinkStorage): string {
  const t = link.pointer.target;
  return t.kind === 'union' ? t.members.join(' | ') : t.kind === 'object' ? t.name : '';
}

/** A 31-bit key for the advisory lock of one shared constraint. */
function lockKey(identity: string): number {
  return createHash('sha256').update(identity).digest().readUInt32BE(0) & 0x7fff_ffff;
}

function sharedExclusives(tables: readonly TypeTable[]): TriggerSpec[] {
  const groups = new Map<string, TypeTable['indexes'][number][]>();
  for (const t of tables) {
    for (const index of t.indexes) {
      if (index.shared === undefined) continue;
      const list = groups.get(index.shared) ?? [];
      list.push(index);
      groups.set(index.shared, list);
    }
  }
  const out: TriggerSpec[] = [];
  for (const [identity, indexes] of groups) {
    if (indexes.length < 2) continue;
    for (const index of indexes) {
      const others = indexes.filter((o) => o !== index);
      // `Item.name` → `name`; a link property's `Item.tags@note` → `note`.
      const short = splitName(index.subject)[1].split(/[.@]/).pop() as string;
      out.push(
        spec(
          index.spec.table,
          `${index.spec.name}.shared`,
          'after',
          ['insert', 'update'],
          [
            {
              kind: 'exclusive',
              lockKey: lockKey(identity),
              constraint: index.spec.name,
              elements: index.spec.elements,
              where: index.spec.where,
              others: others.map((o) => ({
                table: o.spec.table,
                elements: o.spec.elements,
                where: o.spec.where,
              })),
              message: `${short} violates exclusivity constraint`,
            },
          ],
        ),
      );
    }
  }
  return out;
}
