/**
 * gel-replay/buckets: the one table mapping Gel's test files (and, where a file mixes topics, test
 * method names) to the buckets the issues are measured by. First matching row wins; a file
 * without a row is `other` (DDL, migrations, ...: later issues), reported but not in a goal.
 *
 * Issue 10 (the query engine): 90% in each of its buckets. Issue 11 (the std library, casts and
 * scalar semantics): 95% in casts, json, arrays, strings and errors; 90% in math, ranges,
 * datetime, duration and tuples. The std files also hold tests of other topics (paths, `if`,
 * aliases, user function calls): those are `std other`, reported with issue 11 but not in a goal.
 *
 * Issue 25 (access policies and globals): 95% in policies and in globals.
 *
 * Issue 28 (EdgeQL at Gel's level): 95% in select and shapes, coalesce (its own bucket since
 * issue 28; under issue 10 it was part of select and shapes), links, insert, update, for, with
 * and group; 99% in every std bucket (casts, json, arrays, strings, math, ranges, datetime,
 * duration, tuples); 97% over its whole set (all buckets but policies and globals).
 */

/** The issues whose goals the buckets measure. */
export const ISSUES = [10, 11, 25, 28] as const;
export type Issue = (typeof ISSUES)[number];

/** Per issue measuring a bucket: the share of its cases the issue asks for, in percent (null: reported with that issue, no goal of its own). */
type BucketGoals = Readonly<Partial<Record<Issue, number | null>>>;

export const BUCKET_GOALS = {
  'select and shapes': { 10: 90, 28: 95 },
  coalesce: { 10: 90, 28: 95 },
  links: { 10: 90, 28: 95 },
  insert: { 10: 90, 28: 95 },
  update: { 10: 90, 28: 95 },
  delete: { 10: 90, 28: null },
  for: { 10: 90, 28: 95 },
  with: { 10: 90, 28: 95 },
  group: { 10: 90, 28: 95 },
  sets: { 10: 90, 28: null },
  casts: { 11: 95, 28: 99 },
  json: { 11: 95, 28: 99 },
  arrays: { 11: 95, 28: 99 },
  strings: { 11: 95, 28: 99 },
  errors: { 11: 95, 28: null },
  math: { 11: 90, 28: 99 },
  ranges: { 11: 90, 28: 99 },
  datetime: { 11: 90, 28: 99 },
  duration: { 11: 90, 28: 99 },
  tuples: { 11: 90, 28: 99 },
  'std other': { 11: null, 28: null },
  policies: { 25: 95 },
  globals: { 25: 95 },
} as const satisfies Record<string, BucketGoals>;

/**
 * Issue 28's goal for its whole set (every bucket it lists, with or without a goal of its own:
 * all but policies and globals, which are issue 25's), in percent.
 */
export const WHOLE_SET_GOALS: Readonly<Partial<Record<Issue, number>>> = { 28: 97 };

/** The goal `issue` sets for `bucket`: a percentage, null (reported, no goal), or undefined (not the issue's). */
export function goalOf(bucket: Bucket, issue: Issue): number | null | undefined {
  if (bucket === 'other') return undefined;
  const goals: BucketGoals = BUCKET_GOALS[bucket];
  return goals[issue];
}

export type Bucket = keyof typeof BUCKET_GOALS | 'other';
export const BUCKETS = Object.keys(BUCKET_GOALS) as readonly (keyof typeof BUCKET_GOALS)[];

interface Row {
  readonly file: string;
  /** Test method names this row takes (all when absent). */
  readonly methods?: RegExp;
  readonly bucket: Bucket;
}

/** Method names of the std files that test what an invalid expression raises. */
const ERROR_METHODS =
  /^test_edgeql_(expr_(valid|invalid|error|cannot)|overflow_error|assert_|expr_static|normalization_mismatch)|_(illegal|invalid|error|errors|bad)(_|\d|$)/;

