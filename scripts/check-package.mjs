// Checks the built package in the current directory the way a consumer would meet it:
// publint reads the packed manifest and files, attw resolves its types under every module
// resolution mode, and the tarball holds no tests or fixtures (the rule of
// check-package-metadata.mjs, over the files really packed). Run by each package's `check:package` task (turbo: `pnpm check:packages`, and
// `pnpm lint` after Biome), and so by .ci/run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packedFileProblems } from './check-package-metadata.mjs';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
// Run the same pnpm that runs this script (it may have come from npx and not be on PATH).
const pnpm = process.env.npm_execpath?.includes('pnpm')
  ? [process.execPath, process.env.npm_execpath]
  : ['pnpm'];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pack-'));
try {
  // `pnpm pack` rewrites workspace: ranges to real versions, as publishing does.
  const out = execFileSync(pnpm[0], [...pnpm.slice(1), 'pack', '--pack-destination', tmp], {
    encoding: 'utf8',
  });
  const tarball = fs.readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`pnpm pack produced no tarball:\n${out}`);
  const file = path.join(tmp, tarball);
  const packed = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((p) => p.replace(/^package\//, ''));
  const found = packedFileProblems(packed);
  if (found.length > 0) throw new Error(`${tarball}:\n  ${found.join('\n  ')}`);
  execFileSync(bin('publint'), ['run', file, '--strict'], { stdio: 'inherit' });
  execFileSync(bin('attw'), [file, '--format', 'table-flipped'], { stdio: 'inherit' });
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
