// Runs before every suite (jest.preset.js `setupFilesAfterEnv`). A `*.nodb.test.ts` suite says it
// opens no database, and runs in the PGlite pass only on that word. Here its test database
// helpers (core `createTestDatabase`, the server's, auth's and the client's harnesses, the CLI's
// `svc` processes: all read these two variables) are pointed at PostgreSQL on port 1, where
// nothing listens: a suite that opens a database after all fails on PGlite too, and is renamed.
// `process.env` here is the suite's own copy (Jest's node environment), not the worker's.
const testPath = expect.getState().testPath ?? '';
if (/\.nodb\.test\.ts$/.test(testPath)) {
  process.env.SVC_TEST_DB = 'postgres';
  process.env.SVC_TEST_DATABASE_URL = 'postgres://nodb@127.0.0.1:1/a-nodb-suite-opened-a-database';
}
