import { MAX_JSON_DEPTH, SvcError } from '@svc/core';
import { parseRequest, type HttpRequestParts } from './parse';

const ID = '0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b';
const req = (method: string, path: string, query = '', body?: unknown): HttpRequestParts => ({
  method,
  path,
  query,
  body,
});
const failure = (parts: HttpRequestParts) => {
  try {
    parseRequest(parts);
  } catch (err) {
    if (err instanceof SvcError) return `${err.status} ${err.code}: ${err.message}`;
    throw err;
  }
  return 'no error';
};

describe('parseRequest: routes', () => {
  test.each([
    [req('GET', '/openapi.json'), { kind: 'openapi' }],
    [
      req('GET', '/User'),
      { kind: 'list', type: 'User', filters: [], order: [], page: { limit: 100, offset: 0 } },
    ],
    [
      req('HEAD', '/User'),
      { kind: 'list', type: 'User', filters: [], order: [], page: { limit: 100, offset: 0 } },
    ],
    [
      req('POST', '/User', '', { name: 'a' }),
      { kind: 'insert', type: 'User', body: { name: 'a' } },
    ],
    [req('GET', `/User/${ID}`), { kind: 'get', type: 'User', id: ID }],
    [req('HEAD', `/User/${ID}`), { kind: 'get', type: 'User', id: ID }],
    [
      req('PATCH', `/User/${ID}`, '', { name: 'b' }),
      { kind: 'update', type: 'User', id: ID, body: { name: 'b' } },
    ],
    [req('DELETE', `/User/${ID}`), { kind: 'delete', type: 'User', id: ID }],
    [req('GET', `/blog::Post/${ID}`), { kind: 'get', type: 'blog::Post', id: ID }],
    [
      req('GET', '/blog%3A%3APost'),
      { kind: 'list', type: 'blog::Post', filters: [], order: [], page: { limit: 100, offset: 0 } },
    ],
    [
      req('GET', `/User/${ID}/friends`, 'limit=5&offset=10'),
      { kind: 'linked', type: 'User', id: ID, link: 'friends', page: { limit: 5, offset: 10 } },
    ],
  ])('%j', (parts, want) => expect(parseRequest(parts)).toEqual(want));

  test.each([
    [req('PUT', '/User'), '405 METHOD_NOT_ALLOWED: PUT is not allowed here'],
    [req('POST', `/User/${ID}`), '405 METHOD_NOT_ALLOWED: POST is not allowed here'],
    [req('DELETE', `/User/${ID}/friends`), '405 METHOD_NOT_ALLOWED: DELETE is not allowed here'],
    [req('POST', '/openapi.json'), '405 METHOD_NOT_ALLOWED: POST is not allowed here'],
    [req('GET', '/'), '404 NOT_FOUND: no REST route GET /api/'],
    [
      req('GET', `/User/${ID}/friends/more`),
      `404 NOT_FOUND: no REST route GET /api/User/${ID}/friends/more`,
    ],
    [req('GET', '/User/not-a-uuid'), '400 VALIDATION_ERROR: "not-a-uuid" is not a valid UUID'],
    [
      req('GET', '/Us%er'),
      '400 VALIDATION_ERROR: malformed percent-encoding in the path segment "Us%er"',
    ],
    [req('GET', '/User-Type'), '400 VALIDATION_ERROR: "User-Type" is not a valid type name'],
    [req('GET', '/blog::'), '400 VALIDATION_ERROR: "blog::" is not a valid type name'],
    [req('GET', '/blog:Post'), '400 VALIDATION_ERROR: "blog:Post" is not a valid type name'],
  ])('%j is refused: %s', (parts, message) => expect(failure(parts)).toBe(message));

  test('405 lists what is allowed', () => {
    try {
      parseRequest(req('PUT', `/User/${ID}`));
    } catch (err) {
      expect((err as SvcError).headers).toEqual({ Allow: 'GET, PATCH, DELETE, HEAD' });
    }
    expect.assertions(1);
  });
});

