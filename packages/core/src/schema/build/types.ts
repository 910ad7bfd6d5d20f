/**
 * build/types: small pure helpers over resolved `TypeRef`s — printing, equality, the std scalar
 * families (numeric, string-like, orderable) and the std base a custom scalar is stored as.
 *
 * Input: TypeRefs and the scalar table of a context. Output: strings and booleans.
 * Invariant: no helper throws; callers decide what a mismatch means.
 */
import {
  STD_SCALARS,
  type ScalarType,
  type StdScalarName,
  type TypeRef,
  printTypeRef,
} from '../../model/schema';

export const STD_SCALAR_SET: ReadonlySet<string> = new Set<string>(STD_SCALARS);

export const scalar = (name: string): TypeRef => ({ kind: 'scalar', name });
export const objectRef = (name: string): TypeRef => ({ kind: 'object', name });
export const arrayOf = (element: TypeRef): TypeRef => ({ kind: 'array', element });

export const STR = scalar('std::str');
export const BOOL = scalar('std::bool');
export const INT64 = scalar('std::int64');
export const FLOAT64 = scalar('std::float64');
export const UUID = scalar('std::uuid');
export const JSON_T = scalar('std::json');
export const DATETIME = scalar('std::datetime');
export const DURATION = scalar('std::duration');
export const BYTES = scalar('std::bytes');
export const DECIMAL = scalar('std::decimal');
export const BIGINT = scalar('std::bigint');

export function sameType(a: TypeRef, b: TypeRef): boolean {
  return printTypeRef(a) === printTypeRef(b);
}

/** True when the type holds an object type anywhere (`User`, `array<User>`, `tuple<User>`). */
export function containsObject(type: TypeRef): boolean {
  switch (type.kind) {
    case 'object':
    case 'union':
      return true;
    case 'scalar':
      return false;
    case 'array':
    case 'range':
    case 'multirange':
      return containsObject(type.element);
    case 'tuple':
      return type.elements.some((e) => containsObject(e.type));
  }
}

/** The std scalar a scalar type is stored as; itself for std scalars, null for unknown names. */
export function stdBaseOf(
  scalars: ReadonlyMap<string, ScalarType>,
  name: string,
): StdScalarName | null {
  if (STD_SCALAR_SET.has(name)) return name as StdScalarName;
  return scalars.get(name)?.stdBase ?? null;
}

const INTEGERS = new Set(['std::int16', 'std::int32', 'std::int64', 'std::bigint']);
const FLOATS = new Set(['std::float32', 'std::float64']);
const NUMERIC = new Set([...INTEGERS, ...FLOATS, 'std::decimal']);

export const isIntegral = (std: string | null): boolean => std !== null && INTEGERS.has(std);
export const isNumeric = (std: string | null): boolean => std !== null && NUMERIC.has(std);

/** Types with a total order a `min_value`-style constraint can compare against. */
export function isOrderable(std: string | null): boolean {
  return std !== null && std !== 'std::json' && std !== 'std::bytes' && std !== 'std::uuid';
}

/**
 * The result of an arithmetic operator on two numeric std types: the wider one, with
 * float winning over integers and decimal (Gel's implicit casts).
 */
export function widerNumeric(a: string, b: string): string {
  if (a === b) return a;
  const order = [
    'std::int16',
    'std::int32',
    'std::int64',
    'std::bigint',
    'std::decimal',
    'std::float32',
    'std::float64',
  ];
  if (FLOATS.has(a) || FLOATS.has(b)) {
    return a === 'std::float64' || b === 'std::float64' || INTEGERS.has(a) || INTEGERS.has(b)
      ? 'std::float64'
      : 'std::float32';
  }
  return order.indexOf(a) > order.indexOf(b) ? a : b;
}
