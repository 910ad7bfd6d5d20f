/**
 * std/__tests__/casts.rows: a result row for every cast between two distinct std scalars that svc
 * allows (generated per pair from one value per type), with the failing input where the pair can
 * fail, and the rule that says when it cannot.
 *
 * When a cast can fail (the rule, per pair):
 * - `<str>x` and `<json>x`: never (every value has a text and a JSON form);
 * - `<T>str`, `<T>json`: always (text that is not a T; JSON of another kind), except `<json>str`
 *   (any str is a JSON string) and `<str>json` of a JSON string... which still fails on a number;
 * - between numbers: when the target's range is narrower than the source's (ints from wider
 *   numbers, float32 from float64 / decimal / bigint, float64 from decimal / bigint), or the
 *   source has values the target has not (NaN and infinities into bigint / decimal);
 * - between durations: into a type without some of the source's units (months or days into
 *   duration, hours into date_duration); local types: never (date and time are parts).
 *
 * `std::sequence` has no rows: it is abstract (Gel's rule, query/bind/expr `refuseGenericCast`:
 * nothing casts into it) and its values are those of a concrete sequence type, an int64.
 */
import { cast, fails, ok, type Row } from './harness';

/** One value per type: its literal (as the source of a cast), its str form and its JSON form. */
interface Value {
  readonly literal: string;
  readonly text: string;
  readonly json: unknown;
  /** A str that is not a value of this type. */
  readonly badText: string;
  /** JSON of the wrong kind for this type. */
  readonly badJson: string;
}

const NUMBER = (type: string, text = '7'): Value => ({
  literal: `<${type}>'${text}'`,
  text,
  json: 7,
  badText: 'seven',
  badJson: '"7"',
});

const VALUES: Readonly<Record<string, Value>> = {
  'std::str': { literal: `'x'`, text: 'x', json: 'x', badText: '', badJson: '1' },
  'std::bool': { literal: 'true', text: 'true', json: true, badText: 'yes', badJson: '"true"' },
  'std::int16': NUMBER('std::int16'),
  'std::int32': NUMBER('std::int32'),
  'std::int64': NUMBER('std::int64'),
  'std::float32': NUMBER('std::float32'),
  'std::float64': NUMBER('std::float64'),
  'std::bigint': NUMBER('std::bigint'),
  'std::decimal': NUMBER('std::decimal'),
  'std::uuid': {
    literal: `<uuid>'00000000-0000-0000-0000-000000000001'`,
    text: '00000000-0000-0000-0000-000000000001',
    json: '00000000-0000-0000-0000-000000000001',
    badText: '00000000-0000',
    badJson: '1',
  },
  'std::json': { literal: `to_json('[1]')`, text: '[1]', json: [1], badText: '', badJson: '' },
  'std::bytes': { literal: `b'a'`, text: '', json: 'YQ==', badText: '', badJson: '1' },
  'std::datetime': {
    literal: `<datetime>'2024-01-02T03:04:05Z'`,
    text: '2024-01-02T03:04:05+00:00',
    json: '2024-01-02T03:04:05+00:00',
    badText: '2024-01-02T03:04:05',
    badJson: '1',
  },
  'std::duration': {
    literal: `<duration>'PT1H'`,
    text: 'PT1H',
    json: 'PT1H',
    badText: 'P1D',
    badJson: '1',
  },
  'cal::local_datetime': {
    literal: `<cal::local_datetime>'2024-01-02T03:04:05'`,
    text: '2024-01-02T03:04:05',
    json: '2024-01-02T03:04:05',
    badText: '2024-01-02T03:04:05+00:00',
    badJson: '1',
  },
  'cal::local_date': {
    literal: `<cal::local_date>'2024-01-02'`,
    text: '2024-01-02',
    json: '2024-01-02',
    badText: 'Jan 2 2024',
    badJson: '1',
  },
  'cal::local_time': {
    literal: `<cal::local_time>'03:04:05'`,
    text: '03:04:05',
    json: '03:04:05',
    badText: '3 pm',
    badJson: '1',
  },
  'cal::relative_duration': {
    literal: `<cal::relative_duration>'P1M2DT3H'`,
    text: 'P1M2DT3H',
    json: 'P1M2DT3H',
    badText: 'one month',
    badJson: '1',
  },
  'cal::date_duration': {
    literal: `<cal::date_duration>'P1M2D'`,
    text: 'P1M2D',
    json: 'P1M2D',
    badText: 'PT1H',
    badJson: '1',
  },
};

