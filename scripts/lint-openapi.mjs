#!/usr/bin/env node
// Lints the served OpenAPI document with Redocly: starts an svc server (built packages, embedded
// PGlite in memory, auth on, requireAuth on) on 127.0.0.1 with the fixture schema of @svc/rest's
// document tests (every feature: expand, hidden, computeds, multi and union links, enums, every
// scalar kind), fetches /api/openapi.json with the service key, writes it to a temporary file and
// runs `redocly lint` on it (rules: redocly.yaml at the root). Exits non-zero on any error.
// Usage: node scripts/lint-openapi.mjs (after the build).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceServer } from './reference-server.mjs';

const root = new URL('..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
let server;
let code = 1;
try {
  const reference = await startReferenceServer();
  server = reference.server;
  const file = join(dir, 'openapi.json');
  // Pretty-printed, so Redocly's findings point at readable lines.
  writeFileSync(file, `${JSON.stringify(await reference.openapi(), null, 2)}\n`);
  const lint = spawnSync(join(root, 'node_modules/.bin/redocly'), ['lint', file], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const output = `${lint.stdout ?? ''}${lint.stderr ?? ''}`;
  process.stdout.write(output);
  const errors = /You have (\d+) errors?/.exec(output)?.[1] ?? (lint.status === 0 ? '0' : '?');
  const warnings = /(\d+) warnings?/.exec(output)?.[1] ?? '0';
  code = lint.status === 0 ? 0 : 1;
  console.log(
    `openapi lint: ${code === 0 ? 'OK' : 'FAILED'}, ${errors} errors, ${warnings} warnings (redocly lint of /api/openapi.json, fixture schema, requireAuth on)`,
  );
} catch (err) {
  console.log(`openapi lint: FAILED (${err instanceof Error ? err.message : String(err)})`);
} finally {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
