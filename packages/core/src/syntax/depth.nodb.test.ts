/**
 * The nesting bound (syntax/depth): deep input is a syntax error with a position at the limit,
 * for the parser (queries and SDL) and the printer, never a RangeError.
 */
import { EdgeQLSyntaxError, SchemaSyntaxError, UnsupportedFeatureError } from '../errors';
import type { Expr } from './ast';
import {
  MAX_NESTING_DEPTH,
  parseExpression,
  parseQuery,
  parseSchema,
  parseType,
  printExpression,
} from './index';

const DEEP = 3000;

function expectTooDeep(
  run: () => unknown,
  errorClass: typeof EdgeQLSyntaxError | typeof UnsupportedFeatureError,
): void {
  let caught: unknown;
  try {
    run();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(errorClass);
  expect((caught as Error).message).toBe(
    `expression nested too deeply: the limit is ${MAX_NESTING_DEPTH} levels`,
  );
  expect((caught as InstanceType<typeof EdgeQLSyntaxError>).position).toEqual(
    expect.objectContaining({ line: 1, column: expect.any(Number) }),
  );
}

describe('nesting depth', () => {
  it.each([
    ['parentheses', `select ${'('.repeat(DEEP)}1${')'.repeat(DEEP)}`],
    ['array literals', `select ${'['.repeat(DEEP)}1${']'.repeat(DEEP)}`],
    ['unary minus', `select ${'-('.repeat(DEEP)}1${')'.repeat(DEEP)}`],
    ['nested shapes', `select User ${'{ friends: '.repeat(DEEP)}${'}'.repeat(DEEP)}`],
    ['nested subqueries', `${'select ('.repeat(DEEP)}1${')'.repeat(DEEP)}`],
  ])('refuses %s 3,000 deep with EdgeQLSyntaxError', (_name, text) => {
    expectTooDeep(() => parseQuery(text), EdgeQLSyntaxError);
  });

  // The parser takes an operator chain without nesting itself: valid EdgeQL, too deep for the
  // compiler's stages (Gel: UnsupportedFeatureError, the compiler's stack overflowing).
  it('refuses an operator chain 3,000 long with UnsupportedFeatureError', () => {
    expectTooDeep(() => parseQuery(`select 1${' + 1'.repeat(DEEP)}`), UnsupportedFeatureError);
  });

  it('refuses a deeply nested type', () => {
    expectTooDeep(
      () => parseType(`${'array<'.repeat(DEEP)}str${'>'.repeat(DEEP)}`),
      EdgeQLSyntaxError,
    );
  });

  it('refuses a deeply nested SDL expression with SchemaSyntaxError', () => {
    const sdl = `type T { n := ${'('.repeat(DEEP)}1${')'.repeat(DEEP)}; }`;
    expectTooDeep(() => parseSchema(sdl), SchemaSyntaxError);
  });

  it('accepts nesting up to the limit and prints it back', () => {
    const depth = MAX_NESTING_DEPTH - 10;
    const text = `${'-'.repeat(depth)}1`;
    const expr = parseExpression(text);
    expect(parseExpression(printExpression(expr))).toBeTruthy();
  });

  it('the printer refuses a tree past the limit', () => {
    let expr: Expr = parseExpression('1');
    for (let i = 0; i < DEEP; i++) {
      expr = { kind: 'UnaryOp', op: '-', operand: expr, span: expr.span } as Expr;
    }
    expect(() => printExpression(expr)).toThrow(EdgeQLSyntaxError);
  });
});
