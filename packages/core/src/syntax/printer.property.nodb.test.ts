import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { queryArbitraries, schemaArbitrary } from './__tests__/arbitraries';
import type { Expr, Schema, Statement } from './ast';
import {
  parseExpression,
  parseQuery,
  parseSchema,
  printExpression,
  printQuery,
  printSchema,
  withoutSpans,
} from './index';

/**
 * The printer and the parser agree: printing a tree and parsing the text gives the same tree
 * (spans aside), and printing is stable (printing the re-parsed tree gives the same text).
 */
describe('print → parse round trip (property)', () => {
  const { expr, statement } = queryArbitraries(3);

  test('EdgeQL expressions', () => {
    fc.assert(
      fc.property(expr, (tree: Expr) => {
        const text = printExpression(tree);
        const parsed = parseExpression(text);
        expect(withoutSpans(parsed)).toEqual(tree);
        expect(printExpression(parsed)).toBe(text);
      }),
      { numRuns: 400 },
    );
  });

  test('EdgeQL statements', () => {
    fc.assert(
      fc.property(fc.array(statement, { minLength: 1, maxLength: 3 }), (trees: Statement[]) => {
        const text = printQuery(trees);
        const parsed = parseQuery(text);
        expect(withoutSpans(parsed)).toEqual(trees);
        expect(printQuery(parsed)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  test('SDL documents', () => {
    fc.assert(
      fc.property(schemaArbitrary(), (tree: Schema) => {
        const text = printSchema(tree);
        const parsed = parseSchema(text);
        expect(withoutSpans(parsed)).toEqual(tree);
        expect(printSchema(parsed)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});

describe('print → parse round trip (fixture corpus)', () => {
  const fixture = (file: string) =>
    readFileSync(join(__dirname, '../../test/fixtures/syntax', file), 'utf8');

  test('every query in queries.edgeql', () => {
    const statements = parseQuery(fixture('queries.edgeql'));
    expect(statements.length).toBe(57);
    const printed = printQuery(statements);
    expect(withoutSpans(parseQuery(printed))).toEqual(withoutSpans(statements));
    for (const statement of statements) {
      const one = printQuery(statement);
      expect(withoutSpans(parseQuery(one))).toEqual([withoutSpans(statement)]);
    }
  });

  test.each(['schema.esdl', 'schema-arrow-syntax.esdl'])('%s', (file) => {
    const schema = parseSchema(fixture(file));
    const printed = printSchema(schema);
    expect(withoutSpans(parseSchema(printed))).toEqual(withoutSpans(schema));
  });

  test('the older arrow syntax prints in the current syntax', () => {
    const printed = printSchema(parseSchema(fixture('schema-arrow-syntax.esdl')));
    expect(printed).not.toContain('->');
    expect(printed).toContain('required property name: str {');
    expect(printed).toContain('multi link friends extending friendship: Person;');
  });
});
