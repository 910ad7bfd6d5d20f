import fc from 'fast-check';
import { printStatement } from './print';
import { createFixtureDatabase, type FixtureDatabase } from './__tests__/fixture-database';
import { randomStatement, type Choices } from './__tests__/random-statement';

/**
 * The printer's output is SQL PostgreSQL accepts: random statement trees that are valid by
 * construction (sql/__tests__/random-statement) are printed, compact and pretty, and PostgreSQL
 * parses and analyses each (`PREPARE`) on the engine under test. Any refusal is a printer bug.
 */

let db: FixtureDatabase;
beforeAll(async () => {
  db = await createFixtureDatabase();
});
afterAll(async () => {
  await db.dispose();
});

const statements = fc.gen().map((g) => {
  const choices: Choices = { int: (min, max) => g(fc.integer, { min, max }) };
  return randomStatement(choices);
});

test('printed random statements parse and analyse in PostgreSQL', async () => {
  await fc.assert(
    fc.asyncProperty(statements, fc.boolean(), async (tree, pretty) => {
      const text = printStatement(tree, { pretty });
      await db.analyzes(text).catch((error: Error) => {
        throw new Error(`${error.message}\n${text}`);
      });
    }),
    { numRuns: 400 },
  );
}, 120_000);
