/**
 * query/cardinality: the one rule for a requested cardinality, checked before anything runs.
 *
 * `atMostOne` and `one` refuse a query whose result may hold several elements (inferred `many`
 * or `atLeastOne`) with ResultCardinalityMismatchError (400, see docs/http.md). The compiler
 * applies it while compiling; the engine applies it again to what any `CompileQuery` returned,
 * so a compiler that ignores the option cannot let such a query run. `one` on an empty result is
 * the engine's NoDataError, after running.
 */
import { ResultCardinalityMismatchError } from '../errors';
import type { InferredCardinality, RequestedCardinality } from './api';

/** Throws when `requested` asks for at most one element and `inferred` may hold more. */
export function refuseCardinality(
  inferred: InferredCardinality,
  requested: RequestedCardinality,
): void {
  if (requested === 'many') return;
  if (inferred !== 'many' && inferred !== 'atLeastOne') return;
  throw new ResultCardinalityMismatchError(
    `the query may return more than one element, but cardinality '${requested}' was requested`,
    {
      hint: 'add `limit 1`, filter on .id or an exclusive property, or use assert_single(...)',
    },
  );
}
