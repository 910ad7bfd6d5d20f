/**
 * std/__tests__/collections.rows: array and JSON functions. Failing inputs: an index past either end
 * (array_set, array_insert), a negative count (array_fill), JSON of the wrong kind
 * (json_array_unpack, json_object_unpack, json_set on a scalar): InvalidValueError.
 */
import { f, fails, ok, type Row } from './harness';

const TOTAL = 'defined for every value of its argument types';

export const COLLECTION_ROWS: readonly Row[] = [
  ok(f('std::array_unpack', '[3, 1, 2]'), [3, 1, 2], { never: TOTAL }),
  ok(f('std::array_get', '[1, 2]', '-1'), [2], { never: 'an index past either end is empty' }),
  ok(f('std::array_get', '[1, 2]', '5', 'default := 9'), [9]),
  ok(f('std::array_fill', `'x'`, '2'), [['x', 'x']]),
  ok(f('std::array_fill', '1', '0'), [[]]),
  fails(f('std::array_fill', '1', '-1'), 'InvalidValueError'),
  ok(f('std::array_replace', '[1, 2, 1]', '1', '9'), [[9, 2, 9]], { never: TOTAL }),
  ok(f('std::array_set', '[1, 2, 3]', '-1', '9'), [[1, 2, 9]]),
  fails(f('std::array_set', '[1, 2, 3]', '3', '9'), 'InvalidValueError'),
  ok(f('std::array_insert', '[1, 2]', '2', '9'), [[1, 2, 9]]),
  fails(f('std::array_insert', '[1, 2]', '3', '9'), 'InvalidValueError'),
  ok(f('std::json_typeof', `to_json('[1]')`), ['array'], { never: TOTAL }),
  ok(f('std::json_get', `to_json('{"a": {"b": [1, 2]}}')`, `'a'`, `'b'`, `'1'`), [2], {
    never: 'a missing path is empty (or the default)',
  }),
  ok(f('std::json_get', `to_json('{"a": 1}')`, `'z'`, `default := to_json('0')`), [0]),
  ok(f('std::json_set', `to_json('{"a": 1}')`, `'a'`, `value := to_json('2')`), [{ a: 2 }]),
  ok(f('std::json_set', `to_json('{"a": 1}')`, `'b'`, `value := to_json('2')`), [{ a: 1, b: 2 }]),
  fails(f('std::json_set', `to_json('1')`, `'a'`, `value := to_json('2')`), 'InvalidValueError'),
  ok(f('std::json_array_unpack', `to_json('[1, "a", null]')`), [1, 'a', null]),
  fails(f('std::json_array_unpack', `to_json('{"a": 1}')`), 'InvalidValueError'),
  ok(
    f('std::json_object_unpack', `to_json('{"b": 2, "a": 1}')`),
    [
      ['a', 1],
      ['b', 2],
    ],
    { unordered: true },
  ),
  fails(f('std::json_object_unpack', `to_json('[1]')`), 'InvalidValueError'),
  ok(f('std::json_object_pack', `{('a', to_json('1')), ('b', to_json('[]'))}`), [{ a: 1, b: [] }], {
    never: 'every set of (str, json) pairs packs (a repeated key keeps the last)',
    empty: [{}],
  }),
];
