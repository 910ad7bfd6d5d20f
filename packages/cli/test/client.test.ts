/**
 * @svc/client against `svc serve` as a user starts it (the command, its own process, the schema
 * from `dbschema/`, auth on): sign-up through `client.auth`, a query that sees the caller, a
 * transaction, a batch, and a refusal decoded as its error class. The client's own suites cover
 * each method in depth against `createServer`; this one checks they meet the command's server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, InvalidReferenceError } from '@svc/client';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { seedEmbeddedFolder } from '@svc/test-support';
import { cleanEnv, startSvc, type Running } from './svc';

const SECRET = 'cli-client-secret-0123456789-abcdefghij';
const SCHEMA = `
type Note {
  required body: str;
  required owner: uuid { default := global current_user_id; }
  access policy own allow all using (.owner ?= global current_user_id);
}
`;

let t: TestDatabase | undefined;
let dir: string;
let svc: Running;
beforeAll(async () => {
  if (testDatabaseKind() === 'postgres') t = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-client-'));
  fs.mkdirSync(path.join(dir, 'dbschema'));
  fs.writeFileSync(path.join(dir, 'dbschema', 'default.esdl'), SCHEMA);
  // On PGlite the embedded folder is made already: what is checked comes after a first start.
  if (!t) seedEmbeddedFolder(path.join(dir, 'data'));
  const database =
    t && 'url' in t.config
      ? ['--database-url', t.config.url]
      : ['--data-dir', path.join(dir, 'data')];
  svc = await startSvc(['--port', '0', '--enable-auth', ...database], {
    cwd: dir,
    env: cleanEnv({ SVC_JWT_SECRET: SECRET }),
    ms: 60_000,
  });
}, 90_000);
afterAll(async () => {
  svc?.child.kill('SIGTERM');
  await svc?.exited;
  await t?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

test(`a signed-up user queries, writes in a batch, and sees only their notes (${testDatabaseKind()})`, async () => {
  const ann = createClient({ url: svc.url });
  const session = await ann.auth.signUp({
    email: `ann-${Date.now()}@example.com`,
    password: 'correct horse battery staple',
  });
  expect(await ann.queryRequiredSingle('select global current_user_id')).toBe(session.user.id);

  const [inserted, counted] = await ann.batch([
    { query: "insert Note { body := 'first' }" },
    { query: 'select count(Note)' },
  ]);
  expect(inserted).toEqual([{ id: expect.any(String), body: 'first', owner: session.user.id }]);
  expect(counted).toEqual([1]);

  const bob = createClient({ url: svc.url });
  await bob.auth.signUp({
    email: `bob-${Date.now()}@example.com`,
    password: 'correct horse battery staple',
  });
  expect(await bob.query('select Note.body')).toEqual([]);
  expect(await ann.query('select Note.body')).toEqual(['first']);

  await expect(ann.query('select Note { title }')).rejects.toBeInstanceOf(InvalidReferenceError);
}, 60_000);

test('an anonymous caller holds a transaction open across requests and commits it', async () => {
  const anonymous = createClient({ url: svc.url });
  const answer = await anonymous.transaction(async (tx) => {
    const [one] = await tx.query<number>('select 1 + 1');
    return one;
  });
  expect(answer).toBe(2);
}, 60_000);
