/**
 * std/resolve: Gel's overload resolution over the std table (std/operators, std/functions).
 *
 * Input: an operator or a qualified function name, the arguments' types (null for an untyped
 * empty set `{}` or a type that cannot be told), and a TypeEnv for custom scalars and enums.
 * Output: a `ResolvedCall` — the overload, the bound parameter and result types, the SQL builder
 * (implicit casts of the arguments applied) and the result cardinality rule.
 * Rules:
 * - every overload whose parameters accept the arguments (by implicit casts, polymorphic binding)
 *   is a candidate; the one needing the fewest implicit casts wins, a polymorphic parameter
 *   costing a little more than an exact one (so `(str, str)` beats `(anyscalar, anyscalar)`);
 * - a tie between different overloads is an error (InvalidTypeError, "is ambiguous"), unless an
 *   argument's type is unknown (schema inference of `{}`): then the first wins and the result
 *   type is kept only if every tied overload agrees on it;
 * - no candidate: operators raise InvalidTypeError (`operator '+' cannot be applied to operands of
 *   type 'std::str' and 'std::int64'`), functions InvalidReferenceError (`function
 *   "std::len(arg0: std::int64)" does not exist`), with the signatures as a hint.
 */
import { InvalidReferenceError, InvalidTypeError, type SourcePosition } from '../errors';
import {
  isDiscreteRangeElement,
  isRangeElement,
  printTypeRef,
  type TypeRef,
} from '../model/schema';
import { sql, type SqlExpr } from '../sql/ast';
import {
  commonType,
  implicitDistance,
  implicitlyReachable,
  resolutionBase,
  resolveCast,
  scalarDistance,
} from './casts';
import type {
  Card,
  Overload,
  Param,
  PolyName,
  SigType,
  SqlArgs,
  TypeEnv,
  Volatility,
} from './model';
import { pgTypeFor, STD_ONLY } from './scalars';
import { NUMERIC } from './casts/implicit';
import { STD_FUNCTIONS } from './functions';
import { STD_OPERATORS } from './operators';

/** One argument as written: its type (null: unknown), and its name for `name := value`. */
export interface CallArg {
  readonly type: TypeRef | null;
  readonly name?: string;
  /** An empty array literal `[]` (type null): it meets array parameters only. */
  readonly emptyArray?: boolean;
}

export interface ResolvedCall {
  readonly overload: Overload;
  /** The result type with polymorphic types bound; null when it cannot be told (`{}` args). */
  readonly returnType: TypeRef | null;
  /** The bound type of each parameter (index into `overload.params`). */
  readonly paramTypes: readonly (TypeRef | null)[];
  /** For each argument as written, the parameter it binds to. */
  readonly argParams: readonly number[];
  readonly volatility: Volatility;
  /**
   * The SQL of the call from the arguments' SQL in the written order. `nullable[i]` says whether
   * argument i may be NULL (an optional or possibly empty value); omitted means "no".
   */
  readonly sql: (args: readonly SqlExpr[], nullable?: readonly boolean[]) => SqlExpr;
  /** The result cardinality from the arguments' cardinalities in the written order. */
  readonly card: (args: readonly Card[]) => Card;
  /** A set-returning call: one row's value from the form's column (Overload.rows). */
  readonly rowValue: (row: SqlExpr) => SqlExpr;
}

export interface ResolveOptions {
  readonly env?: TypeEnv;
  /** Where the call is written: put on the errors. */
  readonly position?: SourcePosition;
}

const POLY_COST = 1;
const CAST_COST = 10;

export function stdOperatorOverloads(op: string): readonly Overload[] {
  return STD_OPERATORS.get(op) ?? [];
}

export function stdFunctionOverloads(name: string): readonly Overload[] {
  return STD_FUNCTIONS.get(name) ?? [];
}

/** True when `name` (qualified: `std::len`, `math::abs`) is a std function. */
export function isStdFunction(name: string): boolean {
  return STD_FUNCTIONS.has(name);
}

