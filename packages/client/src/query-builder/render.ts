/**
 * query-builder/render: expressions as nodes that print themselves as EdgeQL. A path prints
 * relative to the object being selected (`.author.name`); a plain value prints as a literal (a
 * string escaped, a date or temporal value cast from its ISO text); a parameter as
 * `<type>$name`. Nothing here knows a schema's TypeScript: that is ./types.
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
}

/** The object a select, update or delete works on: what `.name` refers to. */
export interface Scope {
  readonly typeName: string;
}

export interface Node {
  readonly card: Card;
  /** The EdgeQL type when known (paths, parameters): plain values compared with it are cast. */
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

/** A string literal: quote, backslash and control characters escaped. */
export function stringLiteral(text: string): string {
  let out = "'";
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (ch === "'" || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code === 0) throw new TypeError('a string literal cannot hold a NUL character');
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

const TEMPORAL: [new (...args: never[]) => { toJSON(): string }, string][] = [
  [LocalDate, 'cal::local_date'],
  [LocalTime, 'cal::local_time'],
  [LocalDateTime, 'cal::local_datetime'],
  [Duration, 'std::duration'],
  [RelativeDuration, 'cal::relative_duration'],
  [DateDuration, 'cal::date_duration'],
];

/**
 * A plain value as an EdgeQL literal. `type` is what it is compared with or written to, when
 * known: a string for an enum or a custom scalar is cast to it.
 */
export function literal(value: unknown, type: string | null): string {
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return value < 0 ? `(${value})` : String(value);
    if (Number.isFinite(value)) {
      const text = String(value);
      const float = /[.e]/.test(text) ? text : `${text}.0`;
      return value < 0 ? `(${float})` : float;
    }
    return `<std::float64>'${value === Infinity ? 'inf' : value === -Infinity ? '-inf' : 'NaN'}'`;
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return value < 0n ? `(${value}n)` : `${value}n`;
  if (typeof value === 'string') {
    const cast = type !== null && type !== 'std::str' && !type.startsWith('array<');
    return cast ? `<${castType(type)}>${stringLiteral(value)}` : stringLiteral(value);
  }
  if (value instanceof Date) return `<std::datetime>${stringLiteral(value.toISOString())}`;
  for (const [Class, name] of TEMPORAL)
    if (value instanceof Class) return `<${name}>${stringLiteral(value.toJSON())}`;
  if (Array.isArray(value)) {
    const element = type?.startsWith('array<') ? type.slice(6, -1) : null;
    if (value.length === 0) {
      if (type === null) throw new TypeError('an empty array needs a known type: use e.params');
      return `<${castType(type)}>[]`;
    }
    return `[${value.map((v) => literal(v, element)).join(', ')}]`;
  }
  if (value instanceof Range || value instanceof Uint8Array)
    throw new TypeError(`a ${value.constructor.name} cannot be written inline: use e.params`);
  throw new TypeError(`cannot write ${String(value)} in a query: use e.params`);
}

/** A type as a cast names it (`default::Mood`, `array<std::str>`). */
export const castType = (type: string): string => (type.includes('<') ? type : quoteType(type));

/** An operand: an expression's text, or a literal (typed as `type` when it is known). */
export function operand(value: unknown, ctx: RenderContext, type: string | null): string {
  const node = nodeOf(value);
  return node ? node.render(ctx) : literal(value, type);
}

export const cardOf = (value: unknown): Card => nodeOf(value)?.card ?? 'one';
