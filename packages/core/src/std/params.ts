/**
 * std/params: does a JSON parameter value have the JSON kind its EdgeQL type needs?
 *
 * Input: the parameter's type (a TypeRef), the value the request sent (parsed JSON), and the
 * TypeEnv (custom scalars and enums are checked as the std scalar they are stored as). Output:
 * why the value cannot be of that type, or undefined when its kind fits. The kinds come from the
 * std table (`ScalarInfo.param`); containers follow query/api's encoding: an array is a JSON
 * array, an unnamed tuple an array of its elements, a named tuple an object (or an array by
 * position, as Gel's protocol sends it), a range Gel's
 * `{"lower", "upper", "inc_lower", "inc_upper"}` (or `{"empty": true}`) object, a multirange a
 * JSON array of range objects.
 * Invariant: pure; no knowledge of a scalar type outside the std table.
 */
import type { TypeRef } from '../model/schema';
import type { TypeEnv } from './model';
import { scalarInfo, type ParamKind } from './scalars';

/**
 * Exact numbers too large for a JSON number travel as a string of digits: the text forms the
 * binder accepts for an `exact` kind (bigint, decimal) and for int64, for layers that make such text (REST
 * filters) or describe it (the OpenAPI document).
 */
export const EXACT_TEXT = Object.freeze({
  integer: /^-?\d+$/,
  decimal: /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/,
});

/** int64's range: a string of digits for an int64 may hold any of it. */
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Why `value` cannot be a parameter of `type`, or undefined when its JSON kind fits. */
export function paramValueProblem(type: TypeRef, value: unknown, env: TypeEnv): string | undefined {
  const got = describe(value);
  switch (type.kind) {
    case 'array': {
      if (!Array.isArray(value)) return `got ${got}, not an array`;
      for (const [i, element] of value.entries()) {
        const problem = element === null ? 'null' : paramValueProblem(type.element, element, env);
        if (problem !== undefined) return `element ${i}: ${problem}`;
      }
      return undefined;
    }
    case 'tuple': {
      // A named tuple is an object, or (as Gel's protocol sends it) an array by position.
      if (type.elements.every((e) => e.name !== null) && !Array.isArray(value)) {
        if (typeof value !== 'object' || value === null)
          return `got ${got}, not an object or an array of ${type.elements.length} elements`;
        for (const e of type.elements) {
          const field = (value as Record<string, unknown>)[e.name as string];
          const problem = paramValueProblem(e.type, field, env);
          if (problem !== undefined) return `element ${e.name}: ${problem}`;
        }
        return undefined;
      }
      if (!Array.isArray(value) || value.length !== type.elements.length)
        return `got ${got}, not an array of ${type.elements.length} elements`;
      for (const [i, e] of type.elements.entries()) {
        const problem = paramValueProblem(e.type, value[i], env);
        if (problem !== undefined) return `element ${i}: ${problem}`;
      }
      return undefined;
    }
    case 'range': {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return `got ${got}, not a range object`;
      for (const bound of ['lower', 'upper'] as const) {
        const b = (value as Record<string, unknown>)[bound];
        const problem =
          b === undefined || b === null ? undefined : paramValueProblem(type.element, b, env);
        if (problem !== undefined) return `${bound}: ${problem}`;
      }
      return undefined;
    }
    case 'multirange': {
      // A JSON array of range objects.
      if (!Array.isArray(value)) return `got ${got}, not an array of range objects`;
      const range: TypeRef = { kind: 'range', element: type.element };
      for (const [i, element] of value.entries()) {
        const problem = paramValueProblem(range, element, env);
        if (problem !== undefined) return `element ${i}: ${problem}`;
      }
      return undefined;
    }
    case 'scalar': {
      const info = scalarInfo(type.name, env);
      return info ? kindProblem(info.param, value, got) : undefined;
    }
    default:
      // Objects, unions: not a parameter type the binder emits; the database decides.
      return undefined;
  }
}

function kindProblem(kind: ParamKind, value: unknown, got: string): string | undefined {
  switch (kind.kind) {
    case 'any':
      return value === undefined ? 'got nothing' : undefined;
    case 'string':
      return typeof value === 'string' ? undefined : `got ${got}, not a string`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `got ${got}, not true or false`;
    case 'integer':
      if (kind.int64 && typeof value === 'string' && EXACT_TEXT.integer.test(value))
        return BigInt(value) < INT64_MIN || BigInt(value) > INT64_MAX
          ? `${value} is out of range`
          : undefined;
      if (typeof value !== 'number' || !Number.isInteger(value))
        return `got ${got}, not an integer`;
      if (kind.int64 && !Number.isSafeInteger(value))
        return `${value} is beyond JSON's exact integers: send it as a string of digits`;
      return value < kind.min || value > kind.max ? `${value} is out of range` : undefined;
    case 'number':
      return typeof value === 'number' ? undefined : `got ${got}, not a number`;
    case 'exact':
      if (typeof value === 'number')
        return kind.integer && !Number.isInteger(value) ? `got ${got}, not an integer` : undefined;
      return typeof value === 'string' &&
        (kind.integer ? EXACT_TEXT.integer : EXACT_TEXT.decimal).test(value)
        ? undefined
        : `got ${got}, not ${kind.integer ? 'an integer' : 'a number'}`;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number')
    return Number.isInteger(value) ? `the integer ${value}` : `the number ${value}`;
  return `${typeof value} ${String(value)}`;
}
