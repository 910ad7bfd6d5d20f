/**
 * gel-replay/by-design: the failures that are svc's deliberate differences from Gel, each with
 * the spec item (or the protocol fact) it follows. The replay counts every test as Gel does, so
 * these stay failures in every figure; the report lists them apart and prints, beside each goal,
 * the share with them set aside, so a reader sees how much of a gap is design and how much is work.
 *
 * A row excuses a failed test only when both its name matches and its failure says the reason
 * (`failure` is matched against the outcome's class and detail): a test that starts failing for
 * another reason is counted as an ordinary failure, and a listed test that passes is reported
 * as a stale row.
 */

export interface ByDesign {
  /** Test method names (`Class.method` or `method`), or a pattern. */
  readonly tests: RegExp;
  /** What the failure must say (class and detail) for the row to apply. */
  readonly failure: RegExp;
  /** The spec item (`spec 1`) or protocol fact the difference follows. */
  readonly source: string;
  readonly why: string;
}

export const BY_DESIGN: readonly ByDesign[] = [
  {
    tests: /./,
    failure: /default of '\w+' (reads|writes)/,
    source: 'spec 1',
    why: 'a default that reads an object type or the object, or writes, is a schema error (compute it in the insert)',
  },
  {
    tests: /TestInsert\.test_edgeql_insert_(simple_03|for_03|default_0[2-5]|dunder_default_01)$/,
    failure: /MissingRequiredError/,
    source: 'spec 1',
    why: 'the test relies on a default that reads an object type, stripped from the schema (spec 1): the property is then required without a default',
  },
  {
    tests: /TestInsert\.test_edgeql_insert_returning_0[678]$/,
    failure: /\.other: expected an object, got null/,
    source: 'spec 1',
    why: 'the test relies on a default that reads an object type, stripped from the schema (spec 1): the link is then empty',
  },
  {
    tests: /\.test_edgeql_(insert|update)_dunder_default_0[24]$/,
    failure: /__default__ cannot be used in this expression/,
    source: 'spec 1',
    why: '`__default__` of a pointer whose default reads or writes objects, stripped from the schema (spec 1)',
  },
  {
    tests: /TestInsert\.test_edgeql_insert_default_06$/,
    failure: /wrong result/,
    source: 'spec 16',
    why: 'a bare insert answers the whole stored row, where Gel answers the id',
  },
  {
    tests: /TestEdgeQLJSON\.test_edgeql_json_(accessor_02|cast_object_to_json_05)$/,
    failure: /wrong result/,
    source: 'spec 7',
    why: 'a JSON object key holding JSON null reads as empty, where Gel gives the JSON null',
  },
  {
    tests: /TestExpressions\.test_edgeql_expr_emptyset_01$/,
    failure: /expected QueryError, got \[\]/,
    source: 'spec 22',
    why: "a statement whose value is empty answers [], `select {}` too, where Gel refuses the untyped empty set's indeterminate type",
  },
  {
    tests: /./,
    failure: /SQL function bodies are not supported/,
    source: 'spec 6',
    why: 'SDL functions run by inlining their EdgeQL body; `using sql` bodies are refused (docs/gel-differences.md)',
  },
  {
    tests: /TestInsert\.test_edgeql_insert_unless_conflict_(16b|20a)$/,
    failure: /expected UnsupportedFeatureError, got \[/,
    source: 'docs',
    why: "unless conflict goes further than Gel: else on a parent type's constraint, a volatile value for a plain exclusive pointer (docs/gel-differences.md)",
  },
  {
    tests: /TestExpressions\.test_edgeql_expr_with_module_02$/,
    failure: /expected InvalidReferenceError, got no error/,
    source: 'docs',
    why: 'svc keeps `std::abs` (unqualified abs) for schemas of earlier releases; Gel has only math::abs (docs/gel-differences.md)',
  },
  {
    tests: /TestExpressions\.test_edgeql_expr_with_module_0[5-8]$/,
    failure: /expected InvalidReferenceError, got no error|module name 'std::test' is reserved/,
    source: 'Gel test mode',
    why: "the test needs a module under std (std::_test, std::test), which only Gel's test server allows; std is read-only in Gel's production server and in svc",
  },
  {
    tests: /TestEdgeQLScope\.test_edgeql_scope_computables_11c$/,
    failure: /key id is missing/,
    source: 'protocol',
    why: "the binary protocol adds an implicit id to objects inside tuples; svc's JSON shows the shape as written",
  },
  {
    tests: /TestRepeatableReadInsert\./,
    failure: /expected CapabilityError/,
    source: 'protocol',
    why: "svc runs each request at PostgreSQL's default isolation; there are no client transactions to set REPEATABLE READ on",
  },
  {
    tests: /./,
    failure: /NotImplementedError: __type(names|ids)__/,
    source: 'protocol',
    why: "svc answers JSON over HTTP: the binary protocol's per-object type names and ids (__tname__, __tid__) do not exist",
  },
  {
    tests: /./,
    failure: /no attribute 'with_transaction_options'/,
    source: 'protocol',
    why: 'svc has no client-side transactions over HTTP (a request is one transaction); read-only transactions are the server option readOnly',
  },
  {
    tests: /./,
    failure: /edb\.ir\.statypes|module 'cfg' does not exist/,
    source: 'protocol',
    why: "Gel's server configuration types (cfg::memory, the server's own value classes) are not part of svc",
  },
  {
    tests: /TestEdgeQLGlobals\.test_edgeql_globals_13$/,
    failure: /configure current database/,
    source: 'protocol',
    why: "`configure current database` (Gel's per-database configuration) is not part of svc: settings are the server's (docs/gel-differences.md)",
  },
  {
    tests: /TestEdgeQLGlobals\.test_edgeql_globals_state_cardinality$/,
    failure: /has no attribute '_protocol'/,
    source: 'protocol',
    why: "the test sends the binary protocol's session state object itself; over HTTP globals travel in each request's `globals`",
  },
];

/** The row that excuses a failed test, if any. */
export function byDesign(test: string, failure: string): ByDesign | undefined {
  return BY_DESIGN.find((row) => row.tests.test(test) && row.failure.test(failure));
}
