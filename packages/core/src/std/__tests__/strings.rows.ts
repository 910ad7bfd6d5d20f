/**
 * std/__tests__/strings.rows: str and bytes functions, regular expressions, to_str and the parsers
 * (to_int16 ... to_bigint, to_json, to_bytes, to_uuid), the bytes <-> integer conversions with
 * std::Endian, bit_count of bytes, base64, has_role, fts::with_options.
 * Failing inputs: an invalid regular expression (InvalidValueError), a count past int32 (the
 * SQL forms' `::integer`), bytes that are not UTF-8, text that is not a number, bytes of the
 * wrong length for to_uuid / to_int16 / to_int32 / to_int64, and Gel's rule that a given `fmt`
 * must be a non-empty string (InvalidValueError).
 */
import { f, fails, ok, type Row } from './harness';

const TOTAL = 'defined for every value of its argument types';
const BAD_RE = `'('`;

function fmtRows(
  name: string,
  value: string,
  plain: unknown,
  fmt: string,
  formatted: unknown,
): Row[] {
  return [
    ok(f(name, value), [plain]),
    ok(f(name, value, `'${fmt}'`), [formatted]),
    fails(f(name, value, `''`), 'InvalidValueError'),
  ];
}

export const STRING_ROWS: readonly Row[] = [
  ok(f('std::len', `'héllo'`), [5], { never: TOTAL }),
  ok(f('std::len', `b'abc'`), [3], { never: TOTAL }),
  ok(f('std::len', '[1, 2]'), [2], { never: TOTAL }),
  ok(f('std::contains', `'hello'`, `'ell'`), [true], { never: TOTAL }),
  ok(f('std::contains', `b'hello'`, `b'lo'`), [true], { never: TOTAL }),
  ok(f('std::contains', '[1, 2]', '3'), [false], { never: TOTAL }),
  ok(f('std::contains', `to_json('{"a": 1, "b": 2}')`, `to_json('{"a": 1}')`), [true], {
    never: TOTAL,
  }),
  ok(f('std::find', `'hello'`, `'l'`), [2], { never: TOTAL }),
  ok(f('std::find', `b'hello'`, `b'z'`), [-1], { never: TOTAL }),
  ok(f('std::find', '[5, 6, 5]', '5', '1'), [2], { never: TOTAL }),
  ok(f('std::str_lower', `'AbC'`), ['abc'], { never: TOTAL }),
  ok(f('std::str_upper', `'AbC'`), ['ABC'], { never: TOTAL }),
  ok(f('std::str_title', `'hello wORLD'`), ['Hello World'], { never: TOTAL }),
  ok(f('std::str_reverse', `'abc'`), ['cba'], { never: TOTAL }),
  ok(f('std::str_repeat', `'ab'`, '3'), ['ababab']),
  ok(f('std::str_repeat', `'ab'`, '-1'), ['']),
  fails(f('std::str_repeat', `'ab'`, '9223372036854775807'), 'NumericOutOfRangeError'),
  ok(f('std::str_replace', `'a-b-c'`, `'-'`, `'+'`), ['a+b+c'], { never: TOTAL }),
  ok(f('std::str_trim', `'  x  '`), ['x'], { never: TOTAL }),
  ok(f('std::str_trim', `'xxaxx'`, `'x'`), ['a']),
  ok(f('std::str_trim_start', `'  x  '`), ['x  '], { never: TOTAL }),
  ok(f('std::str_trim_end', `'xxaxx'`, `'x'`), ['xxa'], { never: TOTAL }),
  ok(f('std::str_pad_start', `'7'`, '3', `'0'`), ['007']),
  ok(f('std::str_pad_start', `'abc'`, '2'), ['ab']),
  fails(f('std::str_pad_start', `'7'`, '9223372036854775807'), 'NumericOutOfRangeError'),
  ok(f('std::str_pad_end', `'7'`, '3'), ['7  ']),
  fails(f('std::str_pad_end', `'7'`, '9223372036854775807', `'0'`), 'NumericOutOfRangeError'),
  // The deprecated names (Gel: str_trim_start / str_trim_end / str_pad_start / str_pad_end).
  ok(f('std::str_ltrim', `'  x  '`), ['x  '], { never: TOTAL }),
  ok(f('std::str_ltrim', `'xxaxx'`, `'x'`), ['axx']),
  ok(f('std::str_rtrim', `'  x  '`), ['  x'], { never: TOTAL }),
  ok(f('std::str_rtrim', `'xxaxx'`, `'x'`), ['xxa']),
  ok(f('std::str_lpad', `'7'`, '3', `'0'`), ['007']),
  ok(f('std::str_lpad', `'7'`, '3'), ['  7']),
  fails(f('std::str_lpad', `'7'`, '9223372036854775807'), 'NumericOutOfRangeError'),
  ok(f('std::str_rpad', `'7'`, '3', `'0'`), ['700']),
  ok(f('std::str_rpad', `'7'`, '3'), ['7  ']),
  fails(f('std::str_rpad', `'7'`, '9223372036854775807'), 'NumericOutOfRangeError'),
  ok(f('std::str_split', `'a,b'`, `','`), [['a', 'b']], { never: TOTAL }),
  ok(f('std::str_split', `'ab'`, `''`), [['a', 'b']]),
  ok(f('std::array_join', `['a', 'b']`, `'-'`), ['a-b'], { never: TOTAL }),
  // b'one, two, three', b'' (Gel's test_edgeql_functions_array_join).
  ok(f('std::array_join', `[b'one', b'two', b'three']`, `b', '`), ['b25lLCB0d28sIHRocmVl'], {
    never: TOTAL,
  }),
  ok(f('std::array_join', `<array<bytes>>[]`, `b', '`), ['']),
  ok(f('std::re_test', `'a.c'`, `'xabcx'`), [true]),
  fails(f('std::re_test', BAD_RE, `'x'`), 'InvalidValueError'),
  ok(f('std::re_match', `'(\\\\d+)-(\\\\d+)'`, `'x 12-34'`), [['12', '34']]),
  ok(f('std::re_match', `'z'`, `'abc'`), []),
  fails(f('std::re_match', BAD_RE, `'x'`), 'InvalidValueError'),
  ok(f('std::re_match_all', `'a(.)'`, `'abacad'`), [['b'], ['c'], ['d']]),
  fails(f('std::re_match_all', BAD_RE, `'x'`), 'InvalidValueError'),
  ok(f('std::re_replace', `'a'`, `'X'`, `'banana'`), ['bXnana']),
  ok(f('std::re_replace', `'a'`, `'X'`, `'banana'`, `flags := 'g'`), ['bXnXnX']),
  fails(f('std::re_replace', BAD_RE, `'X'`, `'x'`), 'InvalidValueError'),
  ok(f('std::to_json', `'{"a": [1, null]}'`), [{ a: [1, null] }]),
  fails(f('std::to_json', `'{a: 1}'`), 'InvalidValueError'),
  ok(f('std::to_bytes', `'hé'`), ['aMOp'], { never: 'every str is valid UTF-8' }),
  // Gel's documented values (bytes.rst, uuid.rst, numbers.rst), as base64: b'{"a": 1}',
  // 92673afc-9c4f-42b3-8273-afe0053f0f48's 16 bytes, b'\x00\x1f', b'\x1f\x00',
  // b'\x00\x00\x00\x1f', b'\x01\xb6\x9bK\xac\xd0_\x15' and its reverse.
  ok(f('std::to_bytes', `to_json('{"a": 1}')`), ['eyJhIjogMX0='], {
    never: 'json text is valid UTF-8',
  }),
  ok(
    f('std::to_bytes', `<uuid>'92673afc-9c4f-42b3-8273-afe0053f0f48'`),
    ['kmc6/JxPQrOCc6/gBT8PSA=='],
    { never: 'every uuid is 16 bytes' },
  ),
  ok(f('std::to_bytes', '<int16>31', 'Endian.Big'), ['AB8='], { never: TOTAL }),
  ok(f('std::to_bytes', '<int16>31', 'Endian.Little'), ['HwA=']),
  ok(f('std::to_bytes', '<int32>31', 'Endian.Big'), ['AAAAHw=='], { never: TOTAL }),
  ok(f('std::to_bytes', '<int32>31', 'Endian.Little'), ['HwAAAA==']),
  ok(f('std::to_bytes', '123456789123456789', 'Endian.Big'), ['AbabS6zQXxU='], { never: TOTAL }),
  ok(f('std::to_bytes', '123456789123456789', 'Endian.Little'), ['FV/QrEubtgE=']),
  ok(
    f(
      'std::to_uuid',
      `b'\\x92\\x67\\x3a\\xfc\\x9c\\x4f\\x42\\xb3\\x82\\x73\\xaf\\xe0\\x05\\x3f\\x0f\\x48'`,
    ),
    ['92673afc-9c4f-42b3-8273-afe0053f0f48'],
  ),
  fails(f('std::to_uuid', `b'\\x92\\x67'`), 'InvalidValueError'),
  ok(f('std::to_int16', `b'\\x00\\x07'`, 'Endian.Big'), [7]),
  ok(f('std::to_int16', `b'\\x07\\x00'`, 'Endian.Little'), [7]),
  ok(f('std::to_int16', `b'\\xff\\xfe'`, 'Endian.Big'), [-2]),
  fails(f('std::to_int16', `b'\\x01'`, 'Endian.Big'), 'InvalidValueError'),
  ok(f('std::to_int32', `b'\\x00\\x00\\x00\\x07'`, 'Endian.Big'), [7]),
  ok(f('std::to_int32', `b'\\x07\\x00\\x00\\x00'`, 'Endian.Little'), [7]),
  fails(f('std::to_int32', `b'\\x00\\x07'`, 'Endian.Big'), 'InvalidValueError'),
  ok(f('std::to_int64', `b'\\x00\\x00\\x00\\x00\\x01\\x02\\x03\\x04'`, 'Endian.Big'), [16909060]),
  ok(
    f('std::to_int64', `b'\\x04\\x03\\x02\\x01\\x00\\x00\\x00\\x00'`, 'Endian.Little'),
    [16909060],
  ),
  fails(f('std::to_int64', `b'\\x00\\x07'`, 'Endian.Big'), 'InvalidValueError'),
  ok(f('std::bit_count', `b'\\xff\\xff'`), [16], { never: TOTAL }),
  ok(f('std::bit_count', `b''`), [0]),
  ok(f('std::to_str', `b'hi'`), ['hi']),
  fails(f('std::to_str', `b'\\xff'`), 'InvalidValueError'),
  ok(f('std::to_str', `'x'`), ['x'], { never: 'the identity' }),
  ok(f('std::to_str', `to_json('{"a": 1}')`), ['{"a": 1}']),
  ok(f('std::to_str', `to_json('[1]')`, `'pretty'`), ['[\n    1\n]']),
  fails(f('std::to_str', `to_json('[1]')`, `'ugly'`), 'InvalidValueError'),
  ok(f('std::to_str', `['a', 'b']`, `', '`), ['a, b'], { never: TOTAL }),
  ...fmtRows(
    'std::to_str',
    `<datetime>'2024-01-02T03:04:05Z'`,
    '2024-01-02T03:04:05+00:00',
    'YYYY',
    '2024',
  ),
  ...fmtRows(
    'std::to_str',
    `<cal::local_datetime>'2024-01-02T03:04:05'`,
    '2024-01-02T03:04:05',
    'YYYY-MM',
    '2024-01',
  ),
  ...fmtRows('std::to_str', `<cal::local_date>'2024-01-02'`, '2024-01-02', 'DD', '02'),
  ...fmtRows('std::to_str', `<cal::local_time>'03:04:05'`, '03:04:05', 'HH24:MI', '03:04'),
  ...fmtRows('std::to_str', `<duration>'PT1H30M'`, 'PT1H30M', 'HH24:MI', '01:30'),
  ...fmtRows('std::to_str', `<cal::relative_duration>'P1M2D'`, 'P1M2D', 'MM', '01'),
  ...fmtRows('std::to_str', `<cal::date_duration>'P3D'`, 'P3D', 'DD', '03'),
  ...fmtRows('std::to_str', '1234', '1234', '999G999', '   1,234'),
  ...fmtRows('std::to_str', '1.5', '1.5', '0.00', ' 1.50'),
  ...fmtRows('std::to_str', '1234n', '1234', '999999', '   1234'),
  ...fmtRows('std::to_str', '1.5n', '1.5', '0.00', ' 1.50'),
  ...(
    [
      ['std::to_int16', 7],
      ['std::to_int32', 7],
      ['std::to_int64', 7],
      ['std::to_float32', 7],
      ['std::to_float64', 7],
      ['std::to_bigint', 7],
      ['std::to_decimal', 7],
    ] as const
  ).flatMap(([name, value]): Row[] => [
    ok(f(name, `'7'`), [value]),
    ok(f(name, `'  7'`, `'999'`), [value]),
    fails(f(name, `'seven'`), 'InvalidValueError'),
    fails(f(name, `'7'`, `''`), 'InvalidValueError'),
  ]),
  fails(f('std::to_int16', `'70000'`), 'NumericOutOfRangeError'),
  ok(f('std::bytes_get_bit', `b'\\x01'`, '0'), [1]),
  ok(f('std::bytes_get_bit', `b'\\x01'`, '7'), [0]),
  fails(f('std::bytes_get_bit', `b'\\x01'`, '8'), 'InvalidValueError'),
  ok(f('std::enc::base64_encode', `b'hi'`), ['aGk='], { never: TOTAL }),
  ok(f('std::enc::base64_decode', `'aGk='`), ['aGk=']),
  fails(f('std::enc::base64_decode', `'a'`), 'InvalidValueError'),
  // Gel's alphabet and padding options: `-_` for `+/`, no `=`; unpadded text must say so.
  ok(f('std::enc::base64_encode', `b'\\xfb\\xff'`, `padding := false`), ['+/8']),
  ok(
    f('std::enc::base64_encode', `b'\\xfb\\xff'`, `alphabet := std::enc::Base64Alphabet.urlsafe`),
    ['-_8='],
  ),
  ok(
    f(
      'std::enc::base64_decode',
      `'-_8'`,
      `alphabet := std::enc::Base64Alphabet.urlsafe`,
      `padding := false`,
    ),
    ['+/8='],
  ),
  fails(f('std::enc::base64_decode', `'aGk'`), 'InvalidValueError'),
  ok(f('std::base64_encode', `b'hi'`), ['aGk='], { never: TOTAL }),
  ok(f('std::base64_decode', `'aGk='`), ['aGk=']),
  fails(f('std::base64_decode', `'!!'`), 'InvalidValueError'),
  // The caller's roles come from their credentials (an auth parameter): these rows run as an
  // anonymous caller, who has none. A signed-in caller's roles: query/engine and the server tests.
  ok(f('std::has_role', `'admin'`), [false], { never: TOTAL }),
  ok(f('fts::with_options', `'x'`, `language := 'english'`), ['x'], { never: TOTAL }),
];
