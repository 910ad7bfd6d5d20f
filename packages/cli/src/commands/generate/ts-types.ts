/**
 * generate/ts-types: how an EdgeQL value is typed in TypeScript, as @svc/client decodes it (its
 * codec's table). Shared by `svc generate interfaces` and `svc generate queries`.
 */

export const STD: Readonly<Record<string, string>> = {
  'std::str': 'string',
  'std::uuid': 'string',
  'std::bool': 'boolean',
  'std::int16': 'number',
  'std::int32': 'number',
  'std::int64': 'number',
  'std::float32': 'number',
  'std::float64': 'number',
  'std::sequence': 'number',
  'std::bigint': 'bigint',
  'std::decimal': 'string',
  'std::datetime': 'Date',
  'std::bytes': 'Uint8Array',
  'std::json': 'unknown',
  'std::duration': 'Duration',
  'cal::local_date': 'LocalDate',
  'cal::local_time': 'LocalTime',
  'cal::local_datetime': 'LocalDateTime',
  'cal::relative_duration': 'RelativeDuration',
  'cal::date_duration': 'DateDuration',
};
/** The package the generated file imports its value classes from (text it writes: the CLI
 * itself does not depend on the client). */
export const CLIENT_PACKAGE = ['@svc', 'client'].join('/');
/** The @svc/client classes the TypeScript above names. */
export const CLIENT_CLASSES = [
  'DateDuration',
  'Duration',
  'LocalDate',
  'LocalDateTime',
  'LocalTime',
  'Range',
  'RelativeDuration',
];