/** The std library's submodules named by its functions (`std::enc`), as Gel names them. */
const STD_SUBMODULES: ReadonlySet<string> = new Set(
  [...STD_FUNCTIONS.keys()]
    .filter((name) => name.startsWith('std::') && name.split('::').length === 3)
    .map((name) => name.slice(0, name.lastIndexOf('::'))),
);

/** Is `module` a submodule of std the table has functions in (`std::enc`)? */
export function isStdSubmodule(module: string): boolean {
  return STD_SUBMODULES.has(module);
}

/** Every std operator's name as written in EdgeQL (`+`, `like`, `[]`). */
export function stdOperatorNames(): readonly string[] {
  return [...STD_OPERATORS.keys()];
}

/** Every std function's qualified name (for "did you mean" hints). */
export function stdFunctionNames(): readonly string[] {
  return [...STD_FUNCTIONS.keys()];
}

/**
 * Resolved calls by environment and call key (name + argument types and names). A ResolvedCall
 * depends on nothing else, so a schema's TypeEnv reused across compilations reuses them.
 */
const cache = new WeakMap<TypeEnv, Map<string, ResolvedCall>>();

function cacheKey(kind: string, name: string, args: readonly CallArg[]): string {
  let key = `${kind}:${name}`;
  for (const a of args) key += `|${a.name ?? ''}=${a.type ? printTypeRef(a.type) : '{}'}`;
  return key;
}

function cached(env: TypeEnv, key: string, resolve: () => ResolvedCall): ResolvedCall {
  let entries = cache.get(env);
  if (!entries) {
    entries = new Map();
    cache.set(env, entries);
  }
  const hit = entries.get(key);
  if (hit) return hit;
  const resolved = resolve();
  entries.set(key, resolved);
  return resolved;
}

export function resolveOperator(
  op: string,
  args: readonly CallArg[],
  options: ResolveOptions = {},
): ResolvedCall {
  const env = options.env ?? STD_ONLY;
  return cached(env, cacheKey('op', op, args), () =>
    resolveOperatorUncached(op, args, env, options),
  );
}

const byArity = new Map<string, readonly Overload[]>();

/** A prefix and an infix operator share a name (`-`): the positional count tells them apart. */
function operatorsTaking(op: string, positional: number): readonly Overload[] {
  const key = `${op}/${positional}`;
  let found = byArity.get(key);
  if (!found) {
    found = (STD_OPERATORS.get(op) ?? []).filter(
      (o) => o.params.filter((p) => p.kind === 'positional').length === positional,
    );
    byArity.set(key, found);
  }
  return found;
}

function resolveOperatorUncached(
  op: string,
  args: readonly CallArg[],
  env: TypeEnv,
  options: ResolveOptions,
): ResolvedCall {
  const overloads = operatorsTaking(op, args.filter((a) => a.name === undefined).length);
  const found = pick(overloads, args, env, () => `operator '${op}'`, options.position);
  if (found) return found;
  const types = args.map((a) => `'${a.type ? printTypeRef(a.type) : 'anytype'}'`);
  throw new InvalidTypeError(
    args.length === 1
      ? `operator '${op}' cannot be applied to operand of type ${types[0]}`
      : `operator '${op}' cannot be applied to operands of type ${types.join(' and ')}`,
    { hint: signatureHint(STD_OPERATORS.get(op) ?? []), position: options.position },
  );
}

export function resolveFunction(
  name: string,
  args: readonly CallArg[],
  options: ResolveOptions = {},
): ResolvedCall {
  const env = options.env ?? STD_ONLY;
  return cached(env, cacheKey('fn', name, args), () =>
    resolveFunctionUncached(name, args, env, options),
  );
}

function resolveFunctionUncached(
  name: string,
  args: readonly CallArg[],
  env: TypeEnv,
  options: ResolveOptions,
): ResolvedCall {
  const overloads = STD_FUNCTIONS.get(name);
  if (!overloads) {
    throw new InvalidReferenceError(`function '${name}' does not exist`, {
      position: options.position,
    });
  }
  const found = pick(overloads, args, env, () => `function '${name}'`, options.position);
  if (found) return found;
  const written = args.map((a, i) =>
    a.name !== undefined
      ? `NAMED ONLY ${a.name}: ${a.type ? printTypeRef(a.type) : 'anytype'}`
      : `arg${i}: ${a.type ? printTypeRef(a.type) : 'anytype'}`,
  );
  throw new InvalidReferenceError(`function "${name}(${written.join(', ')})" does not exist`, {
    hint: signatureHint(overloads),
    position: options.position,
  });
}

