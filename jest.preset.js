// Shared Jest settings for every package: TypeScript through SWC (type checking is the separate
// `typecheck` task), tests beside the code (`*.test.ts`) and cross-package suites in `test/`.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'].filter((p) =>
    require('node:fs').existsSync(p.replace('<rootDir>', process.cwd())),
  ),
  testMatch: ['**/*.test.ts'],
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
  testTimeout: 30000,
};
