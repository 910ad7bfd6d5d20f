import { commonError, type QueryRequest, type RequestedCardinality } from '@svc/core';
import { jsonObjectBody } from './json-body';

/**
 * A validated `POST /query` body (docs/http.md, "POST /query"): core's QueryRequest with every field the body
 * may carry filled in (`singleLinks` is not one of them).
 */
export type QueryBody = Required<
  Pick<QueryRequest, 'query' | 'variables' | 'globals' | 'cardinality' | 'describe'>
> & {
  /** `"primary"`: run on the primary even when it only reads (docs/http.md, "Read replicas"). */
  readonly read?: 'primary';
};

const CARDINALITIES: readonly RequestedCardinality[] = ['many', 'atMostOne', 'one'];
const KEYS = new Set(['query', 'variables', 'globals', 'cardinality', 'describe', 'read']);

/** Checks the shape of a `/query` body; every problem is a 400 VALIDATION_ERROR naming the field. */
export function parseQueryRequest(body: unknown): QueryBody {
  const b = jsonObjectBody(body, KEYS, 'a "query" string');
  if (typeof b.query !== 'string' || b.query.trim() === '') {
    throw commonError('VALIDATION_ERROR', '"query" must be a non-empty string');
  }
  const variables = optionalObject(b.variables, 'variables');
  const globals = optionalObject(b.globals, 'globals');
  const cardinality = b.cardinality ?? 'many';
  if (!CARDINALITIES.includes(cardinality as RequestedCardinality)) {
    throw commonError(
      'VALIDATION_ERROR',
      `"cardinality" must be one of ${CARDINALITIES.join(', ')}`,
    );
  }
  const describe = b.describe ?? false;
  if (typeof describe !== 'boolean') {
    throw commonError('VALIDATION_ERROR', '"describe" must be true or false');
  }
  if (b.read !== undefined && b.read !== 'primary') {
    throw commonError('VALIDATION_ERROR', '"read" must be "primary" when given');
  }
  // `read` always present (undefined unless "primary"): a literal starting with a spread gets a
  // hidden class of its own per request (ARCHITECTURE, "A request's objects die young").
  return {
    read: b.read === 'primary' ? 'primary' : undefined,
    query: b.query,
    variables,
    globals,
    cardinality: cardinality as RequestedCardinality,
    describe,
  };
}

function optionalObject(value: unknown, name: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw commonError('VALIDATION_ERROR', `"${name}" must be a JSON object`);
  }
  return value as Record<string, unknown>;
}
