/**
 * build/stdlib: the std functions schema expressions may call, as a table: arity, result type
 * and how the result's cardinality follows from the arguments.
 *
 * Input: nothing. Output: `STD_FUNCTIONS` by fully qualified name.
 * Invariant: a function missing here is unknown to the schema builder ("function 'x' does not
 * exist"); add a row to support one. `has_role` is provided by the server (DECISIONS).
 */
import type { TypeRef } from '../model';
import type { Inferred } from './context';
import {
  BOOL,
  BYTES,
  DATETIME,
  DURATION,
  FLOAT64,
  INT64,
  JSON_T,
  STR,
  UUID,
  arrayOf,
  scalar,
} from './types';

/**
 * - `element`: one result per combination of argument values (card = product);
 * - `aggregate`: one result for the whole set (`count`, `sum`, `exists`, `array_agg`);
 * - `optional-aggregate`: at most one (`min`, `max` of an empty set is empty);
 * - `set`: any number (`array_unpack`);
 * - `same`: the first argument's cardinality (`assert_distinct`), `single`: at most one of it
 *   (`assert_single`), `exists`: at least one of it (`assert_exists`).
 */
export type CardRule =
  | 'element'
  | 'aggregate'
  | 'optional-aggregate'
  | 'set'
  | 'same'
  | 'single'
  | 'exists';

export interface StdFunction {
  readonly min: number;
  readonly max: number;
  readonly returns: TypeRef | ((args: readonly Inferred[]) => TypeRef | null);
  readonly card: CardRule;
  readonly volatility: 'Immutable' | 'Stable' | 'Volatile';
}

const arg0 = (args: readonly Inferred[]) => args[0]?.type ?? null;
const element0 = (args: readonly Inferred[]) => {
  const t = args[0]?.type;
  return t?.kind === 'array' ? t.element : null;
};
const array0 = (args: readonly Inferred[]) => {
  const t = args[0]?.type;
  return t ? arrayOf(t) : null;
};
/** `sum` of integers is int64 (bigint stays), of floats float64. */
const sumType = (args: readonly Inferred[]) => {
  const t = args[0]?.type;
  if (t?.kind !== 'scalar') return t ?? null;
  if (['std::int16', 'std::int32', 'std::int64'].includes(t.name)) return INT64;
  if (t.name === 'std::float32') return FLOAT64;
  return t;
};

const fn = (
  min: number,
  max: number,
  returns: StdFunction['returns'],
  card: CardRule = 'element',
  volatility: StdFunction['volatility'] = 'Immutable',
): StdFunction => ({ min, max, returns, card, volatility });

