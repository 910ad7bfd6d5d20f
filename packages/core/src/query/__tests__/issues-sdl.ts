/** The issues fixture schema's SDL (../__fixtures__/issues.esdl), read once. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ISSUES_SDL = readFileSync(join(__dirname, '../__fixtures__/issues.esdl'), 'utf8');
