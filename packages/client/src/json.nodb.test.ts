import fc from 'fast-check';
import { arrayElementTexts, ExactNumber, parseJson, plainJson } from './json';

test('parses what JSON.parse parses, to the same value once exact numbers are made plain', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const text = JSON.stringify(value);
      expect(plainJson(parseJson(text))).toEqual(JSON.parse(text));
    }),
    { numRuns: 500 },
  );
});

test('refuses what JSON.parse refuses', () => {
  fc.assert(
    fc.property(fc.string(), (text) => {
      let expected = true;
      try {
        JSON.parse(text);
      } catch {
        expected = false;
      }
      let got = true;
      try {
        parseJson(text);
      } catch {
        got = false;
      }
      expect(got).toBe(expected);
    }),
    { numRuns: 1000 },
  );
});

test('keeps the text of a number a double would change, and only those', () => {
  expect(parseJson('[123456789012345678901234567890, 1.50, 1.5, 9007199254740993, 2, -0]')).toEqual(
    [
      new ExactNumber('123456789012345678901234567890'),
      new ExactNumber('1.50'),
      1.5,
      new ExactNumber('9007199254740993'),
      2,
      new ExactNumber('-0'),
    ],
  );
});

test('a key named __proto__ is an own property, never the prototype', () => {
  const parsed = parseJson('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
  expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  expect(Object.keys(parsed)).toEqual(['__proto__']);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test('nesting deeper than 512 is refused, not a stack overflow', () => {
  expect(() => parseJson(`${'['.repeat(600)}${']'.repeat(600)}`)).toThrow('nested too deeply');
});

test('arrayElementTexts gives each element as written', () => {
  expect(arrayElementTexts('[]')).toEqual([]);
  expect(arrayElementTexts('[1.50, "a,]\\"", {"x": [1, 2]}, [3]]')).toEqual([
    '1.50',
    '"a,]\\""',
    '{"x": [1, 2]}',
    '[3]',
  ]);
  fc.assert(
    fc.property(fc.array(fc.jsonValue()), (values) => {
      const texts = arrayElementTexts(JSON.stringify(values));
      expect(texts.map((t) => JSON.parse(t))).toEqual(JSON.parse(JSON.stringify(values)));
    }),
    { numRuns: 300 },
  );
});