export const STD_FUNCTIONS: Readonly<Record<string, StdFunction>> = {
  // sets
  'std::count': fn(1, 1, INT64, 'aggregate'),
  'std::sum': fn(1, 1, sumType, 'aggregate'),
  'std::all': fn(1, 1, BOOL, 'aggregate'),
  'std::any': fn(1, 1, BOOL, 'aggregate'),
  'std::min': fn(1, 1, arg0, 'optional-aggregate'),
  'std::max': fn(1, 1, arg0, 'optional-aggregate'),
  'std::array_agg': fn(1, 1, array0, 'aggregate'),
  'std::array_unpack': fn(1, 1, element0, 'set'),
  // Ranges have no stored type (resolve refuses `range<T>`), so their type is not told here;
  // a query may still build and unpack one (`for x in range_unpack(range(0, n))`).
  'std::range': fn(1, 2, () => null, 'element'),
  'std::range_unpack': fn(1, 2, () => null, 'set'),
  // A document for `index fts::index` (schema/fts.ts): text with `language := fts::Language.x`
  // and an optional `weight_category := fts::Weight.x`; not a stored type, so untyped here.
  'fts::with_options': fn(1, 1, () => null, 'element'),
  'std::assert_single': fn(1, 3, arg0, 'single'),
  'std::assert_exists': fn(1, 3, arg0, 'exists'),
  'std::assert_distinct': fn(1, 3, arg0, 'same'),
  'std::enumerate': fn(
    1,
    1,
    (a) =>
      a[0]?.type
        ? {
            kind: 'tuple',
            elements: [
              { name: null, type: INT64 },
              { name: null, type: a[0].type },
            ],
          }
        : null,
    'same',
  ),
  // generic
  'std::len': fn(1, 1, INT64),
  'std::contains': fn(2, 2, BOOL),
  'std::find': fn(2, 2, INT64),
  'std::assert': fn(1, 2, BOOL),
  // strings
  'std::str_lower': fn(1, 1, STR),
  'std::str_upper': fn(1, 1, STR),
  'std::str_title': fn(1, 1, STR),
  'std::str_trim': fn(1, 2, STR),
  'std::str_trim_start': fn(1, 2, STR),
  'std::str_trim_end': fn(1, 2, STR),
  'std::str_pad_start': fn(2, 3, STR),
  'std::str_pad_end': fn(2, 3, STR),
  'std::str_repeat': fn(2, 2, STR),
  'std::str_replace': fn(3, 3, STR),
  'std::str_reverse': fn(1, 1, STR),
  'std::str_split': fn(2, 2, arrayOf(STR)),
  'std::array_join': fn(2, 2, STR),
  'std::array_get': fn(2, 3, element0),
  'std::array_fill': fn(2, 2, array0),
  'std::re_match': fn(2, 3, arrayOf(STR)),
  'std::re_match_all': fn(2, 3, arrayOf(STR), 'set'),
  'std::re_test': fn(2, 3, BOOL),
  'std::re_replace': fn(3, 4, STR),
  // conversions
  'std::to_str': fn(1, 2, STR),
  'std::to_json': fn(1, 1, JSON_T),
  'std::to_int16': fn(1, 2, scalar('std::int16')),
  'std::to_int32': fn(1, 2, scalar('std::int32')),
  'std::to_int64': fn(1, 2, INT64),
  'std::to_float32': fn(1, 2, scalar('std::float32')),
  'std::to_float64': fn(1, 2, FLOAT64),
  'std::to_bigint': fn(1, 2, scalar('std::bigint')),
  'std::to_decimal': fn(1, 2, scalar('std::decimal')),
  'std::to_datetime': fn(1, 7, DATETIME),
  'std::to_duration': fn(0, 0, DURATION),
  'std::to_bytes': fn(1, 2, BYTES),
  'std::round': fn(1, 2, arg0),
  // json
  'std::json_typeof': fn(1, 1, STR),
  'std::json_get': fn(1, 64, JSON_T, 'element'),
  'std::json_array_unpack': fn(1, 1, JSON_T, 'set'),
  // time and randomness
  'std::datetime_current': fn(0, 0, DATETIME, 'element', 'Volatile'),
  'std::datetime_of_statement': fn(0, 0, DATETIME, 'element', 'Stable'),
  'std::datetime_of_transaction': fn(0, 0, DATETIME, 'element', 'Stable'),
  'std::datetime_get': fn(2, 2, FLOAT64),
  'std::datetime_truncate': fn(2, 2, DATETIME),
  'std::duration_truncate': fn(2, 2, DURATION),
  'std::random': fn(0, 0, FLOAT64, 'element', 'Volatile'),
  'std::uuid_generate_v1mc': fn(0, 0, UUID, 'element', 'Volatile'),
  'std::uuid_generate_v4': fn(0, 0, UUID, 'element', 'Volatile'),
  'std::bytes_get_bit': fn(2, 2, INT64),
  // math
  'math::abs': fn(1, 1, arg0),
  'math::ceil': fn(1, 1, arg0),
  'math::floor': fn(1, 1, arg0),
  'math::mean': fn(1, 1, FLOAT64, 'optional-aggregate'),
  'math::ln': fn(1, 1, FLOAT64),
  'math::lg': fn(1, 1, FLOAT64),
  // cal
  'cal::to_local_date': fn(1, 3, scalar('cal::local_date')),
  'cal::to_local_datetime': fn(1, 6, scalar('cal::local_datetime')),
  'cal::to_local_time': fn(1, 3, scalar('cal::local_time')),
  'cal::to_relative_duration': fn(0, 0, scalar('cal::relative_duration')),
  'cal::to_date_duration': fn(0, 0, scalar('cal::date_duration')),
  // provided by the server (DECISIONS)
  'std::has_role': fn(1, 1, BOOL, 'element', 'Stable'),
};

/** Functions whose named-only arguments (`to_duration(hours := 1)`) count instead of positional ones. */
export const NAMED_ARGS_ONLY: ReadonlySet<string> = new Set([
  'std::to_duration',
  'cal::to_relative_duration',
  'cal::to_date_duration',
]);

/** The globals the server provides, usable in expressions without being declared (DECISIONS). */
export const BUILTIN_GLOBALS: Readonly<Record<string, TypeRef>> = {
  current_user_id: UUID,
  current_user_email: STR,
  current_role: STR,
};
