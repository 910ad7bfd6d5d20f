// Shared Jest settings for every package: TypeScript through SWC (type checking is the separate
// `typecheck` task), tests beside the code (`*.test.ts`) and cross-package suites in `test/`.
// Each package's jest.config.js calls this with its own directory.
//
// Workspace packages resolve to their TypeScript sources, not their `dist`: a test in one package
// always runs the current code of the others, built or not (`@svc/x` → packages/x/src/index.ts,
// `@svc/x/sub` → packages/x/src/sub.ts). Only the CLI's end-to-end tests, which spawn the real
// `svc` binary, need a build.
const fs = require('node:fs');
const path = require('node:path');

const PACKAGES = path.join(__dirname, 'packages');

/**
 * A suite that would say the same on both engines runs in one pass only, named for it:
 * `*.pglite.test.ts` (it works on an embedded data folder and never touches PostgreSQL) in the
 * PGlite pass, `*.postgres.test.ts` (the engine adds nothing to what it checks: the CLI's
 * prompts, flags and output; a page in a browser, whose routes the other suites check on both
 * engines) in the PostgreSQL pass (`SVC_TEST_DB=postgres`). `.ci/run` runs both passes, so every
 * suite runs once there.
 *
 * A suite that opens no database at all (a parser, a codec, a middleware over a fake request, an
 * SMTP exchange with a loopback peer) is `*.nodb.test.ts`: it says the same in both passes, so it
 * runs in the PGlite pass only, the README's test command's default. scripts/jest/nodb-guard.js
 * holds the name true: in such a suite the test database helpers point at a port nothing listens
 * on, so a suite that opens a database after all fails in every pass rather than running on
 * PGlite alone.
 */
const OTHER_ENGINE_ONLY =
  process.env.SVC_TEST_DB === 'postgres'
    ? '\\.(pglite|nodb)\\.test\\.ts$'
    : '\\.postgres\\.test\\.ts$';

/**
 * In the PGlite pass a new in-memory PGlite starts from an image of a fresh cluster rather than
 * running initdb each time (scripts/jest/pglite-image.js: the same cluster, seconds faster). In
 * both passes a test whose project needs an embedded folder made already copies one
 * (@svc/test-support `seedEmbeddedFolder`: the CLI's suites use folders on either engine).
 * `SVC_TEST_PGLITE_IMAGE=off` runs initdb for each, to compare.
 */
const IMAGES_OFF = process.env.SVC_TEST_PGLITE_IMAGE === 'off';
const PGLITE_SETUP = IMAGES_OFF
  ? {}
  : { globalSetup: path.join(__dirname, 'scripts', 'jest', 'pglite-image.js') };
const PGLITE_SHIM =
  IMAGES_OFF || process.env.SVC_TEST_DB === 'postgres'
    ? {}
    : { '^@electric-sql/pglite$': require('./scripts/jest/pglite-image.js').SHIM };

/** @returns {import('jest').Config} */
module.exports = function preset(packageDir, overrides = {}) {
  return {
    ...PGLITE_SETUP,
    testEnvironment: 'node',
    rootDir: packageDir,
    roots: ['src', 'test']
      .filter((dir) => fs.existsSync(path.join(packageDir, dir)))
      .map((dir) => `<rootDir>/${dir}`),
    testMatch: ['**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', OTHER_ENGINE_ONLY],
    moduleNameMapper: {
      ...PGLITE_SHIM,
      '^@svc/([a-z-]+)$': `${PACKAGES}/$1/src/index.ts`,
      '^@svc/([a-z-]+)/(?!package\\.json$)(.+)$': `${PACKAGES}/$1/src/$2`,
    },
    transform: {
      '^.+\\.ts$': [
        '@swc/jest',
        {
          jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
          module: { type: 'commonjs' },
          sourceMaps: 'inline',
        },
      ],
    },
    setupFilesAfterEnv: [path.join(__dirname, 'scripts', 'jest', 'nodb-guard.js')],
    testTimeout: 30000,
    // A package whose suites all run in the other pass (the demo's is `*.pglite.test.ts`) has
    // none in this one: that is a pass, and its report still says so.
    passWithNoTests: true,
    ...overrides,
  };
};
