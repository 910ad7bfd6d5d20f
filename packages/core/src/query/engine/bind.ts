/**
 * query/engine/bind: the values of a compiled query's `$n` parameters, by name.
 *
 * Input: the compiled query's `params` (query/api `QueryParam`, in `$n` order), the request's
 * `variables` and `globals` (JSON values), the caller's auth context, and the schema (declared
 * globals, custom scalars' bases). Output: one JSON text per parameter (`JSON.stringify(value)`;
 * an absent optional value is SQL NULL), the encoding query/api fixes for the compiled SQL to
 * decode from `$n::jsonb`.
 * Checks, before anything runs (spec Versioning 34, DECISIONS "Access"):
 * - a missing required variable, and a variable the query does not use, are 400
 *   VALIDATION_ERROR naming it;
 * - `globals` may set declared, non-computed globals only, and never the caller's own
 *   (`current_user_id`, `current_user_email`, `current_role`): 400 VALIDATION_ERROR naming it;
 * - a value of the wrong JSON kind for its declared type (a string for `std::int64`, a
 *   fraction for an integer, an object for an array) is a QueryArgumentError naming it; what
 *   the kind cannot tell (a malformed uuid or datetime) the database rejects as InvalidValueError.
 */
import { commonError, QueryArgumentError } from '../../errors';
import type { Schema } from '../../schema/model';
import type { QueryParam } from '../api';

/** What the caller's credentials say (DECISIONS.md, Access), fed to `auth` parameters. */
export interface AuthValues {
  /** The user's id; absent when anonymous. */
  readonly userId?: string;
  readonly email?: string;
  readonly roles: readonly string[];
}

export const ANONYMOUS_AUTH: AuthValues = Object.freeze({ roles: Object.freeze([]) });

/** Names the body's `globals` may never set: the caller's credentials provide them. */
const AUTH_GLOBALS = new Set(['current_user_id', 'current_user_email', 'current_role', 'roles']);

export interface BindInput {
  readonly variables: Readonly<Record<string, unknown>>;
  readonly globals: Readonly<Record<string, unknown>>;
  readonly auth: AuthValues;
}

/**
 * The parameter values of a compiled query, in `$n` order.
 *
 * @example
 * bindParameters([{ source: 'variable', name: 'id', type: 'std::uuid', required: true }],
 *   { variables: { id: '018f...' }, globals: {}, auth: ANONYMOUS_AUTH }, schema);
 * // ['"018f..."']
 */
export function bindParameters(
  params: readonly QueryParam[],
  input: BindInput,
  schema: Schema,
): (string | null)[] {
  const globals = resolveGlobals(input.globals, schema);
  const used = new Set<string>();
  const bindOne = (param: QueryParam): string | null => {
    switch (param.source) {
      case 'variable': {
        used.add(param.name);
        const present = Object.hasOwn(input.variables, param.name);
        const value = present ? input.variables[param.name] : undefined;
        // JSON's null is a value of std::json; for any other type it means "no value".
        if (value === null && param.type === 'std::json') return 'null';
        if (value === undefined || value === null) {
          if (!param.required) return null;
          throw commonError(
            'VALIDATION_ERROR',
            present
              ? `variable $${param.name} is required (${param.type}) and cannot be null`
              : `missing variable $${param.name} (${param.type})`,
          );
        }
        return encode(value, param, `variable $${param.name}`, schema);
      }
      case 'global': {
        const value = globals.get(param.name);
        if (value === undefined || value === null) return null;
        return encode(value, param, `global ${param.name}`, schema);
      }
      case 'auth':
        return authValue(param.name, input.auth);
    }
  };
  const values = params.map(bindOne);
  for (const name of Object.keys(input.variables)) {
    if (!used.has(name))
      throw commonError('VALIDATION_ERROR', `unknown variable $${name}: the query does not use it`);
  }
  return values;
}

