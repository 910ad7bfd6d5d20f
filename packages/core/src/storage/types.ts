/**
 * storage/types: which PostgreSQL type stores each EdgeQL type.
 *
 * Input: a `TypeRef` (and the Schema, for custom scalars). Output: a `PgType` (sql/ast).
 * Decisions:
 * - std scalars map to the built-in type of the same meaning (STD_PG_TYPES below); `std::bigint`
 *   is `svc_meta."bigint"`, a DOMAIN over numeric with `scale(VALUE) = 0` (created by
 *   STORAGE_BOOTSTRAP_SQL), so it is checked wherever it is stored, arrays included;
 * - a custom scalar is a DOMAIN named after it in its module's schema (`"default"."Slug"`), over
 *   its base's type, carrying the scalar's constraints as CHECKs — so constraints on scalars and
 *   casts to constrained scalars are enforced by PostgreSQL, for every element of an array or a
 *   multi property too (PostgreSQL 11+ checks domain constraints on array elements);
 * - an enum is a DOMAIN over text with `CHECK (VALUE IN (...))`: adding or removing a value is
 *   one `ALTER DOMAIN` in a transaction (a pg ENUM cannot lose values and cannot use a value
 *   added in the same transaction). Enum order for `<`/`>` is the compiler's job (array_position);
 * - tuples (and arrays of tuples) are `jsonb`: a JSON array of the elements in order, names
 *   coming from the schema. No composite types to create, alter or drop when a tuple changes,
 *   and it works on Citus/CockroachDB/YugabyteDB. The cost: no per-element type check in storage;
 * - an array whose element is an array (queries only: schema types refuse them, docs/gel-differences.md) is
 *   `jsonb` too, a JSON array of its elements' stored JSON (std/scalars `storedJson`): an SQL
 *   array of arrays would be a multidimensional array (no jagged arrays, `unnest` flattening);
 * - a link is a `uuid` (the target's id); `std::sequence` is `bigint` (custom sequence scalars
 *   also get a pg SEQUENCE, see layout).
 */
import {
  STD_ENUMS,
  isRangeElement,
  printTypeRef,
  type RangeElementName,
  type Schema,
  type ScalarType,
  type StdScalarName,
  type TypeRef,
} from '../model/schema';
import { pgArrayOf, pgType, pgUserType, type PgType } from '../sql/ast';
import { BUILTIN_ENUMS } from '../model/fts';

export const STD_PG_TYPES: Readonly<Record<StdScalarName, PgType>> = {
  'std::str': pgType('text'),
  'std::bool': pgType('boolean'),
  'std::int16': pgType('smallint'),
  'std::int32': pgType('integer'),
  'std::int64': pgType('bigint'),
  'std::float32': pgType('real'),
  'std::float64': pgType('double precision'),
  'std::bigint': pgUserType('svc_meta', 'bigint'),
  'std::decimal': pgType('numeric'),
  'std::uuid': pgType('uuid'),
  'std::json': pgType('jsonb'),
  'std::bytes': pgType('bytea'),
  'std::datetime': pgType('timestamptz'),
  'std::duration': pgType('interval'),
  'std::sequence': pgType('bigint'),
  'cal::local_datetime': pgType('timestamp'),
  'cal::local_date': pgType('date'),
  'cal::local_time': pgType('time'),
  'cal::relative_duration': pgType('interval'),
  'cal::date_duration': pgType('interval'),
};

/** `default::User` → `['default', 'User']`; `a::b::T` → `['a::b', 'T']`. */
export function splitName(name: string): [module: string, short: string] {
  const at = name.lastIndexOf('::');
  return at < 0 ? ['default', name] : [name.slice(0, at), name.slice(at + 2)];
}

export function isStdScalar(name: string): name is StdScalarName {
  return Object.hasOwn(STD_PG_TYPES, name);
}

export function findScalar(schema: Schema, name: string): ScalarType | undefined {
  return schema.scalarTypes.find((s) => s.name === name);
}

/** The PostgreSQL type a scalar (std or custom) is stored as. */
export function scalarPgType(name: string): PgType {
  if (isStdScalar(name)) return STD_PG_TYPES[name];
  if (BUILTIN_ENUMS[name]) return pgType('text');
  const [module, short] = splitName(name);
  // A std enum (`std::Endian`): its DOMAIN is in svc_meta, made by the storage bootstrap.
  if (STD_ENUMS[name]) return pgUserType('svc_meta', short);
  return pgUserType(module, short);
}

/**
 * Whether an array of `element` is one jsonb array rather than an SQL array: its element is a
 * tuple (itself jsonb) or an array (an SQL array cannot hold arrays).
 */
export function jsonbArrayOf(element: TypeRef): boolean {
  return element.kind === 'tuple' || element.kind === 'array';
}

/** The PostgreSQL type of a stored value of `type` (a column or a junction `value`). */
export function pgTypeOf(type: TypeRef): PgType {
  switch (type.kind) {
    case 'scalar':
      return scalarPgType(type.name);
    case 'object':
    case 'union':
      return pgType('uuid');
    case 'tuple':
      return pgType('jsonb');
    case 'array':
      return jsonbArrayOf(type.element) ? pgType('jsonb') : pgArrayOf(pgTypeOf(type.element));
    case 'range':
      return rangePgType(type.element);
    case 'multirange':
      return multirangePgType(type.element);
  }
}

/**
 * The PostgreSQL range type of a `range<T>`: PostgreSQL has no float range, so float32/float64
 * ranges are `numrange` (their bounds are converted back to the float type when read).
 */
const RANGE_PG_TYPES: Readonly<Record<RangeElementName, string>> = {
  'std::int32': 'int4range',
  'std::int64': 'int8range',
  'std::float32': 'numrange',
  'std::float64': 'numrange',
  'std::decimal': 'numrange',
  'std::datetime': 'tstzrange',
  'cal::local_datetime': 'tsrange',
  'cal::local_date': 'daterange',
};

export function rangePgType(element: TypeRef): PgType {
  if (element.kind !== 'scalar' || !isRangeElement(element.name))
    throw new Error(`storage: no range of ${printTypeRef(element)}`);
  return pgType(RANGE_PG_TYPES[element.name]);
}

/** The PostgreSQL multirange type of a `multirange<T>` (`int4multirange`, ...: the range's). */
export function multirangePgType(element: TypeRef): PgType {
  return pgType(rangePgType(element).name.replace(/range$/, 'multirange'));
}

/** The std scalar a scalar type is stored as (itself for std scalars). */
export function stdBaseOf(schema: Schema, name: string): StdScalarName | null {
  if (isStdScalar(name)) return name;
  return findScalar(schema, name)?.stdBase ?? null;
}
