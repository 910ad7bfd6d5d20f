import fs from 'node:fs';

/**
 * Makes `dataDir` an embedded database folder as svc's first start leaves it (PGlite's initdb on
 * a folder), for a test whose subject comes after that start: a copy of the folder Jest's global
 * setup made once per machine (scripts/jest/pglite-image.js, named in `SVC_TEST_PGLITE_FOLDER`),
 * in a fraction of a second instead of initdb's 10 s of CPU. Without that folder
 * (`SVC_TEST_PGLITE_IMAGE=off`) it does nothing, and the first command to open `dataDir` makes
 * the database, as for a user. A test of the first start itself (its progress lines, its memory,
 * a start cut short) never calls this.
 */
export function seedEmbeddedFolder(dataDir: string): void {
  const template = process.env.SVC_TEST_PGLITE_FOLDER;
  if (!template) return;
  fs.cpSync(template, dataDir, { recursive: true });
}
