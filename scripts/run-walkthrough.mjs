#!/usr/bin/env node
// Runs the README's "Your first schema" walkthrough as written: the one ```sh block between
// `<!-- walkthrough:begin -->` and `<!-- walkthrough:end -->`, as a bash script with `set -e`, in
// a new temporary folder, with `svc` on PATH as the README has a reader in a clone put it
// (node_modules/.bin, the workspace's built packages/cli), on the embedded database (PGlite), with SVC_PORT set to a free
// loopback port (the walkthrough reads it, as a reader who needs another port would set it).
// Every command must exit 0; the first that does not stops the run, named with its README line.
// The whole run is bounded (WALKTHROUGH_TIMEOUT_MS, default 240 s); whatever it started in the
// background (svc serve) is stopped at the end, by its process group.
//
// Usage (after the build): node scripts/run-walkthrough.mjs [README.md]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BEGIN = '<!-- walkthrough:begin -->';
const END = '<!-- walkthrough:end -->';

/**
 * The walkthrough of a Markdown text: the shell code of the one ```sh block between the markers,
 * and the 1-based line of the text its first line is on. Throws when the markers or the block
 * are missing, doubled, or when anything but that block stands between the markers.
 */
export function extractWalkthrough(markdown) {
  const lines = markdown.split('\n');
  const begins = lines.flatMap((l, i) => (l.trim() === BEGIN ? [i] : []));
  const ends = lines.flatMap((l, i) => (l.trim() === END ? [i] : []));
  if (begins.length !== 1 || ends.length !== 1 || ends[0] < begins[0])
    throw new Error(`expected one ${BEGIN} followed by one ${END}`);
  const inside = lines.slice(begins[0] + 1, ends[0]);
  const open = inside.findIndex((l) => l.trim() !== '');
  const close = inside.findLastIndex((l) => l.trim() !== '');
  if (open < 0 || !/^```(sh|bash)$/.test(inside[open]) || inside[close] !== '```' || close <= open)
    throw new Error(
      'between the walkthrough markers there must be one ```sh block and nothing else',
    );
  const code = inside.slice(open + 1, close);
  if (code.some((l) => l.startsWith('```')))
    throw new Error(
      'between the walkthrough markers there must be one ```sh block and nothing else',
    );
  return { code: code.join('\n'), firstLine: begins[0] + 1 + open + 2 };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function main() {
  const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
  const readme = path.resolve(process.argv[2] ?? path.join(root, 'README.md'));
  // What the README says a reader in a clone does: the workspace's bin folder on PATH.
  const bins = path.join(root, 'node_modules/.bin');
  if (
    !fs.existsSync(path.join(bins, 'svc')) ||
    !fs.existsSync(path.join(root, 'packages/cli/dist/index.js'))
  )
    throw new Error('no built svc in node_modules/.bin: run the install and the build first');
  const { code, firstLine } = extractWalkthrough(fs.readFileSync(readme, 'utf8'));

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-walkthrough-'));
  const home = path.join(work, 'home');
  fs.mkdirSync(home);
  // Line 1 is this prelude, so README line = LINENO + firstLine - 2.
  const offset = firstLine - 2;
  const script = [
    `set -eu -o pipefail; PS4='+ README.md:$((LINENO + ${offset})): '; trap '{ set +x; } 2>/dev/null; echo "walkthrough: README.md line $((LINENO + ${offset})) failed (exit $?): $BASH_COMMAND" >&2' ERR; set -x`,
    code,
    '',
  ].join('\n');
  const scriptFile = path.join(work, 'walkthrough.sh');
  fs.writeFileSync(scriptFile, script);

  const port = await freePort();
  // A clean environment: no DATABASE_URL or SVC_* of the caller's, so the embedded database.
  const env = {
    PATH: `${bins}:${process.env.PATH}`,
    HOME: home,
    LANG: 'C.UTF-8',
    SVC_PORT: String(port),
  };
  const limit = Number(process.env.WALKTHROUGH_TIMEOUT_MS ?? 240_000);
  const started = Date.now();
  console.log(`walkthrough: ${readme} from line ${firstLine}, in ${work}, port ${port}`);
  const child = spawn('bash', [scriptFile], {
    cwd: work,
    env,
    detached: true, // its own process group: svc serve & included, stopped together below
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stopGroup(child.pid, 'SIGKILL');
  }, limit);
  const rc = await new Promise((resolve) => child.on('exit', (c, s) => resolve(c ?? s)));
  clearTimeout(timer);
  await stopAll(child.pid);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (timedOut) throw new Error(`did not finish within ${limit / 1000} s (stopped)`);
  if (rc !== 0) throw new Error(`a command failed (exit ${rc}) after ${seconds} s: see above`);
  fs.rmSync(work, { recursive: true, force: true });
  console.log(`walkthrough: every command exited 0 (${seconds} s)`);
}

function stopGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // no process is left in the group
  }
}

/** SIGTERM to what is left of the group, then SIGKILL after 10 s. */
async function stopAll(pid) {
  if (!stopGroup(pid, 'SIGTERM')) return;
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    if (!stopGroup(pid, 0)) return;
  }
  stopGroup(pid, 'SIGKILL');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`walkthrough FAILED: ${err.message}`);
    process.exit(1);
  });
}
