import { commonError } from '@svc/core';

/**
 * A parsed JSON request body that must be an object holding only `fields`: anything else is a 400
 * VALIDATION_ERROR, "request body must be a JSON object with `wanted`" or the unknown field's name.
 * The caller checks each field's value.
 */
export function jsonObjectBody(
  body: unknown,
  fields: ReadonlySet<string>,
  wanted: string,
): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw commonError('VALIDATION_ERROR', `request body must be a JSON object with ${wanted}`);
  }
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b)) {
    if (!fields.has(key))
      throw commonError('VALIDATION_ERROR', `unknown field "${key}" in the request body`);
  }
  return b;
}
