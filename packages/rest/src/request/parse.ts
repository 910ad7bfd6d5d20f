import { commonError, jsonDepthProblem } from '@svc/core';
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  type ApiRequest,
  type Filter,
  type OrderTerm,
  type Page,
} from './api-request';

export interface HttpRequestParts {
  readonly method: string;
  /** The path below `/api`, e.g. `/User/0190...`; percent-encoded as received. */
  readonly path: string;
  /** The raw query string without `?`. */
  readonly query: string;
  /** The parsed JSON body, when the method takes one. */
  readonly body?: unknown;
}

/**
 * Query parameters that are never filters: paging and ordering, and `token`, which carries an
 * access token (`?token=`, docs/http.md) and so cannot name a property filter.
 */
const RESERVED = new Set(['limit', 'offset', 'order_by', 'token']);
const OPERATORS: Readonly<Record<string, Filter['operator']>> = { in: 'in', contains: 'contains' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID's text (ids in paths, filters and bodies). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A type's route segment: `User`, or `module::Name` outside the default module. */
const TYPE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * Stage 1 of REST: HTTP request → ApiRequest. Pure, and schema-free: it checks the form of
 * the path, the parameters and the body; the plan stage checks the names against the schema.
 * Every problem is a 400 naming the parameter, a 404 for a path of no REST shape, or a 405.
 */
export function parseRequest(http: HttpRequestParts): ApiRequest {
  const segments = http.path.split('/').slice(1).map(decodeSegment);
  if (segments.length === 1 && segments[0] === 'openapi.json') {
    allow(http.method, ['GET']);
    noParameters(http.query);
    return { kind: 'openapi' };
  }
  if (segments.length === 0 || segments.length > 3 || segments.some((s) => s === '')) {
    throw commonError('NOT_FOUND', `no REST route ${http.method} /api${http.path}`);
  }
  const [type, id, link] = segments as [string, string | undefined, string | undefined];
  if (!TYPE_NAME.test(type))
    throw commonError('VALIDATION_ERROR', `"${type}" is not a valid type name`);

  if (id === undefined) {
    allow(http.method, ['GET', 'POST']);
    if (http.method === 'POST') {
      noParameters(http.query);
      return { kind: 'insert', type, body: objectBody(http.body, false) };
    }
    const params = parseQuery(http.query);
    return {
      kind: 'list',
      type,
      filters: parseFilters(params),
      order: parseOrder(params),
      page: parsePage(params),
    };
  }

  checkUuid(id);
  if (link !== undefined) {
    checkName(link, 'link name');
    allow(http.method, ['GET']);
    const params = parseQuery(http.query);
    for (const key of params.keys()) {
      if (key !== 'limit' && key !== 'offset' && key !== 'token') {
        throw commonError(
          'VALIDATION_ERROR',
          `"${key}": a linked collection takes only limit and offset`,
        );
      }
    }
    return { kind: 'linked', type, id, link, page: parsePage(params) };
  }

  allow(http.method, ['GET', 'PATCH', 'DELETE']);
  noParameters(http.query);
  if (http.method === 'GET' || http.method === 'HEAD') return { kind: 'get', type, id };
  if (http.method === 'DELETE') return { kind: 'delete', type, id };
  return { kind: 'update', type, id, body: objectBody(http.body, true) };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw commonError(
      'VALIDATION_ERROR',
      `malformed percent-encoding in the path segment "${segment}"`,
    );
  }
}

function allow(method: string, allowed: readonly string[]): void {
  const effective = method === 'HEAD' ? 'GET' : method;
  if (!allowed.includes(effective)) {
    const list = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
    throw commonError('METHOD_NOT_ALLOWED', `${method} is not allowed here`, {
      headers: { Allow: list },
    });
  }
}

function checkName(name: string, what: string): void {
  if (!NAME.test(name)) throw commonError('VALIDATION_ERROR', `"${name}" is not a valid ${what}`);
}

function checkUuid(id: string): void {
  if (!isUuid(id)) throw commonError('VALIDATION_ERROR', `"${id}" is not a valid UUID`);
}

/** Parameters by name; a name given twice is ambiguous and refused. */
function parseQuery(query: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(query)) {
    if (params.has(key)) throw commonError('VALIDATION_ERROR', `"${key}" is given more than once`);
    params.set(key, value);
  }
  return params;
}

function noParameters(query: string): void {
  for (const key of parseQuery(query).keys()) {
    if (key !== 'token')
      throw commonError('VALIDATION_ERROR', `"${key}": this route takes no query parameters`);
  }
}

function parseFilters(params: ReadonlyMap<string, string>): Filter[] {
  const filters: Filter[] = [];
  for (const [key, value] of params) {
    if (RESERVED.has(key)) continue;
    const split = key.lastIndexOf('__');
    const property = split > 0 ? key.slice(0, split) : key;
    const suffix = split > 0 ? key.slice(split + 2) : undefined;
    if (!NAME.test(property) || property.includes('__')) {
      throw commonError(
        'VALIDATION_ERROR',
        `"${key}" is not a filter: filters through links are not supported`,
      );
    }
    if (suffix === undefined) {
      filters.push({ property, operator: 'eq', values: [value] });
      continue;
    }
    const operator = OPERATORS[suffix];
    if (!operator) {
      throw commonError(
        'VALIDATION_ERROR',
        `"${key}": unsupported filter operator "__${suffix}" (use =, __in or __contains)`,
      );
    }
    filters.push({ property, operator, values: operator === 'in' ? value.split(',') : [value] });
  }
  return filters;
}

function parseOrder(params: ReadonlyMap<string, string>): OrderTerm[] {
  const text = params.get('order_by');
  if (text === undefined) return [];
  return text.split(',').map((term) => {
    const direction = term.startsWith('-') ? 'desc' : 'asc';
    const property = direction === 'desc' ? term.slice(1) : term;
    if (!NAME.test(property)) {
      throw commonError(
        'VALIDATION_ERROR',
        `"order_by": "${term}" is not a property name (use prop or -prop)`,
      );
    }
    return { property, direction };
  });
}

function parsePage(params: ReadonlyMap<string, string>): Page {
  const limit = integer(params, 'limit', DEFAULT_LIMIT);
  if (limit > MAX_LIMIT)
    throw commonError('VALIDATION_ERROR', `"limit" must be at most ${MAX_LIMIT}, got ${limit}`);
  return { limit, offset: integer(params, 'offset', 0) };
}

function integer(params: ReadonlyMap<string, string>, name: string, fallback: number): number {
  const text = params.get(name);
  if (text === undefined) return fallback;
  if (!/^\d{1,9}$/.test(text)) {
    throw commonError(
      'VALIDATION_ERROR',
      `"${name}" must be a non-negative integer, got "${text}"`,
    );
  }
  return Number(text);
}

/**
 * A write body: a JSON object whose fields' values nest at most `MAX_JSON_DEPTH` levels (core's
 * one bound on a caller's JSON; deeper is a 400 naming the field, before any walk of it).
 */
function objectBody(body: unknown, isPatch: boolean): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw commonError('VALIDATION_ERROR', 'the request body must be a JSON object');
  }
  const fields = Object.entries(body);
  if (isPatch && fields.length === 0) {
    throw commonError('VALIDATION_ERROR', 'a PATCH body must name at least one field');
  }
  for (const [key, value] of fields) {
    const tooDeep = jsonDepthProblem(value);
    if (tooDeep !== undefined) throw commonError('VALIDATION_ERROR', `"${key}": ${tooDeep}`);
  }
  return body as Record<string, unknown>;
}
