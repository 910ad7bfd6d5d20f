import { buildSchema, type Schema } from '@svc/core';
import { openApiDocument } from '@svc/rest';
import { restModelSource } from './rest';
import express from 'express';
import { request } from '../testing';
import { openApiHandler } from './openapi';

const v1 = buildSchema('module default { type A { x: str; } }');
const v2 = buildSchema('module default { type A { x: str; } type B { y: int64; } }');

test('built and serialised once per schema version; rebuilt when the version changes', async () => {
  let current: { version: string; schema: Schema } = { version: 'v1', schema: v1 };
  let builds = 0;
  const app = express();
  app.get(
    '/api/openapi.json',
    openApiHandler({
      models: restModelSource({ schema: async () => current }),
      version: '9.9.9',
      requireAuth: false,
      build: (...args) => {
        builds++;
        return openApiDocument(...args);
      },
    }),
  );
  // biome-ignore lint/suspicious/noExplicitAny: a JSON document
  const get = async (): Promise<any> => (await request(app, '/api/openapi.json')).json();

  const first = await get();
  expect(Object.keys(first.paths)).toContain('/api/A');
  expect(first.info).toMatchObject({ version: '9.9.9', 'x-schema-version': 'v1' });
  await get();
  await get();
  expect(builds).toBe(1);

  current = { version: 'v2', schema: v2 };
  const second = await get();
  expect(Object.keys(second.paths)).toContain('/api/B');
  await get();
  expect(builds).toBe(2);
});
