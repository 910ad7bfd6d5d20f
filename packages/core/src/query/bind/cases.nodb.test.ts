/**
 * The binder's cases as data: each `__cases__/<topic>.bind` holds a schema and queries, each with
 * the IR the binder makes of it, printed by query/ir/print (node kind, type, cardinality, path
 * ids), or the error it refuses the query with. One Jest test per query. `UPDATE_GOLDEN=1`
 * rewrites the expectations from what the binder does now; otherwise they must match exactly.
 *
 * The format (`#` lines before the first section are comments):
 *
 *   === schema
 *   module default { type User { name: str; } }
 *
 *   === a case's name
 *   select User { name };
 *   --- expect
 *   root: Select ...
 *
 * A refused query's expectation is one line: `error <ErrorClass>: <message>`.
 * Each file's bound queries also check the IR walker (query/ir/walk): `mapChildren` with the
 * identity gives the node itself, and with another function replaces exactly `children`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema } from '../../schema';
import * as ql from '../../syntax';
import { children, mapChildren, printIrQuery, type IrExpr } from '../ir';
import { schemaIndex } from '../schema-index';
import { bindQuery } from './index';

const DIR = join(__dirname, '__cases__');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

interface BindCase {
  readonly name: string;
  readonly query: string;
  expect: string;
}

interface BindFile {
  readonly header: string;
  readonly sdl: string;
  readonly cases: BindCase[];
}

function parseFile(file: string, text: string): BindFile {
  const sections = text.split(/^=== /m);
  const header = sections.shift() ?? '';
  const [schema, ...rest] = sections;
  if (!schema?.startsWith('schema\n'))
    throw new Error(`${file}: the first section must be '=== schema'`);
  const cases = rest.map((section) => {
    const newline = section.indexOf('\n');
    const name = section.slice(0, newline).trim();
    const body = section.slice(newline + 1);
    const [query, expect, extra] = body.split(/^--- expect\n/m);
    if (query === undefined || extra !== undefined) {
      throw new Error(`${file}: case '${name}' needs one '--- expect' section`);
    }
    return { name, query: query.trim(), expect: (expect ?? '').trim() };
  });
  return { header, sdl: schema.slice('schema\n'.length).trim(), cases };
}

function printFile(file: BindFile): string {
  const cases = file.cases.map((c) => `=== ${c.name}\n${c.query}\n--- expect\n${c.expect}\n`);
  return `${file.header}=== schema\n${file.sdl}\n\n${cases.join('\n')}`;
}

const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.bind'))
  .sort()
  .map((f) => ({ name: f, file: parseFile(f, readFileSync(join(DIR, f), 'utf8')) }));

test('there are binder cases', () => {
  expect(files.reduce((n, f) => n + f.file.cases.length, 0)).toBeGreaterThanOrEqual(40);
});

describe.each(files)('$name', ({ name, file }) => {
  const index = schemaIndex(buildSchema(file.sdl));

  test.each(file.cases)('$name', (c) => {
    let actual: string;
    try {
      const statements = ql.parseQuery(c.query);
      if (statements.length !== 1) throw new Error('a case holds one statement');
      actual = printIrQuery(bindQuery(index, statements[0] as ql.Statement));
    } catch (error) {
      if (!(error instanceof Error) || error.constructor === Error) throw error;
      actual = `error ${error.constructor.name}: ${error.message}`;
    }
    if (UPDATE) c.expect = actual;
    else expect(actual).toBe(c.expect);
  });

  test('the walker over these queries', () => {
    for (const c of file.cases) {
      let root: IrExpr;
      try {
        root = bindQuery(index, ql.parseQuery(c.query)[0] as ql.Statement).root;
      } catch {
        continue;
      }
      checkWalk(root, new Set());
    }
  });

  afterAll(() => {
    if (UPDATE) writeFileSync(join(DIR, name), printFile(file));
  });
});

/** `mapChildren` and `children` agree on `expr` and everything below it. */
function checkWalk(expr: IrExpr, seen: Set<IrExpr>): void {
  if (seen.has(expr)) return;
  seen.add(expr);
  expect(mapChildren(expr, (c) => c)).toBe(expr);
  const kids = children(expr);
  const given: IrExpr[] = [];
  const copies: IrExpr[] = [];
  const mapped = mapChildren(expr, (c) => {
    const copy = { ...c };
    given.push(c);
    copies.push(copy);
    return copy;
  });
  expect(mapped.kind).toBe(expr.kind);
  expect(given.length).toBe(kids.length);
  expect(given.every((g, i) => g === kids[i])).toBe(true);
  const after = children(mapped);
  expect(after.length).toBe(copies.length);
  expect(after.every((a, i) => a === copies[i])).toBe(true);
  if (kids.length > 0) expect(mapped).not.toBe(expr);
  for (const k of kids) checkWalk(k, seen);
  if (expr.kind === 'BindingRef') checkWalk(expr.binding.expr, seen);
}
