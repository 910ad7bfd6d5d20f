/*
 * Issue 26, point 7: a caller's JSON may be nested far deeper than recursive code survives (a
 * 1 MiB body holds half a million levels). The bound is measured without recursion, and JSON of
 * any depth is written without recursion.
 */
import { growthRatio } from '../test/growth';
import { MAX_JSON_DEPTH, jsonDepthProblem, stringifyJson } from './json';

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"k":'.repeat(depth)}null${'}'.repeat(depth)}`;

describe('jsonDepthProblem', () => {
  test.each([
    ['a scalar', 1, undefined],
    ['null', null, undefined],
    ['a string', '[[[[', undefined],
    ['an empty array (1 level)', [], undefined],
    ['arrays at the limit', JSON.parse(arrays(MAX_JSON_DEPTH)), undefined],
    ['objects at the limit', JSON.parse(objects(MAX_JSON_DEPTH)), undefined],
  ])('%s is fine', (_what, value, expected) => {
    expect(jsonDepthProblem(value)).toBe(expected);
  });

  test.each([
    ['arrays one past the limit', arrays(MAX_JSON_DEPTH + 1)],
    ['objects one past the limit', objects(MAX_JSON_DEPTH + 1)],
    ['half a million arrays (a 1 MiB body)', arrays(500_000)],
    ['a deep branch beside shallow ones', `[1, {"a": [2, 3]}, ${arrays(5000)}, "x"]`],
    ['a deep value under an object key', `{"a": 1, "b": {"c": ${objects(5000)}}}`],
  ])('%s is refused', (_what, text) => {
    expect(jsonDepthProblem(JSON.parse(text))).toBe(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  });

  test('a cyclic value (infinitely deep, from a program) is refused, not walked forever', () => {
    const a: unknown[] = [1];
    a.push([a, a]);
    expect(jsonDepthProblem(a)).toBe(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  });

  test('many wide levels are measured in time linear in their size', () => {
    // Levels of 100 siblings each, 120 and 960 of them (12,000 and 96,000 values): eight times the
    // values must not take much more than eight times as long.
    const levels = (scale: number) => {
      let value: unknown = 0;
      for (let i = 0; i < 120 * scale; i++) value = [...Array.from({ length: 99 }, () => i), value];
      return value;
    };
    expect(jsonDepthProblem(levels(8))).toBeUndefined();
    expect(growthRatio(levels, (value) => jsonDepthProblem(value))).toBeLessThan(40);
  });
});

describe('stringifyJson', () => {
  test.each([
    ['a scalar', 1.5],
    ['a string needing escapes', 'a"b\\c\u2028\n'],
    ['nested objects and arrays', { a: [1, { b: null, c: 'x' }], d: { e: [] }, '"k"': true }],
    [
      'non-JSON entries, as JSON.stringify drops or nulls them',
      { a: undefined, b: [undefined, () => 1], c: Number.NaN },
    ],
    ['a toJSON', { when: new Date(Date.UTC(2024, 0, 2)) }],
  ])('%s: the same text as JSON.stringify', (_what, value) => {
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });

  test('JSON deeper than JSON.stringify writes is written whole', () => {
    for (const text of [
      arrays(100_000),
      objects(20_000),
      `{"a":[1,${objects(10_000)},"z"],"b":2}`,
    ]) {
      const value = JSON.parse(text);
      expect(() => JSON.stringify(value)).toThrow(RangeError);
      expect(stringifyJson(value)).toBe(text.replace(/\s/g, ''));
    }
  });

  test('the deep writer keeps JSON.stringify’s rules (checked on a deep value with odd entries)', () => {
    const inner = {
      u: undefined,
      f: () => 1,
      arr: [undefined, Number.POSITIVE_INFINITY, 'q'],
      d: new Date(0),
    };
    const deep = JSON.parse(arrays(10_000));
    let cursor = deep as unknown[];
    while (cursor.length > 0) cursor = cursor[0] as unknown[];
    cursor.push(inner);
    const expected = `${'['.repeat(10_000)}${JSON.stringify(inner)}${']'.repeat(10_000)}`;
    expect(stringifyJson(deep)).toBe(expected);
  });

  test('a cycle deeper than the native writer reaches is a TypeError, as JSON.stringify says', () => {
    const deep = JSON.parse(arrays(10_000));
    let cursor = deep as unknown[];
    while (cursor.length > 0) cursor = cursor[0] as unknown[];
    cursor.push(deep);
    expect(() => stringifyJson(deep)).toThrow(TypeError);
  });
});
