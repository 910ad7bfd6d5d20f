import { losesDigits, parseJson } from './json';

describe('parseJson', () => {
  test('an int64 beyond 2^53 keeps every digit, as a string', () => {
    expect(parseJson('{"big":9007199254740993,"n":-9223372036854775808}')).toEqual({
      big: '9007199254740993',
      n: '-9223372036854775808',
    });
  });

  test('a decimal with more digits than a double holds keeps them', () => {
    expect(parseJson('[12345678901234567890.123456789]')).toEqual([
      '12345678901234567890.123456789',
    ]);
  });

  test('numbers a double holds stay numbers, whatever their spelling', () => {
    expect(
      parseJson('[1, -2, 9007199254740991, 0.1, 1.10, 1e21, 1E-7, 0, 2.5e-3, 0.30000000000000004]'),
    ).toEqual([1, -2, 9007199254740991, 0.1, 1.1, 1e21, 1e-7, 0, 0.0025, 0.30000000000000004]);
  });

  test('strings, booleans and null are as JSON.parse gives them', () => {
    const text = '{"s":"9007199254740993","b":true,"z":null,"a":[{"x":"y"}]}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });
});

describe('losesDigits', () => {
  test.each([
    // The double 9007199254740993 parses to (it cannot hold that integer).
    ['9007199254740993', 2 ** 53, true],
    ['9007199254740992', 2 ** 53, false],
    ['100', 100, false],
    ['-0.5', -0.5, false],
  ])('%s', (source, value, lost) => {
    expect(losesDigits(source, value)).toBe(lost);
  });
});

describe('parseJson: strings are skipped whole', () => {
  test('digits inside strings, escaped quotes and backslashes are left alone', () => {
    const text = String.raw`{"a":"x\"9007199254740993\\","b":9007199254740993,"c":"\\"}`;
    expect(parseJson(text)).toEqual({ a: 'x"9007199254740993\\', b: '9007199254740993', c: '\\' });
  });

  test('bad JSON is still a SyntaxError', () => {
    expect(() => parseJson('{"a": 1')).toThrow(SyntaxError);
    expect(() => parseJson('-')).toThrow(SyntaxError);
  });
});
