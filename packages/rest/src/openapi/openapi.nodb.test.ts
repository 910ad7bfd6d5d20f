/**
 * The OpenAPI document of a fixture schema with every feature (`__fixtures__/schema.esdl`), in
 * one golden file (`__golden__/document.json`; `UPDATE_GOLDEN=1` rewrites it, otherwise it must
 * match exactly), and the rules that make it agree with the server: parameters the parser reads
 * back as the filters they name, bodies of exactly the writable fields, shapes of exactly the
 * default shape.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema } from '@svc/core';
import { filterOperators, restModel } from '../model';
import { parseRequest } from '../request/parse';
import { nullable, typeSchema } from './json-schema';
import { openApiDocument, type OpenApiDocument } from '.';

const schema = buildSchema(readFileSync(join(__dirname, '__fixtures__', 'schema.esdl'), 'utf8'));
const model = restModel(schema);
const options = { version: '1.2.3', schemaVersion: 'v7', requireAuth: true };
const doc = openApiDocument(model, schema, options);

// biome-ignore lint/suspicious/noExplicitAny: walking a JSON document in assertions
type Any = any;
const paths = doc.paths as Any;
const schemas = (doc.components as Any).schemas as Any;

test('the golden document', () => {
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  const file = join(__dirname, '__golden__', 'document.json');
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    if (process.env.CI) throw new Error('golden document.json is missing (UPDATE_GOLDEN=1)');
    writeFileSync(file, text);
  }
  expect(text).toBe(readFileSync(file, 'utf8'));
});

test('3.1.0 in its default dialect, info.version the svc version, deterministic', () => {
  expect(doc.openapi).toBe('3.1.0');
  // Not set: 3.1's default (JSON Schema 2020-12 with the OAS vocabulary) is what the schemas use.
  expect(doc).not.toHaveProperty('jsonSchemaDialect');
  expect((doc.info as Any).version).toBe('1.2.3');
  expect((doc.info as Any)['x-schema-version']).toBe('v7');
  expect(JSON.stringify(openApiDocument(model, schema, options))).toBe(JSON.stringify(doc));
});

test('every non-abstract type has its routes and one tag; abstract types none', () => {
  for (const t of model.types) {
    expect(paths[`/api/${t.route}`].get.operationId).toBeDefined();
    expect(paths[`/api/${t.route}`].post).toBeDefined();
    expect(Object.keys(paths[`/api/${t.route}/{id}`]).sort()).toEqual([
      'delete',
      'get',
      'parameters',
      'patch',
    ]);
    expect((doc.tags as Any[]).some((tag) => tag.name === t.route)).toBe(true);
  }
  expect(paths['/api/Named']).toBeUndefined();
  expect(Object.keys(paths).filter((p) => p.startsWith('/api/Author/{id}/'))).toEqual([
    '/api/Author/{id}/friends',
    '/api/Author/{id}/mentor',
    '/api/Author/{id}/posts',
  ]);
  const ids = Object.values(paths).flatMap((item: Any) =>
    Object.values(item).flatMap((op: Any) => (op.operationId ? [op.operationId] : [])),
  );
  expect(new Set(ids).size).toBe(ids.length);
});

test('shapes follow the default shape: hidden absent, expand inlined by $ref, ids otherwise', () => {
  const author = schemas.Author;
  expect(Object.keys(author.properties)).toEqual(
    model.byRoute.get('Author')?.shape.fields.map((f) => f.name),
  );
  expect(author.properties.email).toBeUndefined();
  expect(author.required).toEqual(Object.keys(author.properties));
  expect(author.additionalProperties).toBe(false);
  // The cycle guard: Author.mentor expands to Author, already on the path, so an id.
  expect(author.properties.mentor).toEqual({ type: ['string', 'null'], format: 'uuid' });
  expect(author.properties.friends).toEqual({
    type: 'array',
    items: { type: 'string', format: 'uuid' },
  });
  expect(author.properties.posts).toMatchObject({ type: 'array', readOnly: true });
  expect(author.properties.id).toEqual({ type: 'string', format: 'uuid', readOnly: true });
  const post = schemas.Post;
  expect(post.properties.author).toEqual({ $ref: '#/components/schemas/Author' });
  expect(post.properties.tags).toEqual({
    type: 'array',
    items: { $ref: '#/components/schemas/Tag' },
  });
  expect(post.properties.secret_note).toBeUndefined();
  expect(post.properties.title_upper).toMatchObject({ readOnly: true });
  // blog::Note.about expands Post, whose own author expansion Author is cut by no cycle: same
  // as Post's default shape, so a $ref.
  expect(schemas['blog.Note'].properties.about).toEqual({
    anyOf: [{ $ref: '#/components/schemas/Post' }, { type: 'null' }],
  });
});

test('a type named like the envelope keeps the envelope: Error-object', () => {
  expect(schemas.Error.required).toEqual(['code', 'error']);
  expect(schemas['Error-object'].properties.message).toEqual({ type: ['string', 'null'] });
  expect(paths['/api/Error'].get.responses['200'].content['application/json'].schema).toEqual({
    type: 'array',
    items: { $ref: '#/components/schemas/Error-object' },
  });
});

test('bodies: writable fields only; POST requires required fields without default; PATCH no readonly', () => {
  const insert = schemas['Author-insert'];
  expect(Object.keys(insert.properties)).toEqual([
    'name',
    'bio',
    'mood',
    'friends',
    'mentor',
    'created',
  ]);
  expect(insert.required).toEqual(['name']);
  expect(insert.additionalProperties).toBe(false);
  const update = schemas['Author-update'];
  expect(Object.keys(update.properties)).toEqual(['name', 'bio', 'mood', 'friends', 'mentor']);
  expect(update.required).toBeUndefined();
  expect(update.minProperties).toBe(1);
  // Links, to one type or to several, are written as ids.
  expect(schemas['Post-insert'].properties.pinned).toEqual({
    type: ['string', 'null'],
    format: 'uuid',
  });
  expect(schemas['Post-insert'].properties.tags).toEqual({
    type: ['array', 'null'],
    items: { type: 'string', format: 'uuid' },
  });
  expect(schemas['Post-insert'].required).toEqual(['title', 'author']);
});

test('scalars: one table from the binder kinds, read and write', () => {
  const read = (name: string) => typeSchema(schema, { kind: 'scalar', name }, 'read');
  const write = (name: string) => typeSchema(schema, { kind: 'scalar', name }, 'write');
  expect(read('std::int16')).toEqual({ type: 'integer', minimum: -32768, maximum: 32767 });
  expect(read('std::int32')).toMatchObject({
    type: 'integer',
    format: 'int32',
    maximum: 2147483647,
  });
  expect(read('std::int64')).toEqual({ type: 'integer', format: 'int64' });
  expect(write('std::int64')).toMatchObject({ maximum: Number.MAX_SAFE_INTEGER });
  expect(read('std::bigint')).toEqual({ type: 'integer' });
  expect(write('std::decimal')).toMatchObject({ type: ['number', 'string'] });
  expect(read('std::uuid')).toEqual({ type: 'string', format: 'uuid' });
  expect(read('std::datetime')).toEqual({ type: 'string', format: 'date-time' });
  expect(read('cal::local_date')).toEqual({ type: 'string', format: 'date' });
  expect(read('std::bytes')).toEqual({ type: 'string', contentEncoding: 'base64' });
  expect(read('std::json')).toEqual({});
  expect(nullable(read('std::json'))).toEqual({});
  expect(read('default::Mood')).toEqual({ type: 'string', enum: ['Happy', 'Sad', 'Meh'] });
  expect(nullable(read('default::Mood')).enum).toEqual(['Happy', 'Sad', 'Meh', null]);
  expect(read('default::Counter')).toEqual(read('std::int64'));
  const duration = new RegExp(read('std::duration').pattern as string);
  for (const ok of ['PT0S', 'PT1H30M', 'PT0.5S', 'PT-1H', 'P1Y-2M3DT4H', 'P1D']) {
    expect(duration.test(ok)).toBe(true);
  }
  expect(duration.test('P')).toBe(false);
  expect(
    typeSchema(schema, { kind: 'array', element: { kind: 'scalar', name: 'std::str' } }, 'read'),
  ).toEqual({
    type: 'array',
    items: { type: 'string' },
  });
});

test('every filter parameter is read back by parseRequest as the filter it names', () => {
  for (const t of model.types) {
    const list = paths[`/api/${t.route}`].get;
    for (const p of list.parameters as Any[]) {
      if (p.$ref || p.name === 'order_by') continue;
      const request = parseRequest({
        method: 'GET',
        path: `/${t.route}`,
        query: `${encodeURIComponent(p.name)}=x`,
      });
      if (request.kind !== 'list') throw new Error('not a list');
      const field = t.fields.get(request.filters[0]?.property ?? '');
      if (!field) throw new Error(`${p.name}: no field`);
      expect(filterOperators(field, schema)).toContain(request.filters[0]?.operator);
    }
    // Every filter the model allows is documented, except where the parser cannot name it.
    const names = new Set((list.parameters as Any[]).map((p) => p.name));
    for (const f of t.fields.values()) {
      if (f.name.includes('__')) continue;
      for (const op of filterOperators(f, schema)) {
        const name = op === 'eq' ? f.name : `${f.name}__${op}`;
        if (op === 'eq' && ['limit', 'offset', 'order_by', 'token'].includes(f.name)) continue;
        expect(names.has(name)).toBe(true);
      }
    }
  }
  const everything = (paths['/api/Everything'].get.parameters as Any[]).map((p) => p.name);
  expect(everything).not.toContain('limit__contains');
  expect(everything).not.toContain('j');
  expect(everything).not.toContain('arr');
  expect(everything).toContain('limit__in');
  expect(everything.filter((n: string) => n === 'limit')).toEqual([]);
  expect(everything.some((n: string) => n?.startsWith('a__b'))).toBe(false);
});

test('order_by: a pattern of the orderable fields', () => {
  const order = (paths['/api/Post'].get.parameters as Any[]).find((p) => p.name === 'order_by');
  const pattern = new RegExp(order.schema.pattern);
  expect(pattern.test('title,-views')).toBe(true);
  expect(pattern.test('-id')).toBe(true);
  expect(pattern.test('author')).toBe(false);
  expect(pattern.test('keywords')).toBe(false);
});

test('error responses in the envelope; 409 for writes, 413 and 415 for bodies', () => {
  const statuses = (op: Any) => Object.keys(op.responses);
  expect(statuses(paths['/api/Post'].get)).toEqual([
    '200',
    '400',
    '401',
    '403',
    '404',
    '408',
    '500',
    '503',
  ]);
  expect(statuses(paths['/api/Post'].post)).toEqual([
    '201',
    '400',
    '401',
    '403',
    '404',
    '408',
    '409',
    '413',
    '415',
    '500',
    '503',
  ]);
  expect(statuses(paths['/api/Post/{id}'].delete)).toEqual([
    '204',
    '400',
    '401',
    '403',
    '404',
    '408',
    '409',
    '500',
    '503',
  ]);
  for (const r of Object.values((doc.components as Any).responses) as Any[]) {
    expect(r.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
  }
});

test('bearerAuth iff requireAuth; extra paths, schemas, tags and schemes merged', () => {
  const secured = (d: OpenApiDocument) =>
    Object.values(d.paths as Any).flatMap((item: Any) =>
      Object.values(item)
        .filter((op: Any) => op.operationId)
        .map((op: Any) => op.security),
    );
  expect((doc.components as Any).securitySchemes.bearerAuth).toMatchObject({
    type: 'http',
    scheme: 'bearer',
  });
  expect(new Set(secured(doc).map((s) => JSON.stringify(s)))).toEqual(
    new Set(['[{"bearerAuth":[]},{"cookieAuth":[]},{"tokenQuery":[]}]']),
  );

  const open = openApiDocument(model, schema, { ...options, requireAuth: false });
  expect((open.components as Any).securitySchemes).toBeUndefined();
  expect(secured(open).every((s) => s === undefined)).toBe(true);

  const merged = openApiDocument(model, schema, {
    ...options,
    requireAuth: false,
    extra: {
      paths: { '/auth/login': { post: { operationId: 'auth.login', responses: {} } } },
      schemas: {
        AuthResult: { type: 'object' },
        Error: { type: 'string' },
        Tag: { type: 'object' },
      },
      tags: [{ name: 'auth' }],
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
    },
  });
  expect((merged.paths as Any)['/auth/login']).toBeDefined();
  expect((merged.components as Any).schemas.AuthResult).toEqual({ type: 'object' });
  // The envelope stays ours; a type named like a fragment schema moves aside.
  expect((merged.components as Any).schemas.Error.required).toEqual(['code', 'error']);
  expect((merged.components as Any).schemas['Tag-object']).toBeDefined();
  expect((merged.components as Any).securitySchemes.bearerAuth).toBeDefined();
  expect((merged.tags as Any[]).map((t) => t.name)).toContain('auth');
});

describe('constraints as JSON Schema keywords (issue 31)', () => {
  const read = () => schemas.Limited.properties;
  const write = () => schemas['Limited-insert'].properties;

  test('lengths, bounds and enums on properties, read and written alike', () => {
    for (const props of [read(), write()]) {
      expect(props.name).toMatchObject({ type: 'string', maxLength: 40, minLength: 1 });
      expect(props.ratio).toMatchObject({ exclusiveMinimum: -1.5, exclusiveMaximum: 1.5 });
      expect(props.size).toMatchObject({ type: ['string', 'null'], enum: ['S', 'M', 'L', null] });
      expect(props.level).toMatchObject({ enum: [1, 2, 3, null] });
      expect(props.delta).toMatchObject({ minimum: -10 });
    }
    expect(write().name.minLength).toBe(1);
  });

  test("a custom scalar's constraints, and those of the scalars it extends; the stricter bound wins", () => {
    expect(read().code).toMatchObject({
      type: ['string', 'null'],
      pattern: '^[A-Z]{3}$',
      maxLength: 3,
      minLength: 2,
    });
    // Percent: 0..100, the property narrows the maximum to 50.
    expect(read().percent).toMatchObject({ minimum: 0, maximum: 50 });
    expect(write().percent).toMatchObject({ minimum: 0, maximum: 50 });
  });

  test('a multi property constrains each element; an array property its length', () => {
    expect(read().words).toEqual({ type: 'array', items: { type: 'string', maxLength: 10 } });
    expect(read().scores).toMatchObject({ type: ['array', 'null'], maxItems: 3 });
  });

  test('what no keyword says exactly is left out: a non-ECMA pattern, a datetime bound, `on (...)`', () => {
    expect(read().word).not.toHaveProperty('pattern');
    expect(read().word.description).toBe(
      'Matches the PostgreSQL regular expression `[[:alpha:]]+`.',
    );
    expect(Object.keys(read().since).sort()).toEqual(['format', 'type']);
    expect(read().trimmed).toEqual({ type: ['string', 'null'] });
  });
});

describe('summaries take the right article', () => {
  test('"Create an Author", "Update a Tag", "Delete an Everything", "List the friends of an Author"', () => {
    expect(paths['/api/Author'].post.summary).toBe('Create an Author');
    expect(paths['/api/Tag/{id}'].patch.summary).toBe('Update a Tag');
    expect(paths['/api/Everything/{id}'].delete.summary).toBe('Delete an Everything');
    expect(paths['/api/Author/{id}/friends'].get.summary).toBe('List the friends of an Author');
  });
});
