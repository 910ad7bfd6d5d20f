/**
 * std/messages: PostgreSQL's error messages about values, spoken in EdgeQL's type names
 * (spec item 10: `invalid input syntax for type std::int64`, `value out of range for std::int16`).
 *
 * Input: the message of a PostgreSQL error (class 22: data exceptions). Output: the same message
 * with PostgreSQL's type names replaced by the std scalar each one stores; messages that name no
 * type come back unchanged. The SQLSTATE is not touched (clients match on it, not on the text).
 * Invariant: one table of names (PG_NAMES), derived from the storage mapping where it is 1:1.
 */

/** PostgreSQL type names (as its messages spell them) → the EdgeQL type stored as that type. */
export const PG_NAMES: Readonly<Record<string, string>> = {
  text: 'std::str',
  boolean: 'std::bool',
  smallint: 'std::int16',
  integer: 'std::int32',
  bigint: 'std::int64',
  real: 'std::float32',
  'double precision': 'std::float64',
  numeric: 'std::decimal',
  uuid: 'std::uuid',
  json: 'std::json',
  jsonb: 'std::json',
  bytea: 'std::bytes',
  'timestamp with time zone': 'std::datetime',
  'timestamp without time zone': 'cal::local_datetime',
  timestamptz: 'std::datetime',
  timestamp: 'cal::local_datetime',
  date: 'cal::local_date',
  'time without time zone': 'cal::local_time',
  time: 'cal::local_time',
  interval: 'std::duration',
};

const TYPE = Object.keys(PG_NAMES)
  .sort((a, b) => b.length - a.length)
  .map((name) => name.replace(/ /g, '\\s'))
  .join('|');

/** Each rule: a message shape and how it reads with the EdgeQL name. */
const RULES: readonly [RegExp, (edgeql: string) => string][] = [
  // invalid input syntax for type bigint: "x"
  [
    new RegExp(`^invalid input syntax for type (${TYPE})\\b`),
    (t) => `invalid input syntax for type ${t}`,
  ],
  // smallint out of range (arithmetic overflow)
  [new RegExp(`^(${TYPE}) out of range`), (t) => `value out of range for ${t}`],
  // value "99999999999" is out of range for type integer
  [new RegExp(`out of range for type (${TYPE})\\b`), (t) => `out of range for type ${t}`],
  // cannot cast jsonb string to type numeric
  [new RegExp(`to type (${TYPE})\\b`), (t) => `to type ${t}`],
];

/** The message with EdgeQL type names (see the module comment). */
export function edgeqlMessage(message: string): string {
  for (const [pattern, render] of RULES) {
    const m = pattern.exec(message);
    if (m) return message.replace(pattern, render(PG_NAMES[m[1] as string] as string));
  }
  return message;
}
