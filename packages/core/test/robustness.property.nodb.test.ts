/**
 * Bad input never crashes the front end: whatever text reaches the parser or the schema builder,
 * the only thing that may come out is an `SvcError` (a syntax or schema error with a position),
 * never a TypeError or a RangeError that the server would turn into a 500.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { SvcError } from '../src/errors';
import { buildSchema } from '../src/schema/build';
import { parseExpression, parseQuery, parseSchema } from '../src/syntax';

const schemas = readdirSync(join(__dirname, 'schemas')).map((f) =>
  readFileSync(join(__dirname, 'schemas', f), 'utf8'),
);
const queries = readFileSync(join(__dirname, 'fixtures', 'syntax', 'queries.edgeql'), 'utf8')
  .split(';')
  .map((q) => q.trim())
  .filter(Boolean);

function onlySvcErrors(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch (err) {
    if (err instanceof SvcError) return true;
    throw err;
  }
}

/** A valid text with a random slice cut out, doubled or replaced by a random token. */
const mutated = (texts: string[]) =>
  fc
    .tuple(
      fc.constantFrom(...texts),
      fc.nat(),
      fc.nat(),
      fc.constantFrom(
        '',
        '{',
        '}',
        ';',
        '(',
        ')',
        ':=',
        '->',
        '.<',
        '[is ',
        "'",
        '"',
        '$',
        '<',
        '>',
        'select',
        'type',
        '::',
        '\\',
        '\u0000',
        '\u00e9',
        '#',
        '\n',
      ),
    )
    .map(([text, a, b, token]) => {
      const i = a % (text.length + 1);
      const j = Math.min(text.length, i + (b % 40));
      return text.slice(0, i) + token + text.slice(j);
    });

const noise = fc.string({ unit: 'binary', maxLength: 200 });

describe('robustness: only SvcErrors come out', () => {
  test('parseQuery on noise and on mutated queries', () => {
    fc.assert(
      fc.property(fc.oneof(noise, mutated(queries)), (text) =>
        onlySvcErrors(() => parseQuery(text)),
      ),
      { numRuns: 600 },
    );
  });

  test('parseExpression on noise', () => {
    fc.assert(
      fc.property(noise, (text) => onlySvcErrors(() => parseExpression(text))),
      { numRuns: 300 },
    );
  });

  test('parseSchema and buildSchema on mutated schemas', () => {
    fc.assert(
      fc.property(
        mutated(schemas),
        (text) => onlySvcErrors(() => parseSchema(text)) && onlySvcErrors(() => buildSchema(text)),
      ),
      { numRuns: 400 },
    );
  });

  // Issue 31: a schema folder, every independent error collected; a fault past a refused
  // declaration would surface here as a non-SvcError.
  test('buildSchema on mutated schemas split into two files', () => {
    fc.assert(
      fc.property(mutated(schemas), fc.nat(), (text, at) => {
        const lines = text.split('\n');
        const cut = at % (lines.length + 1);
        const files = [
          { name: 'a.esdl', text: lines.slice(0, cut).join('\n') },
          { name: 'b.esdl', text: lines.slice(cut).join('\n') },
        ];
        return onlySvcErrors(() => buildSchema(files));
      }),
      { numRuns: 400 },
    );
  });

  test('buildSchema on noise', () => {
    fc.assert(
      fc.property(noise, (text) => onlySvcErrors(() => buildSchema(text))),
      { numRuns: 300 },
    );
  });
});