describe('parseRequest: list parameters', () => {
  test('filters: equality, __in, __contains, combined', () => {
    const r = parseRequest(
      req('GET', '/Post', 'status=draft&tag__in=a,b,c&title__contains=Hello%20World'),
    );
    expect(r).toMatchObject({
      filters: [
        { property: 'status', operator: 'eq', values: ['draft'] },
        { property: 'tag', operator: 'in', values: ['a', 'b', 'c'] },
        { property: 'title', operator: 'contains', values: ['Hello World'] },
      ],
    });
  });

  test('order_by: ascending, descending, several', () => {
    expect(parseRequest(req('GET', '/Post', 'order_by=-created_at,title'))).toMatchObject({
      order: [
        { property: 'created_at', direction: 'desc' },
        { property: 'title', direction: 'asc' },
      ],
    });
  });

  test('pagination: default 100, at most 1000', () => {
    expect(parseRequest(req('GET', '/Post', 'limit=1000&offset=5'))).toMatchObject({
      page: { limit: 1000, offset: 5 },
    });
    expect(failure(req('GET', '/Post', 'limit=1001'))).toBe(
      '400 VALIDATION_ERROR: "limit" must be at most 1000, got 1001',
    );
  });

  test('the auth token parameter is not a filter', () => {
    expect(parseRequest(req('GET', '/Post', 'token=abc'))).toMatchObject({ filters: [] });
    expect(parseRequest(req('GET', `/Post/${ID}`, 'token=abc'))).toEqual({
      kind: 'get',
      type: 'Post',
      id: ID,
    });
  });

  test.each([
    ['limit=-1', '"limit" must be a non-negative integer, got "-1"'],
    ['limit=ten', '"limit" must be a non-negative integer, got "ten"'],
    ['offset=1.5', '"offset" must be a non-negative integer, got "1.5"'],
    ['limit=1&limit=2', '"limit" is given more than once'],
    [
      'title__startswith=a',
      '"title__startswith": unsupported filter operator "__startswith" (use =, __in or __contains)',
    ],
    [
      'author__name=ada',
      '"author__name": unsupported filter operator "__name" (use =, __in or __contains)',
    ],
    [
      'author__name__in=a',
      '"author__name__in" is not a filter: filters through links are not supported',
    ],
    ['order_by=', '"order_by": "" is not a property name (use prop or -prop)'],
    ['order_by=-', '"order_by": "-" is not a property name (use prop or -prop)'],
  ])('?%s is 400: %s', (query, message) => {
    expect(failure(req('GET', '/Post', query))).toBe(`400 VALIDATION_ERROR: ${message}`);
  });

  test('a linked collection takes offset and limit only (no order_by)', () => {
    expect(failure(req('GET', `/User/${ID}/posts`, 'order_by=title'))).toBe(
      '400 VALIDATION_ERROR: "order_by": a linked collection takes only limit and offset',
    );
  });

  test('routes for one object take no query parameters', () => {
    expect(failure(req('GET', `/User/${ID}`, 'name=x'))).toBe(
      '400 VALIDATION_ERROR: "name": this route takes no query parameters',
    );
  });
});

describe('parseRequest: bodies', () => {
  test.each([
    [req('POST', '/User', '', [1]), 'the request body must be a JSON object'],
    [req('POST', '/User', '', 'x'), 'the request body must be a JSON object'],
    [req('POST', '/User'), 'the request body must be a JSON object'],
    [req('PATCH', `/User/${ID}`, '', {}), 'a PATCH body must name at least one field'],
  ])('%j is 400: %s', (parts, message) =>
    expect(failure(parts)).toBe(`400 VALIDATION_ERROR: ${message}`),
  );

  // Issue 26, 7: a field nested 5,000 levels deep overflowed the encoder (500); it is refused here,
  // by name, before anything walks it.
  test('a field nested deeper than MAX_JSON_DEPTH is 400 naming it; at the limit it passes', () => {
    const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    const tooDeep = `nested deeper than ${MAX_JSON_DEPTH} levels`;
    expect(failure(req('POST', '/Doc', '', { title: 'a', data: nested(5000) }))).toBe(
      `400 VALIDATION_ERROR: "data": ${tooDeep}`,
    );
    expect(failure(req('PATCH', `/Doc/${ID}`, '', { data: { a: nested(MAX_JSON_DEPTH) } }))).toBe(
      `400 VALIDATION_ERROR: "data": ${tooDeep}`,
    );
    const atLimit = { data: nested(MAX_JSON_DEPTH) };
    expect(parseRequest(req('PATCH', `/Doc/${ID}`, '', atLimit))).toEqual({
      kind: 'update',
      type: 'Doc',
      id: ID,
      body: atLimit,
    });
  });

  test('an empty POST body object is allowed here (required fields are the plan stage’s business)', () => {
    expect(parseRequest(req('POST', '/User', '', {}))).toEqual({
      kind: 'insert',
      type: 'User',
      body: {},
    });
  });
});
