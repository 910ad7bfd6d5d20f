/**
 * A TypeScript client generated from the served document compiles against a small program:
 * `openapi-typescript` (programmatic API) turns `GET /api/openapi.json` (fixture schema) into
 * types (in a child Node process: its CommonJS build requires ES modules Jest's runtime cannot
 * load), written with a program that uses them to a temporary directory, and the TypeScript
 * compiler API checks it: 0 diagnostics. The same program with a wrong field access, a hidden
 * field in a body or a missing required field must NOT compile (so this test can fail).
 *
 * In the PostgreSQL pass only (jest.preset.js): the document is built from the schema, the same
 * on either engine (test/openapi.test.ts, on both, checks it against the served answers), and
 * generating and type-checking a client is about 35 s of the PGlite pass's longest chain.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import type { SvcServer } from '../src';
import { build, call, sharedDatabase } from './helpers';
import { FIXTURE_SDL } from './openapi-fixture';

/** openapi-typescript's programmatic API: the document file in, the types file out. */
const GENERATE = `
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
const [input, output] = process.argv.slice(1);
const ast = await openapiTS(JSON.parse(readFileSync(input, 'utf8')));
writeFileSync(output, astToString(ast));
`;

const db = sharedDatabase();
let server: SvcServer;
let dir: string;

beforeAll(async () => {
  server = await build(db.get(), { schema: FIXTURE_SDL });
  const document = await (await call(server, '/api/openapi.json')).text();
  dir = mkdtempSync(join(tmpdir(), 'svc-openapi-client-'));
  writeFileSync(join(dir, 'openapi.json'), document);
  execFileSync(
    process.execPath,
    ['--input-type=module', '-e', GENERATE, join(dir, 'openapi.json'), join(dir, 'api.d.ts')],
    { cwd: join(__dirname, '..'), timeout: 60_000, stdio: ['ignore', 'ignore', 'pipe'] },
  );
}, 60_000);
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const PROGRAM = `
import type { components, paths } from './api';

type PostList = paths['/api/Post']['get']['responses'][200]['content']['application/json'];
type NewPost = paths['/api/Post']['post']['requestBody']['content']['application/json'];
type PostPatch = paths['/api/Post/{id}']['patch']['requestBody']['content']['application/json'];
type ListQuery = NonNullable<paths['/api/Post']['get']['parameters']['query']>;
type Problem = components['schemas']['Error'];

export function summary(posts: PostList): string[] {
  return posts.map((p) => {
    const author: string = p.author.name; // an expanded link: the author's default shape
    const tags: string[] = p.tags.map((t) => t.label); // expanded multi link
    const body: string | null = p.body; // not required: nullable
    const pinned: string | null = p.pinned; // a link read as its id
    const views: number | null = p.views;
    return [p.id, p.title, author, body ?? '', pinned ?? '', String(views), ...tags].join(' ');
  });
}
export const created: NewPost = {
  title: 'Hello',
  author: '0190c6e4-5b8a-7c3e-9d2f-1a2b3c4d5e6f',
  tags: [],
  keywords: ['a', 'b'],
};
export const patch: PostPatch = { body: null };
export const query: ListQuery = { title__contains: 'hel', order_by: '-title,id', limit: 10, offset: 0 };
export function message(e: Problem): string {
  return \`\${e.code} \${e.error} \${e.type ?? ''}\`;
}
`;

function diagnostics(program: string): string[] {
  const file = join(dir, 'main.ts');
  writeFileSync(file, program);
  const compiled = ts.createProgram({
    rootNames: [file],
    options: {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts'],
      types: [],
      skipLibCheck: false,
    },
  });
  return ts
    .getPreEmitDiagnostics(compiled)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

test('the generated client compiles against the program: 0 diagnostics', () => {
  expect(diagnostics(PROGRAM)).toEqual([]);
}, 60_000);

test.each([
  [
    'a field the shape does not have',
    'const x: string = posts[0]!.nope;',
    /Property 'nope' does not exist/,
  ],
  [
    'a hidden field in a body',
    "const y: NewPost = { title: 't', author: 'a', secret_note: 'x' };",
    /secret_note/,
  ],
  [
    'a body without a required field',
    "const z: NewPost = { title: 't' };",
    /Property 'author' is missing/,
  ],
  ['a computed field in a PATCH body', "const w: PostPatch = { title_upper: 'T' };", /title_upper/],
  ['an unknown filter', "const q: ListQuery = { author__contains: 'x' };", /author__contains/],
] as const)(
  '%s does not compile',
  (_what, line, message) => {
    const program = PROGRAM.replace(
      'export function message',
      `export function broken(posts: PostList) { ${line} }\nexport function message`,
    );
    const found = diagnostics(program);
    expect(found.length).toBeGreaterThan(0);
    expect(found.join('\n')).toMatch(message);
  },
  60_000,
);
