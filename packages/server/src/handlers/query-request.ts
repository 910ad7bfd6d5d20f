import { commonError } from '@svc/core';
import { jsonObjectBody } from './json-body';

export type Cardinality = 'many' | 'atMostOne' | 'one';

/** A validated `POST /query` body (docs/http.md, "POST /query"). */
export interface QueryRequest {
  readonly query: string;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly globals: Readonly<Record<string, unknown>>;
  readonly cardinality: Cardinality;
}

const CARDINALITIES: readonly Cardinality[] = ['many', 'atMostOne', 'one'];
const KEYS = new Set(['query', 'variables', 'globals', 'cardinality']);

/** Checks the shape of a `/query` body; every problem is a 400 VALIDATION_ERROR naming the field. */
export function parseQueryRequest(body: unknown): QueryRequest {
  const b = jsonObjectBody(body, KEYS, 'a "query" string');
  if (typeof b.query !== 'string' || b.query.trim() === '') {
    throw commonError('VALIDATION_ERROR', '"query" must be a non-empty string');
  }
  const variables = optionalObject(b.variables, 'variables');
  const globals = optionalObject(b.globals, 'globals');
  const cardinality = b.cardinality ?? 'many';
  if (!CARDINALITIES.includes(cardinality as Cardinality)) {
    throw commonError(
      'VALIDATION_ERROR',
      `"cardinality" must be one of ${CARDINALITIES.join(', ')}`,
    );
  }
  return { query: b.query, variables, globals, cardinality: cardinality as Cardinality };
}

function optionalObject(value: unknown, name: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw commonError('VALIDATION_ERROR', `"${name}" must be a JSON object`);
  }
  return value as Record<string, unknown>;
}
