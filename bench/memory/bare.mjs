// A bare PGlite on a data folder, as its README shows it, plus one query: the baseline.
// Usage: node bare.mjs <dataDir> <settleMs> [setting=value ...]  (settings as PostgreSQL -c flags)
import { createRequire } from 'node:module';
import { report } from './measure.mjs';

const require = createRequire(new URL('../../packages/core/package.json', import.meta.url));
const { PGlite } = require('@electric-sql/pglite');
const [dataDir, settle, ...settings] = process.argv.slice(2);
const options = { dataDir };
if (settings.length) options.startParams = [...PGlite.defaultStartParams, ...settings.flatMap((s) => ['-c', s])];
const pg = new PGlite(options);
await pg.waitReady;
await pg.query('select 1');
await report(Number(settle));
await pg.close();
