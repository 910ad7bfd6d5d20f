/**
 * gel-replay/session: the session state of a test method, the statements that change it, and
 * how a query runs under it.
 *
 * Gel runs each test method in a transaction that is rolled back, which reverts the session
 * state too; the runner keeps one state per method (and one for the class's setup):
 * - `module`: the default module (`set module m`, `reset module`);
 * - `globals`: the globals set so far, by qualified name, as svc's request takes them: a name
 *   absent is "not set" (the global's default applies), present with JSON null is "set to the
 *   empty set" (`set global x := {}`), any other value sets it;
 * - `policies`: whether access policies apply (Gel: on unless `configure session set
 *   apply_access_policies := false`);
 * - `userSpecifiedId`: whether an insert may give the new object's id (Gel: `configure session
 *   set allow_user_specified_id := true`; svc: the server setting allowUserSpecifiedId, the
 *   compile option of the same name).
 * A script step that fails puts the state back as it was before the step (Gel rolls back to the
 * step's savepoint, session state with it).
 *
 * Every query compiles with `access: { policies }` and binds `globals` through svc's own
 * `bindParameters`, so svc's checks and refusals of globals are the ones a request meets.
 */
import {
  core,
  engine,
  harness,
  type CompiledQuery,
  type CompileQuery,
  type Queryable,
  type Schema,
} from './core';
import { statementHead } from './script';

export interface SessionState {
  module: string | null;
  globals: Record<string, unknown>;
  policies: boolean;
  userSpecifiedId: boolean;
}

/** A method's state when it starts (Gel's defaults). */
export function initialState(): SessionState {
  return { module: null, globals: {}, policies: true, userSpecifiedId: false };
}

export function copyState(state: SessionState): SessionState {
  return {
    module: state.module,
    globals: { ...state.globals },
    policies: state.policies,
    userSpecifiedId: state.userSpecifiedId,
  };
}

/** Puts `saved` back into `state` (in place: callers hold `state`). */
export function restoreState(state: SessionState, saved: SessionState): void {
  state.module = saved.module;
  state.globals = { ...saved.globals };
  state.policies = saved.policies;
  state.userSpecifiedId = saved.userSpecifiedId;
}

export type SessionStatement =
  | { readonly kind: 'module'; readonly module: string | null }
  | { readonly kind: 'set global'; readonly name: string; readonly expr: string }
  | { readonly kind: 'reset global'; readonly name: string }
  | { readonly kind: 'policies'; readonly apply: boolean }
  | { readonly kind: 'user specified id'; readonly allow: boolean };

/** The session statement `statement` is, or null when it is not one the runner follows. */
export function sessionStatement(statement: string): SessionStatement | null {
  const head = statementHead(statement);
  let m = /^set\s+module\s+([\w:]+)$/i.exec(head);
  if (m) return { kind: 'module', module: m[1] as string };
  if (/^reset\s+module$/i.test(head)) return { kind: 'module', module: null };
  m = /^set\s+global\s+([\w:]+)\s*:=\s*([\s\S]+)$/i.exec(head);
  if (m) return { kind: 'set global', name: m[1] as string, expr: (m[2] as string).trim() };
  m = /^reset\s+global\s+([\w:]+)$/i.exec(head);
  if (m) return { kind: 'reset global', name: m[1] as string };
  m = /^configure\s+session\s+set\s+apply_access_policies\s*:=\s*(true|false)$/i.exec(head);
  if (m) return { kind: 'policies', apply: (m[1] as string).toLowerCase() === 'true' };
  if (/^configure\s+session\s+reset\s+apply_access_policies$/i.test(head))
    return { kind: 'policies', apply: true };
  m = /^configure\s+session\s+set\s+allow_user_specified_id\s*:=\s*(true|false)$/i.exec(head);
  if (m) return { kind: 'user specified id', allow: (m[1] as string).toLowerCase() === 'true' };
  if (/^configure\s+session\s+reset\s+allow_user_specified_id$/i.test(head))
    return { kind: 'user specified id', allow: false };
  return null;
}

/** A global's name as svc's `globals` takes it: `m::x`, or `x` in the session's module. */
export function qualifiedGlobal(name: string, module: string | null): string {
  return name.includes('::') ? name : `${module ?? 'default'}::${name}`;
}

/** An error Gel raises for a session statement, named by its Gel class (`type`, as svc's error
 * envelope names a class), carrying svc's own message. */
export class GelSessionError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = type;
  }
}

