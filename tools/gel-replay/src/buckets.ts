/**
 * gel-replay/buckets: the one table mapping Gel's test files (and, where a file mixes topics, test
 * method names) to the buckets issue 10 is measured by. First matching row wins; a file without
 * a row is `other` (std, casts, DDL, policies, ...: later issues), reported but not in the goal.
 */

export const BUCKETS = [
  'select and shapes',
  'links',
  'insert',
  'update',
  'delete',
  'for',
  'with',
  'group',
  'sets',
] as const;
export type Bucket = (typeof BUCKETS)[number] | 'other';

interface Row {
  readonly file: string;
  /** Test method names this row takes (all when absent). */
  readonly methods?: RegExp;
  readonly bucket: Bucket;
}

const TABLE: readonly Row[] = [
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
  { file: 'test_edgeql_coalesce.py', bucket: 'select and shapes' },
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
];

export function bucketOf(file: string, method: string): Bucket {
  for (const row of TABLE) {
    if (row.file === file && (!row.methods || row.methods.test(method))) return row.bucket;
  }
  return 'other';
}

/** The files the default run replays: every file with a row above. */
export const BUCKET_FILES: readonly string[] = [...new Set(TABLE.map((r) => r.file))];
