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
];

/** The row that excuses a failed test, if any. */
export function byDesign(test: string, failure: string): ByDesign | undefined {
  return BY_DESIGN.find((row) => row.tests.test(test) && row.failure.test(failure));
}
