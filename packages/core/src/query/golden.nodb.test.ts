/**
 * Golden files of the read compiler: each `__golden__/<name>.edgeql` (one query over the issues
 * fixture; in `__golden__/unions/`, over the unions fixture) compiles to the SQL in `<name>.sql`
 * (pretty form), for review of what the compiler emits. `UPDATE_GOLDEN=1` rewrites the `.sql` files; otherwise they must match exactly.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema } from '../schema';
import { ISSUES_SDL } from './__tests__/issues-sdl';
import { compileQueryDetails } from './compile';

const dir = join(__dirname, '__golden__');
const schemas = {
  '': buildSchema(ISSUES_SDL),
  'unions/': buildSchema(readFileSync(join(__dirname, '__fixtures__/unions.esdl'), 'utf8')),
};
const names = Object.keys(schemas)
  .flatMap((sub) =>
    readdirSync(join(dir, sub))
      .filter((f) => f.endsWith('.edgeql'))
      .map((f) => `${sub}${f.slice(0, -'.edgeql'.length)}`),
  )
  .sort();

test('there are golden files', () => {
  expect(names.length).toBeGreaterThan(0);
});

test.each(names)('%s', (name) => {
  const query = readFileSync(join(dir, `${name}.edgeql`), 'utf8');
  const schema = name.startsWith('unions/') ? schemas['unions/'] : schemas[''];
  const compiled = compileQueryDetails(schema, query);
  const text = `-- ${compiled.cardinality} ${compiled.resultType}; params: ${
    compiled.params.map((p) => `$${p.name}: ${p.type}${p.required ? '' : '?'}`).join(', ') || 'none'
  }\n${compiled.prettySql}\n`;
  const file = join(dir, `${name}.sql`);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    writeFileSync(file, text);
  }
  expect(text).toBe(readFileSync(file, 'utf8'));
});
