/**
 * The result cases (cases/*.case; README.md): one Jest test per case, each fixture migrated into
 * a fresh database (PGlite, or PostgreSQL with SVC_TEST_DB=postgres) and set up once.
 *
 * `SVC_CONFORMANCE=pending` runs pending/*.case instead and, rather than failing, prints which
 * pending cases now pass. `SVC_CONFORMANCE_MOVE=1` also moves them: with `pending`, the passing
 * ones back to cases/; without, the failing active ones to pending/ with their failure as a note
 * (then README.md's counts are rewritten).
 */
import { createTestDatabase, type TestDatabase } from '../../testing';
import { compileQuery } from '../compile';
import {
  caseTitle,
  FIXTURES_DIR,
  loadCorpus,
  moveCases,
  updateReadmeCounts,
  type CaseMove,
  type LoadedCase,
} from './corpus';
import { prepareFixture, readFixture, runCase, type PreparedFixture } from './run-case';

const PENDING = process.env.SVC_CONFORMANCE === 'pending';
const MOVE = process.env.SVC_CONFORMANCE_MOVE === '1';
const passed: LoadedCase[] = [];
const failed: (CaseMove & { title: string })[] = [];

for (const group of loadCorpus(PENDING ? 'pending' : 'cases')) {
  describe(`fixture ${group.fixture}`, () => {
    let tdb: TestDatabase | undefined;
    let prepared: PreparedFixture | undefined;
    let setupError: unknown;

    beforeAll(async () => {
      tdb = await createTestDatabase();
      try {
        prepared = await prepareFixture(
          tdb.db,
          readFixture(FIXTURES_DIR, group.fixture),
          compileQuery,
        );
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
        if (failure)
          failed.push({ file: c.file, name: c.name, note: failure, title: caseTitle(c) });
        else passed.push(c);
        if (failure && !PENDING) throw new Error(failure);
      });
    }
  });
}

afterAll(() => {
  if (PENDING) {
    const lines = [
      `pending cases now passing: ${passed.length} of ${passed.length + failed.length}`,
      ...passed.map((c) => `  PASS ${caseTitle(c)}`),
    ];
    if (process.env.SVC_CONFORMANCE_VERBOSE === '1')
      lines.push(...failed.map((f) => `  FAIL ${f.title}: ${f.note}`));
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  if (!MOVE) return;
  if (PENDING)
    moveCases(
      'cases',
      passed.map((c) => ({ file: c.file, name: c.name })),
    );
  else moveCases('pending', failed);
  updateReadmeCounts();
});
