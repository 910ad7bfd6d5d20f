import { buildSchema } from '@svc/core';
import { portablePattern, withConstraints } from './constraints';

/** The constraints of property `p` of type `T` in `sdl`. */
function constraintsOf(body: string) {
  const schema = buildSchema(`module default { type T { ${body} } }`);
  const t = schema.objectTypes.find((o) => o.name === 'default::T');
  const p = t?.pointers.find((x) => x.name === 'p');
  if (!p) throw new Error('no p');
  return p.constraints;
}

describe('withConstraints', () => {
  test.each([
    ['p: str { constraint max_len_value(5); }', { type: 'string' }, { maxLength: 5 }],
    ['p: str { constraint min_len_value(2); }', { type: 'string' }, { minLength: 2 }],
    ['p: int64 { constraint min_value(-3); }', { type: 'integer' }, { minimum: -3 }],
    ['p: int64 { constraint max_value(+3); }', { type: 'integer' }, { maximum: 3 }],
    ['p: float64 { constraint min_ex_value(0.5); }', { type: 'number' }, { exclusiveMinimum: 0.5 }],
    [
      'p: float64 { constraint max_ex_value(1e3); }',
      { type: 'number' },
      { exclusiveMaximum: 1000 },
    ],
    ["p: str { constraint regexp('^a+$'); }", { type: 'string' }, { pattern: '^a+$' }],
    ["p: str { constraint one_of('a', 'b'); }", { type: 'string' }, { enum: ['a', 'b'] }],
    [
      'p: decimal { constraint min_value(<decimal>1); }',
      { type: ['number', 'string'] },
      { minimum: 1 },
    ],
  ])('%s', (body, base, added) => {
    expect(withConstraints(base, constraintsOf(body))).toEqual({ ...base, ...added });
  });

  test('two bounds of one kind: the stricter; two patterns: both, the second under allOf', () => {
    const cs = constraintsOf(
      "p: str { constraint max_len_value(9); constraint max_len_value(4); constraint regexp('a'); constraint regexp('b'); }",
    );
    expect(withConstraints({ type: 'string' }, cs)).toEqual({
      type: 'string',
      maxLength: 4,
      pattern: 'a',
      allOf: [{ pattern: 'b' }],
    });
  });

  test('a bigint bound beyond exact doubles is left out rather than rounded', () => {
    const cs = constraintsOf('p: bigint { constraint max_value(123456789012345678901n); }');
    expect(withConstraints({ type: 'integer' }, cs)).toEqual({ type: 'integer' });
  });
});

describe('portablePattern: PostgreSQL patterns ECMA-262 reads the same way', () => {
  test.each(['^[a-z0-9-]+$', '\\d{3}', 'a|b', '^(foo)?bar$'])('%s is portable', (p) => {
    expect(portablePattern(p)).toBe(true);
  });
  test.each(['[[:alpha:]]', '\\mword\\M', '\\yx', '(?i)abc', '***:abc', '(unclosed'])(
    '%s is not',
    (p) => {
      expect(portablePattern(p)).toBe(false);
    },
  );
});