const NUMERIC = [
  'std::int16',
  'std::int32',
  'std::int64',
  'std::float32',
  'std::float64',
  'std::bigint',
  'std::decimal',
];

/** A value of `from` that does not fit in `to` (text for `<from>'...'`), or null: every value fits. */
function overflow(from: string, to: string): string | null {
  const int = (t: string) =>
    ['std::int16', 'std::int32', 'std::int64', 'std::sequence'].includes(t);
  const width: Record<string, number> = {
    'std::int16': 16,
    'std::int32': 32,
    'std::int64': 64,
    'std::sequence': 64,
  };
  if (int(to)) {
    if (int(from) && (width[from] as number) <= (width[to] as number)) return null;
    if (to === 'std::int16') return '70000';
    if (to === 'std::int32') return '3000000000';
    return from === 'std::float32' || from === 'std::float64' ? '1e19' : '10000000000000000000';
  }
  if (to === 'std::float32' && ['std::float64', 'std::decimal', 'std::bigint'].includes(from))
    return from === 'std::bigint' ? `1${'0'.repeat(39)}` : '1e39';
  if (to === 'std::float64' && ['std::decimal', 'std::bigint'].includes(from))
    return from === 'std::bigint' ? `1${'0'.repeat(309)}` : '1e309';
  if ((to === 'std::bigint' || to === 'std::decimal') && from.startsWith('std::float'))
    return 'NaN';
  return null;
}

const TEMPORAL: readonly [string, string, unknown, string | null][] = [
  // [from, to, result of VALUES[from], a failing source literal or null]
  ['std::duration', 'cal::relative_duration', 'PT1H', null],
  ['std::duration', 'cal::date_duration', null, `<duration>'PT1H'`],
  ['cal::relative_duration', 'std::duration', null, `<cal::relative_duration>'P1M'`],
  ['cal::relative_duration', 'cal::date_duration', null, `<cal::relative_duration>'PT1H'`],
  ['cal::date_duration', 'cal::relative_duration', 'P1M2D', null],
  ['cal::date_duration', 'std::duration', null, `<cal::date_duration>'P1D'`],
  ['cal::local_date', 'cal::local_datetime', '2024-01-02T00:00:00', null],
  ['cal::local_datetime', 'cal::local_date', '2024-01-02', null],
  ['cal::local_datetime', 'cal::local_time', '03:04:05', null],
];

/** Happy values for temporal casts whose VALUES[from] is the failing kind. */
const TEMPORAL_OK: Readonly<Record<string, [string, unknown]>> = {
  'std::duration>cal::date_duration': [`<duration>'PT0S'`, 'P0D'],
  'cal::relative_duration>std::duration': [`<cal::relative_duration>'PT2H'`, 'PT2H'],
  'cal::relative_duration>cal::date_duration': [`<cal::relative_duration>'P1M3D'`, 'P1M3D'],
  'cal::date_duration>std::duration': [`<cal::date_duration>'P0D'`, 'PT0S'],
};

const NEVER_TEXT = 'every value has a str form';
const NEVER_JSON = 'every value has a JSON form';

