/**
 * Attack: refresh-token replay by racing. Ten concurrent refreshes with one refresh token must give
 * exactly one new session, on both engines in the same run: embedded PGlite always, and real
 * PostgreSQL when SVC_TEST_DATABASE_URL names a server (otherwise that case is skipped).
 */
import { createTestDatabase, type TestDatabase } from '@svc/core';
import { createAuth } from '../../src/create-auth';
import { SECRET } from './harness';

const url = process.env.SVC_TEST_DATABASE_URL;
const engines: Array<[string, NodeJS.ProcessEnv | null]> = [
  ['PGlite', { SVC_TEST_DB: 'pglite' }],
  ['PostgreSQL', url ? { SVC_TEST_DB: 'postgres', SVC_TEST_DATABASE_URL: url } : null],
];

describe.each(engines)('concurrent refresh on %s', (name, env) => {
  let tdb: TestDatabase | undefined;
  beforeAll(async () => {
    if (env) tdb = await createTestDatabase(env);
  }, 60_000);
  afterAll(async () => {
    await tdb?.dispose();
  });

  (env ? test : test.skip)(`ten at once with one refresh token → exactly one success (${name})`, async () => {
    const auth = await createAuth({ jwtSecret: SECRET, bcryptRounds: 4 }, { database: tdb!.db });
    const r = await auth.register({ email: 'race@example.com', password: 'password1' });
    for (let round = 0; round < 3; round++) {
      const token = round === 0 ? r.refreshToken : (await auth.login({ email: 'race@example.com', password: 'password1' })).refreshToken;
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => auth.refresh(token)));
      const ok = results.filter((x): x is PromiseFulfilledResult<Awaited<ReturnType<typeof auth.refresh>>> => x.status === 'fulfilled');
      expect(ok).toHaveLength(1);
      for (const x of results) if (x.status === 'rejected') expect(x.reason).toMatchObject({ code: 'INVALID_REFRESH_TOKEN' });
      await expect(auth.verifyToken(ok[0]!.value.token)).resolves.toBeDefined();
    }
    await auth.close();
  });
});
