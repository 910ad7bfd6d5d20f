/**
 * The result cases (cases/*.case; README.md): one Jest test per case, each fixture migrated into
 * a fresh database (PGlite, or PostgreSQL with SVC_TEST_DB=postgres) and set up once.
 *
 * `SVC_CONFORMANCE=pending` runs pending/*.case instead and, rather than failing, prints which
 * pending cases now pass (move those to cases/).
 */
import { createTestDatabase, type TestDatabase } from '../../testing';
import { compileQuery } from '../compile';
import { caseTitle, FIXTURES_DIR, loadCorpus, type LoadedCase } from './corpus';
import { prepareFixture, readFixture, runCase, type PreparedFixture } from './run-case';

const PENDING = process.env.SVC_CONFORMANCE === 'pending';
const nowPassing: string[] = [];
const stillFailing: string[] = [];

for (const group of loadCorpus(PENDING ? 'pending' : 'cases')) {
  describe(`fixture ${group.fixture}`, () => {
    let tdb: TestDatabase | undefined;
    let prepared: PreparedFixture | undefined;
    let setupError: unknown;

    beforeAll(async () => {
      tdb = await createTestDatabase();
      try {
        prepared = await prepareFixture(tdb.db, readFixture(FIXTURES_DIR, group.fixture), compileQuery);
      } catch (error) {
        setupError = error;
      }
    }, 120_000);
    afterAll(async () => {
      await tdb?.dispose();
    });

    const run = async (c: LoadedCase): Promise<string | null> => {
      if (!prepared) return `fixture not ready: ${(setupError as Error)?.message ?? setupError}`;
      return runCase(prepared, c);
    };

    for (const c of group.cases) {
      test(caseTitle(c), async () => {
        const failure = await run(c);
        if (PENDING) {
          (failure ? stillFailing : nowPassing).push(failure ? `${caseTitle(c)}: ${failure}` : caseTitle(c));
          return;
        }
        if (failure) throw new Error(failure);
      });
    }
  });
}

if (PENDING) {
  afterAll(() => {
    const lines = [
      `pending cases now passing: ${nowPassing.length} of ${nowPassing.length + stillFailing.length}`,
      ...nowPassing.map((t) => `  PASS ${t}`),
    ];
    if (process.env.SVC_CONFORMANCE_VERBOSE === '1') lines.push(...stillFailing.map((t) => `  FAIL ${t}`));
    process.stdout.write(`${lines.join('\n')}\n`);
  });
}