/** `<to>value`: re-exported here so callers resolve everything from one module. */
export { resolveCast };

// ---------------------------------------------------------------------------------------------

function printSig(type: SigType): string {
  switch (type.kind) {
    case 'poly':
      return type.name;
    case 'scalar':
      return type.name;
    case 'array':
      return `array<${printSig(type.element)}>`;
    case 'range':
      return `range<${printSig(type.element)}>`;
    case 'multirange':
      return `multirange<${printSig(type.element)}>`;
    case 'tuple':
      return `tuple<${type.elements.map((e) => (e.name ? `${e.name}: ` : '') + printSig(e.type)).join(', ')}>`;
  }
}

export function printSignature(o: Overload): string {
  const params = o.params.map((p) => {
    const mod = p.typemod === 'set-of' ? 'SET OF ' : p.typemod === 'optional' ? 'OPTIONAL ' : '';
    const kind = p.kind === 'variadic' ? 'VARIADIC ' : p.kind === 'named-only' ? 'NAMED ONLY ' : '';
    return `${kind}${p.name}: ${mod}${printSig(p.type)}${p.hasDefault ? ' = {}' : ''}`;
  });
  const ret = o.returnMod === 'set-of' ? 'SET OF ' : o.returnMod === 'optional' ? 'OPTIONAL ' : '';
  return `${o.name}(${params.join(', ')}) -> ${ret}${printSig(o.returns)}`;
}

function signatureHint(overloads: readonly Overload[]): string | undefined {
  if (overloads.length === 0) return undefined;
  const shown = overloads.slice(0, 8).map(printSignature);
  return `the signatures are:\n${shown.join('\n')}${overloads.length > 8 ? '\n...' : ''}`;
}

/** Which parameter each argument binds to, or null when the arguments do not fit. */
const shapes = new WeakMap<Overload, { positional: { i: number }[]; variadic: number }>();

function shapeOf(o: Overload): { positional: { i: number }[]; variadic: number } {
  let shape = shapes.get(o);
  if (!shape) {
    shape = {
      positional: o.params.flatMap((p, i) => (p.kind === 'positional' ? [{ i }] : [])),
      variadic: o.params.findIndex((p) => p.kind === 'variadic'),
    };
    shapes.set(o, shape);
  }
  return shape;
}

function bindArgs(o: Overload, args: readonly CallArg[]): number[] | null {
  const { positional, variadic } = shapeOf(o);
  const bound: number[] = [];
  const given = new Set<number>();
  let next = 0;
  for (const arg of args) {
    if (arg.name !== undefined) {
      const i = o.params.findIndex((p) => p.kind === 'named-only' && p.name === arg.name);
      if (i < 0 || given.has(i)) return null;
      bound.push(i);
      given.add(i);
      continue;
    }
    const slot = positional[next];
    if (slot) {
      bound.push(slot.i);
      given.add(slot.i);
      next++;
    } else if (variadic >= 0) {
      bound.push(variadic);
      given.add(variadic);
    } else {
      return null;
    }
  }
  for (let i = 0; i < o.params.length; i++) {
    const p = o.params[i] as Param;
    if (!given.has(i) && !p.hasDefault && p.kind !== 'variadic') return null;
  }
  return bound;
}

const FAMILY: Readonly<
  Record<PolyName, (base: string | null, t: TypeRef, env: TypeEnv) => boolean>
