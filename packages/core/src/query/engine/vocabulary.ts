/**
 * query/engine/vocabulary: what PostgreSQL's names stand for in one schema, for error messages
 * (errors/database-errors `ErrorVocabulary`).
 *
 * Input: a built Schema. Output: an `ErrorVocabulary`, built once per schema version from the
 * storage layout (schema/storage), so the names looked up are exactly the names migrations
 * created: unique indexes and CHECKs → the schema constraint and its message, NOT NULL columns →
 * the pointer, foreign keys → the link, PostgreSQL type names → EdgeQL type names.
 * Messages follow Gel's: the constraint's `errmessage` (its own, its abstract constraint's, or
 * std's) with `{__subject__}` the subject's short name (or its `std::title` annotation) and
 * `{param}` the argument as written.
 */
import * as ql from '../../syntax';
import type { DatabaseErrorFields, ErrorVocabulary } from '../../errors';
import type { Constraint, Schema, StdScalarName } from '../../model/schema';
import { storageLayout, STD_PG_TYPES } from '../../storage';
import { printType } from '../../sql/print';

/** std's constraint messages and parameter names (Gel's std/50-constraints). */
const STD_CONSTRAINTS: Readonly<Record<string, { errmessage: string; params: string[] }>> = {
  'std::exclusive': { errmessage: '{__subject__} violates exclusivity constraint', params: [] },
  'std::expression': { errmessage: 'invalid {__subject__}', params: [] },
  'std::one_of': { errmessage: '{__subject__} must be one of: {vals}.', params: ['vals'] },
  'std::max_value': {
    errmessage: 'Maximum allowed value for {__subject__} is {max}.',
    params: ['max'],
  },
  'std::min_value': {
    errmessage: 'Minimum allowed value for {__subject__} is {min}.',
    params: ['min'],
  },
  'std::max_ex_value': { errmessage: '{__subject__} must be less than {max}.', params: ['max'] },
  'std::min_ex_value': { errmessage: '{__subject__} must be greater than {min}.', params: ['min'] },
  'std::regexp': { errmessage: 'invalid {__subject__}', params: ['pattern'] },
  'std::max_len_value': {
    errmessage: '{__subject__} must be no longer than {max} characters.',
    params: ['max'],
  },
  'std::min_len_value': {
    errmessage: '{__subject__} must be no shorter than {min} characters.',
    params: ['min'],
  },
};

/**
 * PostgreSQL's spelling of its types in messages (`format_type`), where it differs from the name
 * the storage map prints.
 */
const PG_MESSAGE_SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  timestamptz: ['timestamp with time zone'],
  timestamp: ['timestamp without time zone', 'timestamp'],
  time: ['time without time zone', 'time'],
  jsonb: ['jsonb', 'json'],
};

interface Subject {
  /** The short name `{__subject__}` renders as. */
  readonly title: string;
  readonly constraints: readonly Constraint[];
}

/** The vocabulary of one schema (build once per schema version). */
export function schemaVocabulary(schema: Schema): ErrorVocabulary {
  const layout = storageLayout(schema);
  const key = (schemaName: string | undefined, name: string | undefined) =>
    `${schemaName ?? ''}\u0000${name ?? ''}`;

  // Constraint names are content-derived per subject; index them by (pg schema, name).
  const constraints = new Map<string, { subject: string; label: string }>();
  const required = new Map<string, string>();
  const foreignKeys = new Map<string, { link: string; target: string }>();
  for (const table of layout.tables) {
    for (const check of table.checks)
      constraints.set(key(check.spec.table.schema, check.spec.name), check);
    for (const index of table.indexes)
      if (index.kind === 'constraint')
        constraints.set(key(index.spec.table.schema, index.spec.name), index);
    for (const column of table.columns) {
      if (column.column.notNull && column.pointer !== 'id') {
        required.set(
          `${key(table.table.schema, table.table.name)}\u0000${column.column.name}`,
          `${column.kind} '${column.pointer}' of object type '${table.type}'`,
        );
      }
    }
    for (const fk of table.foreignKeys) {
      const pointer = schema.objectTypes
        .find((t) => t.name === table.type)
        ?.pointers.find((p) => p.name === fk.pointer);
      if (pointer?.target.kind !== 'object') continue;
      foreignKeys.set(key(fk.spec.table.schema, fk.spec.name), {
        link: `link '${fk.pointer}' of object type '${table.type}'`,
        target: pointer.target.name,
      });
    }
  }
  for (const domain of layout.domains)
    for (const check of domain.spec.checks)
      constraints.set(key(domain.spec.name.schema, check.name), {
        subject: domain.scalar,
        label: '',
      });

  const typeNames = pgTypeNames(schema);

  return {
    constraintMessage(fields: DatabaseErrorFields) {
      const found = constraints.get(key(fields.schema, fields.constraint));
      if (!found) return undefined;
      const subject = subjectOf(schema, found.subject);
      if (!subject) return undefined;
      const constraint = pickConstraint(subject.constraints, found.label);
      return constraint ? constraintMessage(schema, constraint, subject.title) : undefined;
    },
    requiredPointer(fields: DatabaseErrorFields) {
      return required.get(`${key(fields.schema, fields.table)}\u0000${fields.column ?? ''}`);
    },
    foreignKey(fields: DatabaseErrorFields) {
      return foreignKeys.get(key(fields.schema, fields.constraint));
    },
    renameTypes(message: string) {
      return message.replace(typeNames.pattern, (found) => typeNames.names.get(found) ?? found);
    },
  };
}

