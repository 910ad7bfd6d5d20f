/**
 * The std table as one reviewable text file (std/catalogue.golden.txt): every operator and
 * function overload with its signature, kind, volatility and the SQL its form builds from
 * placeholder arguments ($1, $2, ...). A change to any row shows up in the diff.
 * `UPDATE_GOLDEN=1` rewrites the file; review the diff.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TypeRef } from '../model/schema';
import { sql, type SqlExpr } from '../sql/ast';
import { printSql } from '../sql/print';
import { bindSig } from './resolve';
import {
  printSignature,
  STD_ONLY,
  stdFunctionNames,
  stdFunctionOverloads,
  stdOperatorOverloads,
} from './index';
import type { Overload, PolyName, SqlArgs } from './model';
import { STD_OPERATORS } from './operators';
import { SERVER_VERSION, versionString, versionTupleJson } from './version';

const FILE = join(__dirname, 'catalogue.golden.txt');

/** Placeholder bindings for polymorphic types, so forms that look at types can print. */
const SAMPLE = new Map<PolyName, TypeRef>([
  ['anytype', { kind: 'scalar', name: 'std::int64' }],
  ['anyscalar', { kind: 'scalar', name: 'std::int64' }],
  ['anyreal', { kind: 'scalar', name: 'std::int64' }],
  ['anyint', { kind: 'scalar', name: 'std::int64' }],
  ['anyfloat', { kind: 'scalar', name: 'std::float64' }],
  ['anynumeric', { kind: 'scalar', name: 'std::decimal' }],
  ['anyenum', { kind: 'scalar', name: 'std::str' }],
  ['anypoint', { kind: 'scalar', name: 'std::int64' }],
  ['anydiscrete', { kind: 'scalar', name: 'std::int64' }],
  [
    'anytuple',
    { kind: 'tuple', elements: [{ name: null, type: { kind: 'scalar', name: 'std::int64' } }] },
  ],
]);

/**
 * svc's version (sys::get_version's constants) is named, not spelled out, so a release changes
 * the listing only where a form does.
 */
const VERSION_LITERALS: readonly [string, string][] = [
  [`'${versionTupleJson(SERVER_VERSION)}'`, "'<svc version tuple>'"],
  [`'${versionString(SERVER_VERSION)}'`, "'<svc version>'"],
];

function printForm(o: Overload, args: SqlArgs): string {
  let printed = printSql(o.sql(args));
  if (o.name.startsWith('sys::get_version'))
    for (const [literal, name] of VERSION_LITERALS) printed = printed.replace(literal, name);
  return printed;
}

function render(o: Overload): string {
  const placeholder = (i: number): SqlExpr => sql.param(i + 1);
  const variadic = o.params.findIndex((p) => p.kind === 'variadic');
  const args: SqlArgs = {
    at: placeholder,
    opt: (i) => (i < o.params.length && i !== variadic ? placeholder(i) : null),
    rest: variadic >= 0 ? [placeholder(o.params.length), placeholder(o.params.length + 1)] : [],
    nullable: () => false,
    type: (i) => bindSig((o.params[i] as Overload['params'][number]).type, SAMPLE),
    result: bindSig(o.returns, SAMPLE),
    env: STD_ONLY,
  };
  const tags = [o.kind, o.volatility].filter((t) => t !== 'element' && t !== 'Immutable');
  return `${printSignature(o)}${tags.length ? `  [${tags.join(', ')}]` : ''}\n    ${printForm(o, args)}`;
}

test('the std catalogue matches catalogue.golden.txt', () => {
  const lines: string[] = ['# operators', ''];
  for (const op of [...STD_OPERATORS.keys()].sort()) {
    for (const o of stdOperatorOverloads(op)) lines.push(render(o));
  }
  lines.push('', '# functions', '');
  for (const name of [...stdFunctionNames()].sort()) {
    for (const o of stdFunctionOverloads(name)) lines.push(render(o));
  }
  const text = `${lines.join('\n')}\n`;
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(FILE)) {
    if (process.env.CI) throw new Error('std/catalogue.golden.txt is missing (UPDATE_GOLDEN=1)');
    writeFileSync(FILE, text);
  }
  expect(text).toBe(readFileSync(FILE, 'utf8'));
});
