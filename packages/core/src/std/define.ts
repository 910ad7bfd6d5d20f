/**
 * std/define: the small notation the std tables are written in.
 *
 * Input: signatures as text in Gel's own spelling (`'optional str'`, `'set of anytype'`,
 * `'array<anytype>'`, `'named only flags: str = {}'`) and an SQL form.
 * Output: `Overload`s. Unqualified type names are `std::`; `cal::...` names are written in full.
 * Invariant: a malformed signature throws at module load (a table typo fails every test at once).
 */
import { sql, type SqlExpr } from '../sql/ast';
import type {
  Card,
  CallKind,
  Overload,
  Param,
  PolyName,
  SigType,
  SqlForm,
  TypeMod,
  Volatility,
} from './model';

const POLY = new Set<string>([
  'anytype',
  'anyscalar',
  'anyenum',
  'anyreal',
  'anyint',
  'anyfloat',
  'anynumeric',
  'anytuple',
  'anypoint',
  'anydiscrete',
]);

/** Parses a type: `int64`, `cal::local_date`, `array<anytype>`, `tuple<int64, anytype>`. */
export function type(text: string): SigType {
  const s = text.trim();
  const open = s.indexOf('<');
  if (open > 0 && s.endsWith('>')) {
    const head = s.slice(0, open).trim();
    const inner = splitTop(s.slice(open + 1, -1));
    if (head === 'array' && inner.length === 1)
      return { kind: 'array', element: type(inner[0] as string) };
    if (head === 'range' && inner.length === 1)
      return { kind: 'range', element: type(inner[0] as string) };
    if (head === 'multirange' && inner.length === 1)
      return { kind: 'multirange', element: type(inner[0] as string) };
    if (head === 'tuple') {
      return {
        kind: 'tuple',
        elements: inner.map((part) => {
          const m = /^([a-z_][a-z0-9_]*)\s*:(?!:)\s*(.+)$/i.exec(part.trim());
          return m
            ? { name: m[1] as string, type: type(m[2] as string) }
            : { name: null, type: type(part) };
        }),
      };
    }
    throw new Error(`std/define: bad type ${text}`);
  }
  if (POLY.has(s)) return { kind: 'poly', name: s as PolyName };
  if (!/^[a-z_][a-z0-9_]*(::[a-z_][a-z0-9_]*)*$/i.test(s))
    throw new Error(`std/define: bad type ${text}`);
  return { kind: 'scalar', name: s.includes('::') ? s : `std::${s}` };
}

function splitTop(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

function typemod(text: string): [TypeMod, string] {
  const s = text.trim();
  if (/^set of /i.test(s)) return ['set-of', s.slice(7)];
  if (/^optional /i.test(s)) return ['optional', s.slice(9)];
  return ['singleton', s];
}

/**
 * A parameter list: `'a: str, b: optional int64 = {}, variadic path: str, named only
 * flags: str = {}'`. Names may be left out (`'str, str'` names them a, b, ...).
 */
export function params(text: string): Param[] {
  if (text.trim() === '') return [];
  return splitTop(text).map((part, i) => {
    let s = part;
    let kind: Param['kind'] = 'positional';
    if (/^variadic /i.test(s)) {
      kind = 'variadic';
      s = s.slice(9);
    } else if (/^named only /i.test(s)) {
      kind = 'named-only';
      s = s.slice(11);
    }
    let hasDefault = false;
    const eq = s.lastIndexOf('=');
    if (eq > 0 && !s.slice(eq).includes('>')) {
      hasDefault = true;
      s = s.slice(0, eq);
    }
    const m = /^([a-z_][a-z0-9_]*)\s*:(?!:)\s*(.+)$/i.exec(s.trim());
    const name = m ? (m[1] as string) : String.fromCharCode(97 + i);
    const [mod, t] = typemod(m ? (m[2] as string) : s);
    return { name, type: type(t), typemod: mod, kind, hasDefault };
  });
}

export interface DefineOptions {
  readonly volatility?: Volatility;
  readonly kind?: CallKind;
  readonly card?: (args: readonly Card[]) => Card;
  /** Set-returning forms: one row's value from the form's column (Overload.rows). */
  readonly rows?: Overload['rows'];
  /** Usable in a DDL expression (a default, CHECK or index: one row); defaults to `kind === 'element'`. */
  readonly ddl?: boolean;
}

/** One overload: `def('std::len', 'str', 'int64', (a) => sql.func('char_length', [a.at(0)]))`. */
export function def(
  name: string,
  paramText: string,
  returnText: string,
  form: SqlForm,
  options: DefineOptions = {},
): Overload {
  const [returnMod, returns] = typemod(returnText);
  const volatility = options.volatility ?? 'Immutable';
  const kind = options.kind ?? 'element';
  return {
    name,
    params: params(paramText),
    returns: type(returns),
    returnMod,
    volatility,
    kind,
    sql: form,
    card: options.card,
    ...(options.rows ? { rows: options.rows } : {}),
    ddl: options.ddl ?? kind === 'element',
  };
}

/** Groups overloads by name. */
export function table(overloads: readonly Overload[]): ReadonlyMap<string, readonly Overload[]> {
  const map = new Map<string, Overload[]>();
  for (const o of overloads) {
    const list = map.get(o.name) ?? [];
    list.push(o);
    map.set(o.name, list);
  }
  return map;
}

/** `f(args...)` over every given parameter in order (an SQL function of the same arguments). */
export const call =
  (name: string, schema: string | null = null): SqlForm =>
  (a) => {
    const args: SqlExpr[] = [];
    for (let i = 0; ; i++) {
      const v = a.opt(i);
      if (v === null) break;
      args.push(v);
    }
    return sql.func(name, [...args, ...a.rest], schema);
  };

/**
 * `case when p is null ... then null else form end` for the given parameters that may be NULL:
 * keeps a form whose SQL is not strict (`coalesce`, `@>`, CASE) element-wise (empty in, empty out).
 */
export const strict =
  (params: readonly number[], form: SqlForm): SqlForm =>
  (a) => {
    const value = form(a);
    const nullable = params.filter((i) => a.nullable(i) && a.opt(i) !== null);
    if (nullable.length === 0) return value;
    return {
      kind: 'Case',
      whens: [{ when: sql.or(...nullable.map((i) => sql.isNull(a.at(i)))), then: sql.null() }],
      else: value,
    };
  };

/** `left op right` over parameters 0 and 1. */
export const infix =
  (op: string): SqlForm =>
  (a) =>
    sql.bin(op, a.at(0), a.at(1));
