/** The fixture schema of @svc/rest's OpenAPI tests (every feature the document describes). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURE_SDL = readFileSync(
  join(__dirname, '../../rest/src/openapi/__fixtures__/schema.esdl'),
  'utf8',
);
