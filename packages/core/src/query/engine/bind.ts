/**
 * query/engine/bind: the values of a compiled query's `$n` parameters, by name.
 *
 * Input: the compiled query's `params` (query/api `QueryParam`, in `$n` order), the request's
 * `variables` and `globals` (JSON values), the caller's auth context, and the schema (declared
 * globals, custom scalars' bases). Output: one JSON text per parameter (`JSON.stringify(value)`;
 * an absent optional value is SQL NULL), the encoding query/api fixes for the compiled SQL to
 * decode from `$n::jsonb`.
 * Checks, before anything runs (the `POST /query` contract, docs/http.md):
 * - a missing required variable, and a variable the query does not use, are 400
 *   VALIDATION_ERROR naming it;
 * - `globals` may set declared, non-computed globals only, and never the caller's own
 *   (std/caller: `current_user_id`, `current_user_email`, `current_role`,
 *   `current_user_is_anonymous`): 400 VALIDATION_ERROR naming it. A global left out takes its
 *   default; one given as null is empty (Gel's `set global x := {}`), which a `required` global
 *   refuses (400);
 * - a variable or global nested deeper than `MAX_JSON_DEPTH` arrays and objects is 400
 *   VALIDATION_ERROR naming it (core/json): the encoder's `JSON.stringify` is recursive, and
 *   this is the one place every parameter value passes, from `/query`, REST and `svc query`;
 * - a value of the wrong JSON kind for its declared type (a string for `std::int64`, a
 *   fraction for an integer, an object for an array: std's `paramValueProblem`, from the std
 *   table) is a QueryArgumentError naming it; what the kind cannot tell (a malformed uuid or
 *   datetime) the database rejects as InvalidValueError.
 */
import { commonError, QueryArgumentError } from '../../errors';
import { jsonDepthProblem } from '../../json';
import type { Schema } from '../../schema/model';
import type { TypeRef } from '../../schema/model';
import { paramValueProblem, scalarInfo, type ParamKind, type TypeEnv } from '../../std';
import { isCallerName } from '../../std/caller';
import type { QueryParam } from '../api';
import { typeEnv } from '../bind/calls';
import { schemaIndex } from '../schema-index';

/**
 * What the caller's verified credentials say (never the request body), fed to `auth` parameters.
 */
export interface AuthValues {
  /** The user's id; absent when anonymous. */
  readonly userId?: string;
  readonly email?: string;
  readonly roles: readonly string[];
  /** A guest session's token (`is_anonymous` claim); false or absent otherwise. */
  readonly isAnonymous?: boolean;
  /** The token's `permissions` claim; empty when absent. */
  readonly permissions?: readonly string[];
}

export const ANONYMOUS_AUTH: AuthValues = Object.freeze({ roles: Object.freeze([]) });

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
  // Custom scalars' and enums' std bases, looked up once per request (only when a value is).
  let env: TypeEnv | undefined;
  const envOf = (): TypeEnv => {
    env ??= typeEnv(schemaIndex(schema));
    return env;
  };
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
        return encode(value, param, `variable $${param.name}`, envOf());
      }
      case 'global': {
        if (!globals.has(param.name)) return null;
        const value = globals.get(param.name);
        if (value === null || value === undefined) {
          if (param.required)
            throw commonError(
              'VALIDATION_ERROR',
              `global ${param.name} is required (${param.type}) and cannot be null`,
            );
          // Set empty: JSON null, told apart from "left out" (SQL NULL) where a default applies.
          const declared = schema.globals.find((g) => g.name === param.name);
          return declared?.default ? 'null' : null;
        }
        return encode(value, param, `global ${param.name}`, envOf());
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
    if (isCallerName(written)) {
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
    case 'current_user_is_anonymous':
      return JSON.stringify(auth.isAnonymous === true);
    case 'roles':
      return JSON.stringify(auth.roles);
    case 'permissions':
      return JSON.stringify(auth.permissions ?? []);
    default:
      // The compiler only emits the names query/api lists; anything else is a bug, not input.
      throw new Error(`query/engine: unknown auth parameter ${name}`);
  }
}

function encode(value: unknown, param: QueryParam, what: string, env: TypeEnv): string {
  const tooDeep = jsonDepthProblem(value);
  if (tooDeep !== undefined) throw commonError('VALIDATION_ERROR', `${what} is ${tooDeep}`);
  const problem = paramValueProblem(param.valueType, value, env);
  if (problem !== undefined) {
    throw new QueryArgumentError(`${what} expects ${param.type}: ${problem}`);
  }
  return JSON.stringify(value);
}

/**
 * What is wrong with `value` as a JSON value of `type` (the check `bindParameters` makes on a
 * variable), or undefined. For layers that build queries from JSON input and name the field
 * themselves (REST bodies and filters).
 *
 * @example
 * valueProblem(schema, { kind: 'scalar', name: 'std::int16' }, 70000); // '70000 is out of range'
 */
export function valueProblem(schema: Schema, type: TypeRef, value: unknown): string | undefined {
  return paramValueProblem(type, value, typeEnv(schemaIndex(schema)));
}

/**
 * The JSON kind a value of scalar `name` (std, custom or enum) takes as a variable, or null for
 * a name the schema does not know. One table with the binder's check (std/scalars `param`).
 */
export function scalarValueKind(schema: Schema, name: string): ParamKind | null {
  return scalarInfo(name, typeEnv(schemaIndex(schema)))?.param ?? null;
}
