// A bare PGlite on a data folder, as its README shows it, plus one query: the baseline.
// Usage: node bare.mjs <dataDir> <startupMs> <idleMs> [--svc-wasm] [setting=value ...]
//   setting=value: PostgreSQL settings (-c flags); --svc-wasm: the WebAssembly module loaded as
//   svc loads it (`loadPGliteModule` of @svc/core) instead of by PGlite.
import { createRequire } from 'node:module';
import { report } from './measure.mjs';

const require = createRequire(new URL('../../packages/core/package.json', import.meta.url));
const { PGlite } = require('@electric-sql/pglite');
const [dataDir, startup, idle, ...rest] = process.argv.slice(2);
const settings = rest.filter((arg) => arg !== '--svc-wasm');
const options = { dataDir };
if (settings.length)
  options.startParams = [...PGlite.defaultStartParams, ...settings.flatMap((s) => ['-c', s])];
if (rest.includes('--svc-wasm')) {
  // Only this function of @svc/core: loading the whole package would count svc's code here.
  const { loadPGliteModule } = require('../../packages/core/dist/db/pglite-module.js');
  options.pgliteWasmModule = await loadPGliteModule();
}
const pg = new PGlite(options);
await pg.waitReady;
await pg.query('select 1');
await report(Number(startup), Number(idle));
await pg.close();
