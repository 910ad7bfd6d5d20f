import { edgeqlMessage } from './messages';

test.each([
  ['invalid input syntax for type bigint: "x"', 'invalid input syntax for type std::int64: "x"'],
  [
    'invalid input syntax for type double precision: "a"',
    'invalid input syntax for type std::float64: "a"',
  ],
  ['smallint out of range', 'value out of range for std::int16'],
  ['bigint out of range', 'value out of range for std::int64'],
  [
    'value "99999999999" is out of range for type integer',
    'value "99999999999" is out of range for type std::int32',
  ],
  [
    'invalid input syntax for type timestamp with time zone: "x"',
    'invalid input syntax for type std::datetime: "x"',
  ],
  ['cannot cast jsonb string to type numeric', 'cannot cast jsonb string to type std::decimal'],
  [
    "invalid input syntax for type std::bool: 'yes'",
    "invalid input syntax for type std::bool: 'yes'",
  ],
  ['division by zero', 'division by zero'],
])('%s → %s', (input, expected) => {
  expect(edgeqlMessage(input)).toBe(expected);
});