> = {
  anytype: () => true,
  anyscalar: (_b, t) => t.kind === 'scalar',
  anyenum: (_b, t, env) => t.kind === 'scalar' && env.enumValues(t.name) !== null,
  anytuple: (_b, t) => t.kind === 'tuple',
  anyreal: (b) => b !== null && NUMERIC.has(b),
  anyint: (b) =>
    b !== null && ['std::int16', 'std::int32', 'std::int64', 'std::bigint'].includes(b),
  anyfloat: (b) => b !== null && ['std::float32', 'std::float64'].includes(b),
  anynumeric: (b) => b !== null && ['std::bigint', 'std::decimal'].includes(b),
  anypoint: (b, t) => t.kind === 'scalar' && isRangeElement(t.name) && b === t.name,
  anydiscrete: (b, t) => t.kind === 'scalar' && isDiscreteRangeElement(t.name) && b === t.name,
};

/** Whether a value of `type` belongs to the pseudo-type `name` (`5 is anyint`, `x is anytype`). */
export function isOfPolyType(name: PolyName, type: TypeRef, env: TypeEnv): boolean {
  return FAMILY[name](type.kind === 'scalar' ? resolutionBase(type.name, env) : null, type, env);
}

/** The polymorphic pseudo-type a bare type name spells, or null. */
export function polyTypeName(name: string): PolyName | null {
  return Object.hasOwn(FAMILY, name) ? (name as PolyName) : null;
}

interface Match {
  readonly overload: Overload;
  readonly cost: number;
  readonly bindings: ReadonlyMap<PolyName, TypeRef>;
  readonly argParams: readonly number[];
}

/** Collects, for each polymorphic name, the argument types that meet it. */
function collectPoly(sig: SigType, arg: TypeRef, into: Map<PolyName, TypeRef[]>): boolean {
  switch (sig.kind) {
    case 'poly': {
      const list = into.get(sig.name) ?? [];
      list.push(arg);
      into.set(sig.name, list);
      return true;
    }
    case 'scalar':
      return true;
    case 'array':
      return arg.kind === 'array' ? collectPoly(sig.element, arg.element, into) : false;
    case 'range':
      return arg.kind === 'range' ? collectPoly(sig.element, arg.element, into) : false;
    case 'multirange':
      // A range converts to a multirange implicitly (std/casts): its element binds the same.
      return arg.kind === 'multirange' || arg.kind === 'range'
        ? collectPoly(sig.element, arg.element, into)
        : false;
    case 'tuple':
      if (arg.kind !== 'tuple' || arg.elements.length !== sig.elements.length) return false;
      return sig.elements.every((e, i) =>
        collectPoly(e.type, (arg.elements[i] as { type: TypeRef }).type, into),
      );
  }
}

/** The concrete type of a signature type under the bindings (null if a poly is unbound). */
export function bindSig(sig: SigType, bindings: ReadonlyMap<PolyName, TypeRef>): TypeRef | null {
  switch (sig.kind) {
    case 'poly':
      return bindings.get(sig.name) ?? null;
    case 'scalar':
      return { kind: 'scalar', name: sig.name };
    case 'array': {
      const element = bindSig(sig.element, bindings);
      return element ? { kind: 'array', element } : null;
    }
    case 'range':
    case 'multirange': {
      const element = bindSig(sig.element, bindings);
      return element ? { kind: sig.kind, element } : null;
    }
    case 'tuple': {
      const elements: { name: string | null; type: TypeRef }[] = [];
      for (const e of sig.elements) {
        const type = bindSig(e.type, bindings);
        if (!type) return null;
        elements.push({ name: e.name, type });
      }
      return { kind: 'tuple', elements };
    }
  }
}

function countPoly(sig: SigType): number {
  switch (sig.kind) {
    case 'poly':
      return 1;
    case 'scalar':
      return 0;
    case 'array':
    case 'range':
    case 'multirange':
      return countPoly(sig.element);
    case 'tuple':
      return sig.elements.reduce((n, e) => n + countPoly(e.type), 0);
  }
}