const TABLE: readonly Row[] = [
  // ---- issue 10
  {
    file: 'test_edgeql_select.py',
    methods:
      /^test_edgeql_select_(linkproperty|reverse_link|reverse_overload|revlink|polymorphic|nested_redefined_link)/,
    bucket: 'links',
  },
  {
    file: 'test_edgeql_select.py',
    methods: /^test_edgeql_select_(result_alias_binding|alias_indirection|for)_/,
    bucket: 'with',
  },
  {
    file: 'test_edgeql_select.py',
    methods: /^test_edgeql_select_(setops|exists|unique|free_object_distinct|set_literal)/,
    bucket: 'sets',
  },
  { file: 'test_edgeql_select.py', bucket: 'select and shapes' },
  { file: 'test_edgeql_filter.py', bucket: 'select and shapes' },
  { file: 'test_edgeql_coalesce.py', bucket: 'coalesce' },
  { file: 'test_edgeql_tree.py', bucket: 'select and shapes' },
  { file: 'test_edgeql_advtypes.py', bucket: 'select and shapes' },
  { file: 'test_edgeql_expr_aliases.py', bucket: 'select and shapes' },
  { file: 'test_edgeql_linkprops.py', bucket: 'links' },
  { file: 'test_edgeql_linkatoms.py', bucket: 'links' },
  { file: 'test_edgeql_insert.py', bucket: 'insert' },
  { file: 'test_edgeql_update.py', bucket: 'update' },
  { file: 'test_edgeql_delete.py', bucket: 'delete' },
  { file: 'test_edgeql_for.py', bucket: 'for' },
  { file: 'test_edgeql_scope.py', bucket: 'with' },
  { file: 'test_edgeql_group.py', bucket: 'group' },
  { file: 'test_edgeql_internal_group.py', bucket: 'group' },
  {
    file: 'test_edgeql_expressions.py',
    methods: /^test_edgeql_expr_(valid_setop|setop|set_|emptyset|valid_setbool)/,
    bucket: 'sets',
  },
  // ---- issue 11
  { file: 'test_edgeql_expressions.py', methods: ERROR_METHODS, bucket: 'errors' },
  { file: 'test_edgeql_functions.py', methods: ERROR_METHODS, bucket: 'errors' },
  { file: 'test_edgeql_casts.py', methods: /^test_edgeql_casts_illegal/, bucket: 'errors' },
  { file: 'test_edgeql_casts.py', methods: /json/, bucket: 'json' },
  { file: 'test_edgeql_casts.py', methods: /tuple/, bucket: 'tuples' },
  { file: 'test_edgeql_casts.py', methods: /multirange|range/, bucket: 'ranges' },
  { file: 'test_edgeql_casts.py', bucket: 'casts' },
  { file: 'test_edgeql_enums.py', methods: /json/, bucket: 'json' },
  { file: 'test_edgeql_enums.py', bucket: 'casts' },
  { file: 'test_edgeql_json.py', bucket: 'json' },
  {
    file: 'test_edgeql_expressions.py',
    methods: /^test_edgeql_(expr_cast|cast_to|expr_implicit|expr_idempotent)/,
    bucket: 'casts',
  },
  {
    file: 'test_edgeql_expressions.py',
    methods: /^test_edgeql_expr_(array|slice|index)/,
    bucket: 'arrays',
  },
  {
    file: 'test_edgeql_expressions.py',
    methods: /^test_edgeql_(expr_(string|str|bytes|literals)|str_concat)/,
    bucket: 'strings',
  },
  {
    file: 'test_edgeql_expressions.py',
    methods: /^test_edgeql_expr_(op|mod|comparison|aggregate)/,
    bucket: 'math',
  },
  { file: 'test_edgeql_expressions.py', methods: /^test_edgeql_expr_range/, bucket: 'ranges' },
  { file: 'test_edgeql_expressions.py', methods: /^test_edgeql_expr_tuple/, bucket: 'tuples' },
  { file: 'test_edgeql_expressions.py', bucket: 'std other' },
  {
    file: 'test_edgeql_functions.py',
    methods: /^test_edgeql_functions_(array|enumerate)/,
    bucket: 'arrays',
  },
  { file: 'test_edgeql_functions.py', methods: /json/, bucket: 'json' },
  {
    file: 'test_edgeql_functions.py',
    methods: /^test_edgeql_functions_(range|multirange)/,
    bucket: 'ranges',
  },
  {
    file: 'test_edgeql_functions.py',
    methods: /^test_edgeql_functions_duration|_to_(relative|date)_duration|_duration/,
    bucket: 'duration',
  },
  {
    file: 'test_edgeql_functions.py',
    methods: /^test_edgeql_functions_(datetime|date|time|unix|to_datetime|to_local)|local_/,
    bucket: 'datetime',
  },
  {
    file: 'test_edgeql_functions.py',
    methods:
      /^test_edgeql_(functions_(str|re|string|len|find|contains|encoding|to_str|to_bytes)|str_)/,
    bucket: 'strings',
  },
  {
    file: 'test_edgeql_functions.py',
    methods:
      /^test_edgeql_(functions?_(math|sum|max|min|round|int|bitwise|approximate|count|any|all|to_(int|float|bigint|decimal)|complex)|math)/,
    bucket: 'math',
  },
  { file: 'test_edgeql_functions.py', bucket: 'std other' },
  {
    file: 'test_edgeql_datatypes.py',
    methods: /duration|relativedelta|realativedelta/,
    bucket: 'duration',
  },
  { file: 'test_edgeql_datatypes.py', methods: /datetime|local/, bucket: 'datetime' },
  { file: 'test_edgeql_datatypes.py', methods: /decimal|bigint/, bucket: 'math' },
  { file: 'test_edgeql_datatypes.py', methods: /tuple/, bucket: 'tuples' },
  { file: 'test_edgeql_datatypes.py', bucket: 'std other' },
  // ---- issue 25
  { file: 'test_edgeql_policies.py', bucket: 'policies' },
  { file: 'test_edgeql_globals.py', bucket: 'globals' },
];

export function bucketOf(file: string, method: string): Bucket {
  for (const row of TABLE) {
    if (row.file === file && (!row.methods || row.methods.test(method))) return row.bucket;
  }
  return 'other';
}

/** The files of one issue's buckets (every issue's when absent). */
export function bucketFiles(issue?: Issue): readonly string[] {
  return [
    ...new Set(
      TABLE.filter(
        (r) => r.bucket !== 'other' && (!issue || goalOf(r.bucket, issue) !== undefined),
      ).map((r) => r.file),
    ),
  ];
}