/** The body's `globals` by fully qualified name; refuses undeclared, computed and auth globals. */
function resolveGlobals(
  given: Readonly<Record<string, unknown>>,
  schema: Schema,
): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [written, value] of Object.entries(given)) {
    const name = written.includes('::') ? written : `default::${written}`;
    const short = name.slice(name.lastIndexOf('::') + 2);
    if (AUTH_GLOBALS.has(short) && (name === `default::${short}` || !written.includes('::'))) {
      throw commonError(
        'VALIDATION_ERROR',
        `global ${written} comes from the caller's credentials and cannot be set in "globals"`,
      );
    }
    const declared = schema.globals.find((g) => g.name === name);
    if (!declared) throw commonError('VALIDATION_ERROR', `unknown global ${written}`);
    if (declared.computed)
      throw commonError('VALIDATION_ERROR', `global ${written} is computed and cannot be set`);
    out.set(name, value);
  }
  return out;
}

function authValue(name: string, auth: AuthValues): string | null {
  switch (name) {
    case 'current_user_id':
      return auth.userId === undefined ? null : JSON.stringify(auth.userId);
    case 'current_user_email':
      return auth.email === undefined ? null : JSON.stringify(auth.email);
    case 'current_role':
      return auth.roles[0] === undefined ? null : JSON.stringify(auth.roles[0]);
    case 'roles':
      return JSON.stringify(auth.roles);
    default:
      // The compiler only emits the names query/api lists; anything else is a bug, not input.
      throw new Error(`query/engine: unknown auth parameter ${name}`);
  }
}

/** Parsed type texts: a process sees few distinct ones, and every request binds them again. */
const parsedTypes = new Map<string, TypeExpr>();

