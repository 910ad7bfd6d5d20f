import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderError } from '../errors/render';
import { DatabaseConnectionError, openDatabase } from './index';

// Issue 32: PGlite is an optional peer of @svc/core and @svc/auth, so an application on
// PostgreSQL installs none of its 10 MB. One that asks for the embedded database without it
// installed used to get Node's bare `Cannot find module '@electric-sql/pglite'` with a require
// stack; it gets a DatabaseConnectionError saying what to install or to give a database URL.
// The module is made missing here the way Node reports it (MODULE_NOT_FOUND, the name quoted).

let mockRequireFailure: Error;
jest.mock('@electric-sql/pglite', () => {
  throw mockRequireFailure;
});

function moduleNotFound(name: string): Error {
  return Object.assign(new Error(`Cannot find module '${name}'\nRequire stack:\n- open.js`), {
    code: 'MODULE_NOT_FOUND',
  });
}

async function failure(open: () => Promise<unknown>): Promise<unknown> {
  return open().then(
    () => {
      throw new Error('expected the embedded database to fail to open');
    },
    (e: unknown) => e,
  );
}

describe('an embedded database without @electric-sql/pglite installed', () => {
  test('is a DatabaseConnectionError naming the package and the alternative, 503 in the envelope', async () => {
    mockRequireFailure = moduleNotFound('@electric-sql/pglite');
    const err = await failure(() => openDatabase({ memory: true }));
    expect(err).toBeInstanceOf(DatabaseConnectionError);
    const e = err as DatabaseConnectionError;
    expect(e.problem).toBe('embedded-not-installed');
    expect(e.cause).toBe(mockRequireFailure);
    expect(renderError(e)).toEqual({
      status: 503,
      headers: {},
      body: {
        code: 'SERVICE_UNAVAILABLE',
        error:
          'SERVICE_UNAVAILABLE: the embedded database (PGlite) needs the package @electric-sql/pglite, which is not installed',
        hint: 'install it (npm install @electric-sql/pglite) or give a PostgreSQL database URL instead',
      },
      unexpected: false,
    });
  });

  test('a data folder: nothing is created, no lock is taken', async () => {
    mockRequireFailure = moduleNotFound('@electric-sql/pglite');
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-no-pglite-'));
    try {
      const dataDir = path.join(parent, 'data');
      const err = await failure(() => openDatabase({ dataDir }));
      expect((err as DatabaseConnectionError).problem).toBe('embedded-not-installed');
      expect(fs.existsSync(dataDir)).toBe(false);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  test('a module missing inside an installed PGlite is not reported as PGlite missing', async () => {
    mockRequireFailure = moduleNotFound('some-dependency-of-pglite');
    const err = await failure(() => openDatabase({ memory: true }));
    expect(err).toBe(mockRequireFailure);
  });
});