function match(o: Overload, args: readonly CallArg[], env: TypeEnv): Match | null {
  const argParams = bindArgs(o, args);
  if (!argParams) return null;
  // Quick reject: a std scalar argument that cannot reach a concrete scalar parameter.
  for (let i = 0; i < args.length; i++) {
    const type = args[i]?.type;
    const sig = (o.params[argParams[i] as number] as Param).type;
    if (args[i]?.emptyArray && sig.kind !== 'array') return null;
    if (type?.kind === 'scalar' && sig.kind === 'scalar' && type.name !== sig.name) {
      const base = resolutionBase(type.name, env);
      if (base === null || scalarDistance(base, sig.name) === null) return null;
    } else if (
      type &&
      sig.kind !== 'poly' &&
      type.kind !== sig.kind &&
      !(type.kind === 'range' && sig.kind === 'multirange')
    ) {
      return null;
    }
  }
  // 1. bind each polymorphic name to the common type of the arguments meeting it.
  const seen = new Map<PolyName, TypeRef[]>();
  for (let i = 0; i < args.length; i++) {
    const type = args[i]?.type;
    if (!type) continue;
    const param = o.params[argParams[i] as number] as Param;
    if (!collectPoly(param.type, type, seen)) return null;
  }
  const bindings = new Map<PolyName, TypeRef>();
  for (const [name, types] of seen) {
    // Each type must already be of the family (cheap) before the common type is sought.
    const family = FAMILY[name];
    for (const type of types) {
      if (!family(type.kind === 'scalar' ? resolutionBase(type.name, env) : null, type, env))
        return null;
    }
    const common = commonType(types, env);
    if (!common) return null;
    const base = common.kind === 'scalar' ? resolutionBase(common.name, env) : null;
    if (!FAMILY[name](base, common, env)) return null;
    bindings.set(name, common);
  }
  // 2. the cost: implicit casts of every argument to its bound parameter type.
  let cost = 0;
  for (let i = 0; i < args.length; i++) {
    const param = o.params[argParams[i] as number] as Param;
    cost += countPoly(param.type) * POLY_COST;
    const type = args[i]?.type;
    if (!type) continue;
    const target = bindSig(param.type, bindings);
    if (!target) return null;
    const d = implicitDistance(type, target, env);
    if (d === null) return null;
    cost += d * CAST_COST;
  }
  return { overload: o, cost, bindings, argParams };
}

/** Overloads grouped by their first parameter's concrete scalar type ('' for any other). */
const byFirstParam = new WeakMap<readonly Overload[], Map<string, Overload[]>>();

/**
 * The overloads worth matching: when the first argument is a std scalar, only those whose first
 * parameter it reaches by implicit casts, plus those whose first parameter is not a concrete
 * scalar (`=` has two dozen overloads; an int32 argument reaches four of them).
 */
function candidatesFor(
  overloads: readonly Overload[],
  args: readonly CallArg[],
  env: TypeEnv,
): readonly Overload[] {
  const first = args[0];
  if (!first || first.name !== undefined || first.type?.kind !== 'scalar') return overloads;
  const base = resolutionBase(first.type.name, env);
  let groups = byFirstParam.get(overloads);
  if (!groups) {
    groups = new Map();
    for (const o of overloads) {
      const p = o.params[0];
      const key = p && p.kind === 'positional' && p.type.kind === 'scalar' ? p.type.name : '';
      const list = groups.get(key) ?? [];
      list.push(o);
      groups.set(key, list);
    }
    byFirstParam.set(overloads, groups);
  }
  const out: Overload[] = [...(groups.get('') ?? [])];
  if (base !== null) for (const t of implicitlyReachable(base)) out.push(...(groups.get(t) ?? []));
  return out;
}

function pick(
  allOverloads: readonly Overload[],
  args: readonly CallArg[],
  env: TypeEnv,
  what: () => string,
  position: SourcePosition | undefined,
): ResolvedCall | null {
  const overloads = candidatesFor(allOverloads, args, env);
  let best: Match[] = [];
  for (const o of overloads) {
    const m = match(o, args, env);
    if (!m) continue;
    if (best.length === 0 || m.cost < (best[0] as Match).cost) best = [m];
    else if (m.cost === (best[0] as Match).cost) best.push(m);
  }
  if (best.length > 1) best = nearestInHierarchy(best, args, env);
  const [first] = best;
  if (!first) return null;
  const unknownArg = args.some((a) => a.type === null);
  let returnType = bindSig(first.overload.returns, first.bindings);
  if (best.length > 1) {
    const returns = new Set(best.map((m) => printSig(m.overload.returns)));
    if (!unknownArg) {
      throw new InvalidTypeError(
        `${what()} is ambiguous for arguments of type ${args.map((a) => `'${a.type ? printTypeRef(a.type) : 'anytype'}'`).join(', ')}`,
        {
          hint: `the candidates are:\n${best.map((m) => printSignature(m.overload)).join('\n')}`,
          position,
        },
      );
    }
    if (returns.size > 1) returnType = null;
  }
  return toResolved(first, args, env, returnType);
}