function rows(): Row[] {
  const out: Row[] = [];
  const types = Object.keys(VALUES);
  for (const from of types) {
    const v = VALUES[from] as Value;
    if (from !== 'std::str' && from !== 'std::bytes' && from !== 'std::json')
      out.push(ok(cast('std::str', v.literal), [v.text], { never: NEVER_TEXT }));
    if (from !== 'std::json')
      out.push(ok(cast('std::json', v.literal), [v.json], { never: NEVER_JSON }));
  }
  out.push(
    ok(cast('std::str', `to_json('"x"')`), ['x']),
    fails(cast('std::str', `to_json('1')`), 'InvalidValueError'),
  );
  for (const to of types) {
    if (to === 'std::str' || to === 'std::json') continue;
    const v = VALUES[to] as Value;
    if (to !== 'std::bytes') {
      out.push(
        ok(cast(to, `'${v.text}'`), [v.json]),
        fails(cast(to, `'${v.badText}'`), 'InvalidValueError'),
      );
    }
    out.push(
      ok(cast(to, `to_json('${JSON.stringify(v.json)}')`), [v.json]),
      fails(cast(to, `to_json('${v.badJson}')`), 'InvalidValueError'),
    );
  }
  out.push(ok(cast('std::json', `'x'`), ['x'], { never: 'any str is a JSON string' }));
  for (const from of NUMERIC) {
    for (const to of NUMERIC) {
      if (from === to) continue;
      const bad = overflow(from, to);
      if (bad === null)
        out.push(
          ok(cast(to, (VALUES[from] as Value).literal), [7], {
            never: 'the target holds every value of the source',
          }),
        );
      else
        out.push(
          ok(cast(to, (VALUES[from] as Value).literal), [7]),
          fails(cast(to, `<${from}>'${bad}'`), 'InvalidValueError'),
        );
    }
  }
  for (const [from, to, result, bad] of TEMPORAL) {
    const special = TEMPORAL_OK[`${from}>${to}`];
    if (special) out.push(ok(cast(to, special[0]), [special[1]]));
    else
      out.push(
        ok(cast(to, (VALUES[from] as Value).literal), [result], {
          never: 'the target holds every value of the source',
        }),
      );
    if (bad) out.push(fails(cast(to, bad), 'InvalidValueError'));
  }
  // Enums, constrained scalars (checked, per element for arrays), arrays, tuples.
  out.push(
    ok(cast('default::Color', `'Green'`), ['Green']),
    fails(cast('default::Color', `'Purple'`), 'InvalidValueError'),
    ok(cast('std::str', `<default::Color>'Red'`), ['Red']),
    ok(cast('default::Color', `to_json('"Blue"')`), ['Blue']),
    ok(cast('std::json', `<default::Color>'Blue'`), ['Blue']),
    ok(cast('default::Short', `'abc'`), ['abc']),
    fails(cast('default::Short', `'abcd'`), 'ConstraintViolationError'),
    ok(cast('default::Small', '7'), [7]),
    fails(cast('default::Small', '10'), 'ConstraintViolationError'),
    ok(cast('array<default::Short>', `['a', 'bc']`), [['a', 'bc']]),
    fails(cast('array<default::Short>', `['a', 'abcd']`), 'ConstraintViolationError'),
    ok(cast('array<std::str>', '[1, 2]'), [['1', '2']]),
    fails(cast('array<std::int16>', '[1, 70000]'), 'NumericOutOfRangeError'),
    ok(cast('tuple<std::str, std::int64>', `(1, '2')`), [['1', 2]]),
    fails(cast('tuple<std::str, std::int64>', `(1, 'x')`), 'InvalidValueError'),
    ok(cast('tuple<a: std::int64, b: std::bool>', `to_json('{"a": 1, "b": true}')`), [
      { a: 1, b: true },
    ]),
  );
  out.push(
    fails(cast('std::decimal', `<std::float64>'-Infinity'`), 'InvalidValueError'),
    fails(cast('std::bigint', `<std::float32>'Infinity'`), 'InvalidValueError'),
    fails(cast('std::bytes', `to_json('"not base64!"')`), 'InvalidValueError'),
  );
  return out;
}

export const CAST_ROWS: readonly Row[] = rows();
