// Tests of lint-openapi.mjs's rules (node's test runner; run by `pnpm lint`): svc's committed
// documents (@svc/rest's fixture document and @svc/auth's, the goldens their tests keep equal to
// what the code generates) pass, and each planted fault fails. The served document itself is
// linted by the script, a step of .ci/run.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { lintOpenApi } from './lint-openapi.mjs';

const read = (file) => JSON.parse(fs.readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));
const REST = 'packages/rest/src/openapi/__golden__/document.json';
const AUTH = 'packages/auth/src/openapi/__golden__/auth-openapi.json';

/** A fresh copy of the REST document, changed by `plant`. */
const planted = (plant) => {
  const doc = read(REST);
  plant(doc);
  return doc;
};

/** The error findings of `doc`, as `ruleId: message`. */
async function errorsOf(doc) {
  const { errors, problems } = await lintOpenApi(doc, 'planted.json');
  const found = problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.ruleId}: ${p.message}`);
  assert.equal(found.length, errors);
  return found;
}

/** `doc` fails, and only by `rule` (each finding matching `message`). */
const expectOnly = async (doc, rule, message) => {
  const found = await errorsOf(doc);
  assert.ok(found.length > 0, `expected ${rule}, found no error`);
  for (const f of found) {
    assert.ok(f.startsWith(`${rule}: `), found.join('\n'));
    if (message) assert.match(f, message);
  }
};

test("svc's REST and auth documents: no errors, only the known warnings", async () => {
  const rest = await lintOpenApi(read(REST), REST);
  assert.equal(rest.errors, 0);
  assert.deepEqual(
    rest.problems.map((p) => p.ruleId),
    ['info-license'],
  );
  const auth = await lintOpenApi(read(AUTH), AUTH);
  assert.equal(auth.errors, 0);
  assert.deepEqual([...new Set(auth.problems.map((p) => p.ruleId))].sort(), [
    'info-license',
    'operation-2xx-response',
  ]);
});

test('an unresolved $ref fails, with its line', async () => {
  const doc = planted((d) => {
    d.paths['/api/Author/{id}'].get.responses['200'].content['application/json'].schema.$ref =
      '#/components/schemas/Nobody';
  });
  await expectOnly(doc, 'no-unresolved-refs');
  const { problems } = await lintOpenApi(doc, 'planted.json');
  const [error] = problems.filter((p) => p.severity === 'error');
  assert.equal(
    error.pointer,
    '#/paths/~1api~1Author~1{id}/get/responses/200/content/application~1json/schema',
  );
  const text = `${JSON.stringify(doc, null, 2)}\n`.split('\n');
  assert.match(text[error.line - 1], /^ +"schema": \{$/);
  assert.match(text[error.line], /"\$ref": "#\/components\/schemas\/Nobody"/);
  // Given the text of a file, the places are in that text.
  const compact = JSON.stringify(doc);
  const inText = (await lintOpenApi(compact, 'compact.json')).problems.find(
    (p) => p.severity === 'error',
  );
  assert.equal(inText.line, 1);
  assert.match(compact.slice(inText.col - 1), /^\{"\$ref":"#\/components\/schemas\/Nobody"/);
});

test('a duplicate operationId fails', async () => {
  await expectOnly(
    planted((d) => {
      d.paths['/api/Author/{id}'].get.operationId = 'Author.list';
    }),
    'operation-operationId-unique',
  );
});

test('a path parameter that is not declared fails, and one declared for no template', async () => {
  await expectOnly(
    planted((d) => {
      d.paths['/api/Author/{id}'].parameters = [];
    }),
    'path-parameters-defined',
    /id/,
  );
  await expectOnly(
    planted((d) => {
      d.paths['/api/Author/{key}'] = d.paths['/api/Author/{id}'];
      delete d.paths['/api/Author/{id}'];
      for (const op of ['get', 'patch', 'delete', 'put']) {
        const o = d.paths['/api/Author/{key}'][op];
        if (o) o.operationId = `${o.operationId}2`;
      }
    }),
    'path-parameters-defined',
  );
});

test('structure: a field the specification does not have, a wrong type', async () => {
  await expectOnly(
    planted((d) => {
      d.paths['/api/Author/{id}'].get.respones = {};
    }),
    'struct',
    /respones/,
  );
  await expectOnly(
    planted((d) => {
      d.info.version = 1;
    }),
    'struct',
  );
});

test("the Redocly CLI's severities where they were above openapi-core's", async () => {
  await expectOnly(
    planted((d) => {
      d.components.schemas.Author.properties.list = { type: 'array', properties: {} };
    }),
    'no-schema-type-mismatch',
  );
  const { errors, problems } = await lintOpenApi(
    planted((d) => {
      d.components.schemas.Author.required.push('nothing');
    }),
  );
  assert.equal(errors, 0);
  assert.ok(problems.some((p) => p.ruleId === 'no-required-schema-properties-undefined'));
});

test('a reference outside the document is a finding, never loaded', async (t) => {
  const calls = [];
  t.mock.method(globalThis, 'fetch', async (url) => {
    calls.push(String(url));
    throw new Error('no network in this test');
  });
  for (const ref of ['https://example.invalid/schemas.json#/Author', './schemas.json#/Author']) {
    await expectOnly(
      planted((d) => {
        d.paths['/api/Author/{id}'].get.responses['200'].content['application/json'].schema.$ref =
          ref;
      }),
      'no-unresolved-refs',
      /outside the document/,
    );
  }
  assert.deepEqual(calls, []);
});

test("svc's rules for what the Redocly CLI checked and openapi-core does not", async () => {
  const schema = (d) => d.components.schemas.Author;
  const property = (d) => Object.values(schema(d).properties).find((p) => p.type === 'string');
  await expectOnly(
    planted((d) => {
      property(d).enum = ['a', 'b', 'a'];
    }),
    'svc/no-duplicated-enum-values',
    /"a"/,
  );
  await expectOnly(
    planted((d) => {
      d.tags.push({ ...d.tags[0] });
    }),
    'svc/no-duplicated-tag-names',
    /Author/,
  );
  await expectOnly(
    planted((d) => {
      schema(d).properties.n = { type: 'integer', minimum: 0, exclusiveMinimum: 0 };
    }),
    'svc/no-mixed-number-range-constraints',
  );
  await expectOnly(
    planted((d) => {
      d.components.securitySchemes.oauth = {
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl: '/token', scopes: { read: 'Read' } } },
      };
      d.paths['/api/Author/{id}'].get.security = [{ oauth: ['read', 'write'] }];
    }),
    'svc/security-scopes-defined',
    /'write'/,
  );
  await expectOnly(
    planted((d) => {
      d.paths['/api/Author/{id}'].get.responses['400'].headers = {};
    }),
    'svc/spec-ref-siblings',
    /headers/,
  );
  // A Schema Object's $ref may have siblings, and a Reference Object its summary and description.
  assert.deepEqual(
    await errorsOf(
      planted((d) => {
        schema(d).properties.self = { $ref: '#/components/schemas/Author', description: 'x' };
        d.paths['/api/Author/{id}'].get.responses['400'].description = 'Refused.';
      }),
    ),
    [],
  );
});
