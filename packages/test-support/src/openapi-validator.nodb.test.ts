import { openApiValidator } from './openapi-validator';

const ERROR = {
  type: 'object',
  properties: { code: { type: 'string' }, error: { type: 'string' } },
  required: ['code', 'error'],
  additionalProperties: false,
};
const document = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/api/openapi.json': {
      get: {
        responses: {
          '200': {
            description: 'doc',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    '/api/blog::Note/{id}': {
      get: {
        responses: {
          '200': {
            description: 'one',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } },
          },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
      delete: { responses: { '204': { description: 'gone' } } },
    },
  },
  components: {
    schemas: {
      Error: ERROR,
      Note: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          at: { type: ['string', 'null'], format: 'date-time' },
        },
        required: ['id', 'at'],
        additionalProperties: false,
      },
    },
    responses: {
      NotFound: {
        description: 'missing',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  },
};
const ID = '0190c6e4-5b8a-7c3e-9d2f-1a2b3c4d5e6f';
const JSON_TYPE = 'application/json; charset=utf-8';
const v = openApiValidator(document);

test('good answers pass: templated and literal paths, $ref responses, no-body responses, text bodies', () => {
  v.check({
    method: 'GET',
    path: `/api/blog::Note/${ID}?x=1`,
    status: 200,
    contentType: JSON_TYPE,
    body: { id: ID, at: null },
  });
  v.check({
    method: 'GET',
    path: `/api/blog%3A%3ANote/${ID}`,
    status: 200,
    contentType: JSON_TYPE,
    body: `{"id":"${ID}","at":"2024-05-01T12:00:00+00:00"}`,
  });
  v.check({
    method: 'GET',
    path: `/api/blog::Note/${ID}`,
    status: 404,
    contentType: JSON_TYPE,
    body: { code: 'NOT_FOUND', error: 'NOT_FOUND: no' },
  });
  v.check({
    method: 'DELETE',
    path: `/api/blog::Note/${ID}`,
    status: 204,
    contentType: null,
    body: null,
  });
  v.check({
    method: 'GET',
    path: '/api/openapi.json',
    status: 200,
    contentType: JSON_TYPE,
    body: { openapi: '3.1.0' },
  });
  v.check({
    method: 'HEAD',
    path: `/api/blog::Note/${ID}`,
    status: 200,
    contentType: JSON_TYPE,
    body: null,
  });
});

test('undocumented requests refused in the envelope pass: unknown path 404, unknown method 405', () => {
  const refusal = (code: string) => ({ code, error: `${code}: no` });
  v.check({
    method: 'GET',
    path: '/api/Other',
    status: 404,
    contentType: JSON_TYPE,
    body: refusal('NOT_FOUND'),
  });
  v.check({
    method: 'PUT',
    path: `/api/blog::Note/${ID}`,
    status: 405,
    contentType: JSON_TYPE,
    body: JSON.stringify(refusal('METHOD_NOT_ALLOWED')),
  });
});

test.each([
  [
    'an extra field',
    { method: 'GET', status: 200, body: { id: ID, at: null, more: 1 } },
    /additionalProperty: "more"/,
  ],
  ['a missing field', { method: 'GET', status: 200, body: { id: ID } }, /missingProperty: "at"/],
  [
    'a bad format',
    { method: 'GET', status: 200, body: { id: 'nope', at: null } },
    /\/id must match format "uuid"/,
  ],
  [
    'a wrong type',
    { method: 'GET', status: 200, body: { id: ID, at: 5 } },
    /\/at must be string,null/,
  ],
  [
    'an undocumented status',
    { method: 'GET', status: 500, body: { code: 'X', error: 'X: y' } },
    /status 500 is not documented .*200, 404/,
  ],
  [
    'an undocumented method answered',
    { method: 'PATCH', status: 200, body: {} },
    /documents no PATCH, so only 405/,
  ],
  [
    'an undocumented method refused outside the envelope',
    { method: 'PATCH', status: 405, body: { no: 1 } },
    /not in the Error envelope/,
  ],
  [
    'a HEAD with a body',
    { method: 'HEAD', status: 200, body: { id: ID, at: null } },
    /has no body/,
  ],
  [
    'an error outside the envelope',
    { method: 'GET', status: 404, body: { message: 'no' } },
    /missingProperty: "code"/,
  ],
  [
    'a body where none is documented',
    { method: 'DELETE', status: 204, body: { x: 1 } },
    /has no body/,
  ],
] as const)('%s fails, readably', (_what, answer, message) => {
  expect(() =>
    v.check({ path: `/api/blog::Note/${ID}`, contentType: JSON_TYPE, ...answer }),
  ).toThrow(message);
});

test('an unknown path answered, and an undocumented content type, fail', () => {
  expect(() =>
    v.check({ method: 'GET', path: '/api/Other', status: 200, contentType: JSON_TYPE, body: [] }),
  ).toThrow(/GET \/api\/Other → 200: no path of the document matches, so only 400 or 404/);
  expect(() =>
    v.check({
      method: 'GET',
      path: `/api/blog::Note/${ID}`,
      status: 200,
      contentType: 'text/html',
      body: '<p>',
    }),
  ).toThrow(/content type "text\/html" is not documented/);
});