/**
 * Gel's scalar hierarchy (edb/lib/std/10-scalars.edgeql, cal.edgeql): each scalar's ancestors,
 * nearest first (C3 order). Only the abstract pseudo-types are ancestors of std scalars.
 */
const SCALAR_ANCESTORS: Readonly<Record<string, readonly string[]>> = (() => {
  const point = ['std::anypoint', 'std::anyscalar'];
  const discrete = ['std::anydiscrete', ...point];
  const contiguous = ['std::anycontiguous', ...point];
  const real = ['std::anyreal', 'std::anyscalar'];
  return {
    'std::anyreal': ['std::anyscalar'],
    'std::anyint': real,
    'std::anyfloat': ['std::anyreal', ...contiguous],
    'std::anynumeric': real,
    'std::anypoint': ['std::anyscalar'],
    'std::anydiscrete': point,
    'std::anycontiguous': point,
    'std::anyenum': ['std::anyscalar'],
    'std::int16': ['std::anyint', ...real],
    'std::int32': ['std::anyint', 'std::anyreal', ...discrete],
    'std::int64': ['std::anyint', 'std::anyreal', ...discrete],
    'std::float32': ['std::anyfloat', 'std::anyreal', ...contiguous],
    'std::float64': ['std::anyfloat', 'std::anyreal', ...contiguous],
    'std::decimal': ['std::anynumeric', 'std::anyreal', ...contiguous],
    'std::bigint': ['std::anynumeric', 'std::anyint', ...real],
    'std::datetime': contiguous,
    'std::duration': contiguous,
    'cal::local_datetime': contiguous,
    'cal::local_date': discrete,
  };
})();

const ancestorsOf = (name: string): readonly string[] =>
  SCALAR_ANCESTORS[name] ?? (name === 'std::anyscalar' ? [] : ['std::anyscalar']);

/**
 * How far up the argument's type hierarchy its nearest common ancestor with the parameter's
 * declared type is (Gel's `get_common_parent_type_distance`): 0 when they are the same type, 1
 * when they share a parent (`int16` and `int64`: `anyint`), more further up (`int16` and
 * `float64`: `anyreal`, 2).
 */
function parentDistance(arg: TypeRef | null, param: SigType, env: TypeEnv): number {
  if (arg?.kind !== 'scalar') return 0;
  if (param.kind === 'poly' && param.name === 'anytype') return 1000;
  const declared =
    param.kind === 'scalar' ? param.name : param.kind === 'poly' ? `std::${param.name}` : null;
  if (declared === null) return 0;
  const base = resolutionBase(arg.name, env) ?? arg.name;
  if (base === declared) return 0;
  const paramLine = new Set([declared, ...ancestorsOf(declared)]);
  if (ancestorsOf(declared).includes(base)) return 0;
  const at = ancestorsOf(base).findIndex((a) => paramLine.has(a));
  return at < 0 ? 1000 : at + 1;
}

/**
 * Overloads tied on implicit casts: keep those whose parameters' declared types sit nearest to the
 * arguments' types in the scalar hierarchy (Gel's second round of overload resolution), so
 * `math::ceil(<int16>x)` takes the int64 overload, not the float64 one.
 */
function nearestInHierarchy(tied: Match[], args: readonly CallArg[], env: TypeEnv): Match[] {
  let kept: Match[] = [];
  let least = Number.POSITIVE_INFINITY;
  for (const m of tied) {
    let total = 0;
    args.forEach((a, i) => {
      total += parentDistance(
        a.type,
        (m.overload.params[m.argParams[i] as number] as Param).type,
        env,
      );
    });
    if (total < least) {
      least = total;
      kept = [m];
    } else if (total === least) kept.push(m);
  }
  return kept;
}