/**
 * svc's refusals of a `globals` entry (query/engine/bind, VALIDATION_ERROR), matched on svc's
 * own wording, and the error Gel raises for `set global` / `reset global` of such a global: a
 * system global (the caller's, in svc) or a computed one is a ConfigurationError ("may not be
 * explicitly specified", "is computed from an expression and cannot be modified"); an
 * undeclared one does not exist (InvalidReferenceError).
 */
const GLOBAL_REFUSALS: readonly (readonly [RegExp, string])[] = [
  [/comes from the caller's credentials/, 'ConfigurationError'],
  [/ is computed and cannot be set/, 'ConfigurationError'],
  [/^unknown global /, 'InvalidReferenceError'],
];

/** Does svc take `globals` naming these? Throws svc's own refusal otherwise (unmapped). */
export function checkGlobals(schema: Schema, globals: Readonly<Record<string, unknown>>): void {
  engine.bindParameters([], { variables: {}, globals, auth: core.ANONYMOUS_AUTH }, schema);
}

/** svc's refusal of a `globals` entry `name`, as the error Gel raises for a session statement
 * setting or resetting it (GLOBAL_REFUSALS); nothing when svc takes it. */
export function refuseSessionGlobal(schema: Schema, name: string): void {
  try {
    checkGlobals(schema, { [name]: null });
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === 'VALIDATION_ERROR' && typeof message === 'string') {
      for (const [pattern, type] of GLOBAL_REFUSALS)
        if (pattern.test(message)) throw new GelSessionError(type, message);
    }
    throw error;
  }
}

/** Compiles `text` under the session's access mode. */
export function compileUnder(
  compile: CompileQuery,
  schema: Schema,
  text: string,
  state: SessionState,
  describe = false,
): CompiledQuery {
  return compile(schema, text, {
    cardinality: 'many',
    access: { policies: state.policies },
    allowUserSpecifiedId: state.userSpecifiedId,
    ...(describe ? { describe } : {}),
  });
}

/** A statement's result type: printed, and as svc's `describe` gives one element's JSON form. */
export interface ResultTypes {
  readonly printed: string;
  readonly output: unknown;
}

/**
 * Runs one statement the way svc does (query/conformance/run-query, plus the session): compiled
 * under the session's access mode, its variables and the session's globals bound by svc's
 * `bindParameters`, the compiled SQL in one round trip, the `result` column parsed.
 */
export async function runUnder(
  compiled: CompiledQuery,
  schema: Schema,
  db: Queryable,
  variables: Readonly<Record<string, unknown>>,
  state: SessionState,
): Promise<unknown[]> {
  return harness.runCompiled(compiled, schema, db, { variables, globals: state.globals });
}

/**
 * The value `set global <name> := <expr>` gives the global (null: the empty set), checked as
 * Gel checks it: svc must take a `globals` entry of that name (refuseSessionGlobal); the
 * expression's compiled cardinality must fit the global (a single global: at most one element,
 * else QueryError "possibly more than one element returned"; a required one: at least one, else
 * "possibly an empty set returned"); and the value must be one svc binds for the global (its
 * QueryArgumentError otherwise). `run` evaluates a compiled `select` under the session.
 */
export async function globalValue(
  compile: CompileQuery,
  schema: Schema,
  name: string,
  expr: string,
  state: SessionState,
  run: (compiled: CompiledQuery) => Promise<unknown[]>,
): Promise<unknown> {
  refuseSessionGlobal(schema, name);
  const declared = schema.globals.find((g) => g.name === name);
  const single = declared?.cardinality !== 'many';
  // On lines of its own: a trailing `# comment` in the expression ends at its line.
  const compiled = compileUnder(compile, schema, `select (\n${expr}\n)`, state);
  const many = compiled.cardinality === 'many' || compiled.cardinality === 'atLeastOne';
  const empty = compiled.cardinality === 'many' || compiled.cardinality === 'atMostOne';
  if (single && many)
    throw new GelSessionError(
      'QueryError',
      `possibly more than one element returned by an expression for global '${name}' (compiled cardinality ${compiled.cardinality})`,
    );
  if (declared?.required && empty)
    throw new GelSessionError(
      'QueryError',
      `possibly an empty set returned by an expression for required global '${name}' (compiled cardinality ${compiled.cardinality})`,
    );
  const data = await run(compiled);
  const value = single ? (data.length === 0 ? null : data[0]) : data;
  if (value !== null) {
    const reader = compileUnder(compile, schema, `select global ${name}`, state);
    engine.bindParameters(
      reader.params,
      { variables: {}, globals: { ...state.globals, [name]: value }, auth: core.ANONYMOUS_AUTH },
      schema,
    );
  }
  return value;
}
