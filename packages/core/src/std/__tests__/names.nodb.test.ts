/**
 * Issue 11's list of the std, math, cal and range surface ("The whole std, math, cal and range
 * surface Gel documents for these types, at least: ..."): every name there must resolve, as a
 * user writes it, through the binder. A name resolves when binding `select name()` finds the
 * function (an argument mismatch is fine: that is "no such overload", not "no such function").
 * The test fails naming each name that does not resolve.
 */
import { parseQuery } from '../../syntax';
import type { Statement } from '../../syntax';
import { bindQuery } from '../../query/bind';
import { schemaIndex } from '../../query/schema-index';
import { stdTestSchema } from './harness';

/** The names as the issue lists them (`a/b` and `(_x)` spelled out), unqualified ones in std. */
export const ISSUE_11_NAMES: readonly string[] = [
  ...'count sum min max avg all any enumerate array_agg array_unpack array_get array_join array_fill array_replace array_set array_insert len contains find str_lower str_upper str_title str_trim str_trim_start str_trim_end str_split str_repeat str_replace str_reverse str_pad_start str_pad_end re_match re_match_all re_replace re_test to_str to_int16 to_int32 to_int64 to_float32 to_float64 to_bigint to_decimal to_json to_bytes to_datetime to_duration datetime_current datetime_of_statement datetime_of_transaction datetime_get datetime_truncate duration_get duration_truncate json_get json_set json_typeof json_array_unpack json_object_unpack json_object_pack assert assert_single assert_exists assert_distinct range range_unpack range_get_lower range_get_upper range_is_empty range_is_inclusive_lower range_is_inclusive_upper multirange multirange_unpack overlaps adjacent strictly_above strictly_below bounded_above bounded_below uuid_generate_v1mc uuid_generate_v4 uuid_generate_v7 random bit_and bit_or bit_xor bit_not bit_lshift bit_rshift bit_count sequence_next sequence_reset'
    .split(' ')
    .map((n) => `std::${n}`),
  ...'abs ceil floor ln lg log exp mean stddev stddev_pop var var_pop pi e'
    .split(' ')
    .map((n) => `math::${n}`),
  ...'to_local_datetime to_local_date to_local_time to_relative_duration to_date_duration time_get date_get duration_normalize_hours duration_normalize_days'
    .split(' ')
    .map((n) => `cal::${n}`),
  'std::enc::base64_encode',
  'std::enc::base64_decode',
  // Spec items 4 and 32: the neutral names.
  'std::base64_encode',
  'std::base64_decode',
  'sys::get_version',
];

/** Null when `name` resolves; else why not. */
function unresolved(name: string): string | null {
  const short = name.replace(/^std::(?!enc::)/, '');
  for (const written of new Set([name, short])) {
    try {
      bindQuery(schemaIndex(stdTestSchema()), parseQuery(`select ${written}()`)[0] as Statement);
    } catch (error) {
      const message = (error as Error).message;
      const missing =
        /^function '[^']*' does not exist/.test(message) ||
        (error as Error).constructor.name === 'UnknownModuleError';
      if (missing) return `${written}: ${message}`;
    }
  }
  return null;
}

test("every name issue 11 lists resolves (with and without 'std::')", () => {
  const missing = ISSUE_11_NAMES.map(unresolved).filter((x): x is string => x !== null);
  if (missing.length > 0)
    throw new Error(`${missing.length} names do not resolve:\n  ${missing.join('\n  ')}`);
});
