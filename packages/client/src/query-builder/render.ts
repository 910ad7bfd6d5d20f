/**
 * query-builder/render: expressions as nodes that print themselves as EdgeQL. A path prints
 * relative to the object being selected (`.author.name`); a plain value as a variable
 * (`<std::uuid>$__v0`, its value gathered beside the text: the same query shape gives the same
 * text whatever its values); a parameter as `<type>$name`. Nothing here knows a schema's TypeScript: that is ./types.
 */
import { Range } from '../range';
import {
  DateDuration,
  Duration,
  LocalDate,
  LocalDateTime,
  LocalTime,
  RelativeDuration,
} from '../temporal';
import type { Card } from './types';

/** Where an expression prints: the objects in scope, innermost last. */
export interface RenderContext {
  readonly scopes: readonly Scope[];
  /** A value written by an insert or update: its subject is `detached` from the outer one. */
  readonly detached?: boolean;
  /** The plain values met so far, each a variable (`variable`). */
  readonly vars: Variables;
}

/** The object a select, update or delete works on: what `.name` refers to. */
export interface Scope {
  readonly typeName: string;
}

export interface Node {
  readonly card: Card;
  /** The EdgeQL type when known (paths, parameters): plain values compared with it take it. */
  readonly type: string | null;
  render(ctx: RenderContext): string;
}

/** Where an expression keeps its node (a symbol: a path's own keys are its pointers). */
export const NODE: unique symbol = Symbol('svc.query-builder.node');

export const nodeOf = (value: unknown): Node | null =>
  value !== null && (typeof value === 'object' || typeof value === 'function') && NODE in value
    ? ((value as { [NODE]: Node })[NODE] ?? null)
    : null;

export function maxCard(...cards: Card[]): Card {
  if (cards.includes('many')) return 'many';
  return cards.includes('atMostOne') ? 'atMostOne' : 'one';
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESERVED = new Set(
  'administer alter analyze and anyarray anytuple anytype begin by case check commit configure create deallocate delete describe detached discard distinct do drop else empty exists explain extending false filter for function global group if ilike import in insert introspect is like limit module not offset optional or order over partition populate raise refresh reindex release reset revoke rollback select set single start true typeof union update variadic when window with'.split(
    ' ',
  ),
);

/** A name as EdgeQL reads it (backquoted when it is not a plain identifier or is reserved). */
export function quoteName(name: string): string {
  return IDENTIFIER.test(name) && !RESERVED.has(name.toLowerCase())
    ? name
    : `\`${name.replace(/`/g, '``')}\``;
}

/** A qualified type name (`default::User`), each part quoted as needed. */
export const quoteType = (name: string): string => name.split('::').map(quoteName).join('::');

const CLASSES: [new (...args: never[]) => unknown, string][] = [
  [Date, 'std::datetime'],
  [LocalDate, 'cal::local_date'],
  [LocalTime, 'cal::local_time'],
  [LocalDateTime, 'cal::local_datetime'],
  [Duration, 'std::duration'],
  [RelativeDuration, 'cal::relative_duration'],
  [DateDuration, 'cal::date_duration'],
  [Uint8Array, 'std::bytes'],
];

/** The type two values of one array or range share (an integer and a float: `std::float64`). */
function shared(a: string | null, b: string | null): string | null {
  if (a === null || a === b) return b;
  if (b === null) return a;
  const numbers = new Set(['std::int64', 'std::float64']);
  if (numbers.has(a) && numbers.has(b)) return 'std::float64';
  throw new TypeError(`values of ${a} and ${b} cannot be in one array or range: use e.params`);
}

/**
 * The EdgeQL type of a plain value, from its JavaScript type: an integer `std::int64`, another
 * number `std::float64`, a string `std::str`, a Date `std::datetime`, a temporal class its cal::
 * or duration type, an array or Range of them `array<...>` or `range<...>`; null when it cannot
 * be told (an empty array, an unbounded range).
 */
export function valueType(value: unknown): string | null {
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) ? 'std::int64' : 'std::float64';
    case 'string':
      return 'std::str';
    case 'boolean':
      return 'std::bool';
    case 'bigint':
      return 'std::bigint';
  }
  for (const [Class, name] of CLASSES) if (value instanceof Class) return name;
  if (Array.isArray(value)) {
    const element = value.map(valueType).reduce(shared, null);
    return element === null ? null : `array<${element}>`;
  }
  if (value instanceof Range) {
    const bound = shared(valueType(value.lower), valueType(value.upper));
    return bound === null ? null : `range<${bound}>`;
  }
  return null;
}

/** Where rendering puts the plain values it meets: `$__v0` is the first. */
export type Variables = unknown[];

/** The prefix of the builder's own variables (an `e.params` name may not start with it). */
export const VARIABLE_PREFIX = '__v';

/**
 * A plain value as a query variable: `<type>$__vN`, the value kept in `ctx.vars` (the client
 * encodes it when the query runs). `type` is what it is compared with or written to, when known
 * (an enum, a custom scalar); otherwise the value's own (`valueType`). `optional`: it may be
 * null (`<optional type>`). A NaN or infinite number, which JSON cannot carry, is written as a
 * constant (`<std::float64>'NaN'`).
 */
export function variable(
  value: unknown,
  type: string | null,
  ctx: RenderContext,
  optional = false,
): string {
  const t = type ?? valueType(value);
  if (typeof value === 'number' && !Number.isFinite(value)) {
    const text = value === Infinity ? 'inf' : value === -Infinity ? '-inf' : 'NaN';
    return `<${castType(t === 'std::int64' || t === null ? 'std::float64' : t)}>'${text}'`;
  }
  if (value === null ? !optional : value === undefined)
    throw new TypeError(`cannot use ${String(value)} as a value here`);
  if (t === null)
    throw new TypeError(
      Array.isArray(value) || value instanceof Range
        ? `an empty ${Array.isArray(value) ? 'array' : 'range'} needs a known type: use e.params`
        : `cannot send ${String(value)} in a query: use e.params`,
    );
  const name = `${VARIABLE_PREFIX}${ctx.vars.length}`;
  ctx.vars.push(value);
  return `<${optional ? 'optional ' : ''}${castType(t)}>$${name}`;
}

/** The variables gathered while rendering, by name. */
export const variablesOf = (vars: Variables): Record<string, unknown> =>
  Object.fromEntries(vars.map((value, i) => [`${VARIABLE_PREFIX}${i}`, value]));

/** A type as a cast names it (`default::Mood`, `array<std::str>`). */
export const castType = (type: string): string => (type.includes('<') ? type : quoteType(type));

/** An operand: an expression's text, or a variable (typed as `type` when it is known). */
export function operand(value: unknown, ctx: RenderContext, type: string | null): string {
  const node = nodeOf(value);
  return node ? node.render(ctx) : variable(value, type, ctx);
}

export const cardOf = (value: unknown): Card => nodeOf(value)?.card ?? 'one';