function encode(value: unknown, param: QueryParam, what: string, schema: Schema): string {
  let type = parsedTypes.get(param.type);
  if (type === undefined) {
    type = parseType(param.type);
    if (parsedTypes.size < 10_000) parsedTypes.set(param.type, type);
  }
  const problem = kindProblem(type, value, schema);
  if (problem !== undefined) {
    throw new QueryArgumentError(`${what} expects ${param.type}: ${problem}`);
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// JSON kinds of EdgeQL types

type TypeExpr =
  | { readonly kind: 'named'; readonly name: string }
  | { readonly kind: 'array'; readonly element: TypeExpr }
  | { readonly kind: 'range'; readonly element: TypeExpr }
  | {
      readonly kind: 'tuple';
      readonly elements: readonly { readonly name: string | null; readonly type: TypeExpr }[];
    };

/** `array<tuple<a: std::str, std::int64>>` → a TypeExpr; anything unreadable is a named type. */
function parseType(text: string): TypeExpr {
  let at = 0;
  const skip = () => {
    while (text[at] === ' ') at++;
  };
  const name = (): string => {
    skip();
    const start = at;
    while (at < text.length && !'<>,'.includes(text[at] as string)) at++;
    return text.slice(start, at).trim();
  };
  const type = (): TypeExpr => {
    const head = name();
    skip();
    if (text[at] !== '<') return { kind: 'named', name: head };
    at++;
    if (head === 'array' || head === 'range') {
      const element = type();
      skip();
      at++; // '>'
      return { kind: head, element };
    }
    const elements: { name: string | null; type: TypeExpr }[] = [];
    for (;;) {
      skip();
      const label = /^(\w+)\s*:(?!:)/.exec(text.slice(at));
      let elementName: string | null = null;
      if (label) {
        elementName = label[1] as string;
        at += label[0].length;
      }
      elements.push({ name: elementName, type: type() });
      skip();
      const sep = text[at++];
      if (sep !== ',') break;
    }
    return { kind: 'tuple', elements };
  };
  return type();
}

const STRING_TYPES = new Set([
  'std::str',
  'std::uuid',
  'std::bytes',
  'std::datetime',
  'std::duration',
  'cal::local_datetime',
  'cal::local_date',
  'cal::local_time',
  'cal::relative_duration',
  'cal::date_duration',
]);
const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  'std::int16': [-32768, 32767],
  'std::int32': [-2147483648, 2147483647],
  'std::int64': [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  'std::sequence': [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};
/** Exact numbers too large for a JSON number travel as a string of digits. */
const DECIMAL_TEXT = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** Why `value` cannot be a `type`, or undefined when its JSON kind fits. */
function kindProblem(type: TypeExpr, value: unknown, schema: Schema): string | undefined {
  const got = describe(value);
  switch (type.kind) {
    case 'array': {
      if (!Array.isArray(value)) return `got ${got}, not an array`;
      for (const [i, element] of value.entries()) {
        const problem = element === null ? 'null' : kindProblem(type.element, element, schema);
        if (problem !== undefined) return `element ${i}: ${problem}`;
      }
      return undefined;
    }
    case 'tuple': {
      const named = type.elements.every((e) => e.name !== null);
      if (named) {
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          return `got ${got}, not an object`;
        for (const e of type.elements) {
          const problem = kindProblem(
            e.type,
            (value as Record<string, unknown>)[e.name as string],
            schema,
          );
          if (problem !== undefined) return `element ${e.name}: ${problem}`;
        }
        return undefined;
      }
      if (!Array.isArray(value) || value.length !== type.elements.length)
        return `got ${got}, not an array of ${type.elements.length} elements`;
      for (const [i, e] of type.elements.entries()) {
        const problem = kindProblem(e.type, value[i], schema);
        if (problem !== undefined) return `element ${i}: ${problem}`;
      }
      return undefined;
    }
    case 'range': {
      // Gel's JSON form: {"lower", "upper", "inc_lower", "inc_upper"} or {"empty": true}; a null
      // bound is unbounded. The SQL decode checks the rest.
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return `got ${got}, not a range object`;
      for (const bound of ['lower', 'upper'] as const) {
        const b = (value as Record<string, unknown>)[bound];
        const problem =
          b === undefined || b === null ? undefined : kindProblem(type.element, b, schema);
        if (problem !== undefined) return `${bound}: ${problem}`;
      }
      return undefined;
    }
    case 'named':
      return scalarProblem(storedAs(type.name, schema), value, got);
  }
}

function scalarProblem(name: string, value: unknown, got: string): string | undefined {
  if (name === 'std::json') return value === undefined ? 'got nothing' : undefined;
  if (STRING_TYPES.has(name))
    return typeof value === 'string' ? undefined : `got ${got}, not a string`;
  if (name === 'std::bool')
    return typeof value === 'boolean' ? undefined : `got ${got}, not true or false`;
  const range = INTEGER_RANGES[name];
  if (range) {
    if (typeof value !== 'number' || !Number.isInteger(value)) return `got ${got}, not an integer`;
    return value < range[0] || value > range[1] ? `${value} is out of range` : undefined;
  }
  if (name === 'std::float32' || name === 'std::float64')
    return typeof value === 'number' ? undefined : `got ${got}, not a number`;
  if (name === 'std::bigint' || name === 'std::decimal') {
    if (typeof value === 'number')
      return name === 'std::bigint' && !Number.isInteger(value)
        ? `got ${got}, not an integer`
        : undefined;
    return typeof value === 'string' && DECIMAL_TEXT.test(value)
      ? undefined
      : `got ${got}, not a number`;
  }
  return undefined; // a type the kinds cannot judge: the database decides
}

/** The std scalar a type is stored as (custom scalars and enums through the schema). */
function storedAs(name: string, schema: Schema): string {
  const scalar = schema.scalarTypes.find((s) => s.name === name);
  return scalar ? scalar.stdBase : name;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `a string`;
  if (typeof value === 'number')
    return Number.isInteger(value) ? `the integer ${value}` : `the number ${value}`;
  return `${typeof value} ${String(value)}`;
}