function volatilityOf(o: Overload): Volatility {
  return o.volatility;
}

const product = (a: Card, b: Card): Card => ({
  min: a.min === 1 && b.min === 1 ? 1 : 0,
  max: a.max === 0 || b.max === 0 ? 0 : a.max === 'many' || b.max === 'many' ? 'many' : 1,
});

/** Gel's default result cardinality of a call (see Overload.card). */
export function defaultCard(
  o: Overload,
  argParams: readonly number[],
  args: readonly Card[],
): Card {
  let card: Card = { min: 1, max: 1 };
  for (let i = 0; i < args.length; i++) {
    const param = o.params[argParams[i] as number] as Param;
    const c = args[i] as Card;
    if (param.typemod === 'set-of') continue;
    card = product(
      card,
      param.typemod === 'optional' ? { min: 1, max: c.max === 0 ? 1 : c.max } : c,
    );
  }
  if (o.returnMod === 'set-of') return { min: 0, max: card.max === 0 ? 0 : 'many' };
  if (o.returnMod === 'optional') return { min: 0, max: card.max };
  return card;
}

function toResolved(
  m: Match,
  args: readonly CallArg[],
  env: TypeEnv,
  returnType: TypeRef | null,
): ResolvedCall {
  const o = m.overload;
  const paramTypes = o.params.map((p) => bindSig(p.type, m.bindings));
  return {
    overload: o,
    returnType,
    paramTypes,
    argParams: m.argParams,
    volatility: volatilityOf(o),
    card: (cards) => (o.card ? o.card(cards) : defaultCard(o, m.argParams, cards)),
    rowValue: (row) =>
      o.rows ? o.rows(row, { type: (i) => paramTypes[i] ?? null, result: returnType, env }) : row,
    sql: (sqlArgs, nullable = []) => {
      const byParam = new Map<number, SqlExpr>();
      const nullByParam = new Map<number, boolean>();
      const rest: SqlExpr[] = [];
      sqlArgs.forEach((value, i) => {
        const p = m.argParams[i] as number;
        const from = args[i]?.type ?? null;
        const to = paramTypes[p] ?? null;
        // A set-of parameter of an element-wise or set-returning form receives the whole set
        // as an SQL array (model.ts CallKind): it is converted element by element.
        const asArray = (o.params[p] as Param).typemod === 'set-of' && o.kind !== 'aggregate';
        const arrayOf = (t: TypeRef): TypeRef => (asArray ? { kind: 'array', element: t } : t);
        // An untyped `{}` gets the parameter's type (PostgreSQL would guess text).
        const converted =
          from && to
            ? coerce(value, arrayOf(from), arrayOf(to), env)
            : to
              ? sql.cast(value, pgTypeFor(arrayOf(to)))
              : value;
        if ((o.params[p] as Param).kind === 'variadic') rest.push(converted);
        else byParam.set(p, converted);
        if (nullable[i]) nullByParam.set(p, true);
      });
      const argsView: SqlArgs = {
        at: (i) => {
          const v = byParam.get(i);
          if (!v) throw new Error(`std: ${o.name} parameter ${i} was not given`);
          return v;
        },
        opt: (i) => byParam.get(i) ?? null,
        rest,
        nullable: (i) => nullByParam.get(i) ?? false,
        type: (i) => paramTypes[i] ?? null,
        result: returnType,
        env,
      };
      return o.sql(argsView);
    },
  };
}

/** An argument converted to its parameter's type where the SQL types differ. */
function coerce(value: SqlExpr, from: TypeRef, to: TypeRef, env: TypeEnv): SqlExpr {
  if (printTypeRef(from) === printTypeRef(to)) return value;
  const a = pgTypeFor(from);
  const b = pgTypeFor(to);
  if (a.schema === b.schema && a.name === b.name && a.arrayDims === b.arrayDims) return value;
  return resolveCast(from, to, env).sql(value);
}