/** `default::User.name` (a pointer), `default::User` (a type) or `default::Positive` (a scalar). */
function subjectOf(schema: Schema, subject: string): Subject | undefined {
  const type = schema.objectTypes.find((t) => t.name === subject);
  if (type)
    return {
      title: type.annotations['std::title'] ?? short(type.name),
      constraints: type.constraints,
    };
  const scalar = schema.scalarTypes.find((s) => s.name === subject);
  if (scalar)
    return {
      title: scalar.annotations['std::title'] ?? short(scalar.name),
      constraints: scalar.constraints,
    };
  // `default::Item.tags@note`: a link property's own constraints.
  const [path, linkProperty] = subject.split('@') as [string, string | undefined];
  const dot = path.lastIndexOf('.');
  const owner = schema.objectTypes.find((t) => t.name === path.slice(0, dot));
  const link = owner?.pointers.find((p) => p.name === path.slice(dot + 1));
  const pointer =
    linkProperty === undefined ? link : link?.properties.find((p) => p.name === linkProperty);
  if (!pointer) return undefined;
  return {
    title: pointer.annotations['std::title'] ?? pointer.name,
    constraints: pointer.constraints,
  };
}

/** The constraint whose layout label is `label` (the only one of its name, when unlabelled). */
function pickConstraint(list: readonly Constraint[], label: string): Constraint | undefined {
  if (label === '') return list.length === 1 ? list[0] : undefined;
  const byLabel = list.find((c) => labelOf(c) === label);
  if (byLabel) return byLabel;
  const named = list.filter((c) => label.startsWith(c.name));
  return named.length === 1 ? named[0] : undefined;
}

/** The label schema/storage gives a constraint (`std::max_value(150)`, `... on (.a)`). */
function labelOf(c: Constraint): string {
  const args = c.args.map((a) => ql.printExpression(a)).join(', ');
  const on = c.subjectExpr ? ` on (${ql.printExpression(c.subjectExpr)})` : '';
  return `${c.name}${c.args.length ? `(${args})` : ''}${on}`;
}

function constraintMessage(schema: Schema, c: Constraint, subject: string): string {
  const abstract = schema.constraints.find((a) => a.name === c.name);
  const std = STD_CONSTRAINTS[c.name];
  const template =
    c.errmessage ?? abstract?.errmessage ?? std?.errmessage ?? 'invalid {__subject__}';
  const params = abstract?.params.map((p) => p.name) ?? std?.params ?? [];
  const values = new Map<string, string>([['__subject__', subject]]);
  params.forEach((name, i) => {
    const printed =
      name === 'vals'
        ? c.args.map((a) => ql.printExpression(a)).join(', ')
        : c.args[i] && ql.printExpression(c.args[i] as ql.Expr);
    if (printed !== undefined) values.set(name, printed);
  });
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values.get(name) ?? whole);
}

function short(name: string): string {
  return name.slice(name.lastIndexOf('::') + 2);
}

/**
 * PostgreSQL type names as they appear in messages → EdgeQL names: std's storage types (the
 * first EdgeQL type stored as each wins: `bigint` is `std::int64`, `interval` `std::duration`),
 * custom scalars' domains (`"default"."Positive"`, `Positive`).
 */
function pgTypeNames(schema: Schema): { pattern: RegExp; names: Map<string, string> } {
  const names = new Map<string, string>();
  for (const [edgeql, pg] of Object.entries(STD_PG_TYPES) as [StdScalarName, never][]) {
    const printed = printType(pg);
    for (const spelling of PG_MESSAGE_SPELLINGS[printed] ?? [printed])
      if (!names.has(spelling)) names.set(spelling, edgeql);
  }
  for (const scalar of schema.scalarTypes) {
    if (scalar.abstract) continue;
    const [module, name] = [
      scalar.name.slice(0, scalar.name.lastIndexOf('::')),
      short(scalar.name),
    ];
    names.set(`"${module}"."${name}"`, scalar.name);
    names.set(`${module}.${name}`, scalar.name);
  }
  // Longest first, whole words only (`timestamp with time zone` before `timestamp`), and only
  // where PostgreSQL names a type: after "type ", or "integer out of range" at the start.
  const alternatives = [...names.keys()]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\"]/g, '\\$&'))
    .join('|');
  const pattern = new RegExp(
    `(?<=\\btype )(?:${alternatives})(?![\\w"])|^(?:${alternatives})(?= out of range)`,
    'g',
  );
  return { pattern, names };
}
