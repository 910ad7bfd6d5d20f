/**
 * Attack: refresh-token replay by racing. Ten concurrent refreshes with one refresh token must give
 * exactly one new session, on the engine the run selects (SVC_TEST_DB); CI runs the suite once on
 * real PostgreSQL and once on embedded PGlite.
 */
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '@svc/core/testing';
import { createAuth } from '../create-auth';
import { SECRET, session } from '../__tests__/harness';

describe(`concurrent refresh on ${testDatabaseKind()}`, () => {
  let tdb: TestDatabase | undefined;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  }, 60_000);
  afterAll(async () => {
    await tdb?.dispose();
  });

  test('ten at once with one refresh token → exactly one success, three times over', async () => {
    const auth = await createAuth({ jwtSecret: SECRET, bcryptRounds: 4 }, { database: tdb!.db });
    const r = await auth.register({ email: 'race@example.com', password: 'password1' });
    for (let round = 0; round < 3; round++) {
      const token =
        round === 0
          ? r.refreshToken
          : (await session(auth.login({ email: 'race@example.com', password: 'password1' })))
              .refreshToken;
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () => auth.refresh(token)),
      );
      const ok = results.filter(
        (x): x is PromiseFulfilledResult<Awaited<ReturnType<typeof auth.refresh>>> =>
          x.status === 'fulfilled',
      );
      expect(ok).toHaveLength(1);
      for (const x of results)
        if (x.status === 'rejected')
          expect(x.reason).toMatchObject({ code: 'INVALID_REFRESH_TOKEN' });
      await expect(auth.verifyToken(ok[0]!.value.token)).resolves.toBeDefined();
    }
    await auth.close();
  });
});
