// Shared by the measured processes: reads this process's memory twice, a moment after start-up
// and once idle, and prints one JSON line (MB): resident at each point, peak resident, and where
// the idle resident memory is (V8's heap, the WASM memory, mapped files, the rest).
import fs from 'node:fs';
import v8 from 'node:v8';

const mb = (n) => Math.round(n / 1e6);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resident memory by kind, from /proc/self/smaps (Linux; undefined elsewhere):
 * - `v8`: the JavaScript heap (V8's figure of the pages it holds);
 * - `wasm`: the touched part of PGlite's WebAssembly memory (the read-write mapping in front of
 *   the guard region V8 reserves after it, several GB);
 * - `files`: mapped files (the node binary, shared libraries, native addons);
 * - `other`: the rest, mostly the C heap (malloc arenas: V8's compilers, PGlite's WASM tier-up).
 */
function breakdown(rss) {
  let text;
  try {
    text = fs.readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return undefined;
  }
  const maps = [];
  let current;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = {
        size: Number(BigInt(`0x${head[2]}`) - BigInt(`0x${head[1]}`)),
        perm: head[3],
        name: head[4],
        rss: 0,
      };
      maps.push(current);
      continue;
    }
    const resident = /^Rss:\s+(\d+) kB/.exec(line);
    if (resident && current) current.rss = Number(resident[1]) * 1024;
  }
  let files = 0;
  let wasm = 0;
  for (const [i, m] of maps.entries()) {
    if (m.name.startsWith('/')) files += m.rss;
    else if (
      m.name === '' &&
      m.perm === 'rw-p' &&
      maps[i + 1]?.perm === '---p' &&
      maps[i + 1].size > 4e9
    )
      wasm += m.rss;
  }
  const heap = v8.getHeapSpaceStatistics().reduce((sum, s) => sum + s.physical_space_size, 0);
  return { v8: mb(heap), wasm: mb(wasm), files: mb(files), other: mb(rss - heap - wasm - files) };
}

function peakResident() {
  try {
    // Linux: the high-water mark of this process alone.
    return Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
  } catch {
    return process.resourceUsage().maxRSS * 1024;
  }
}

/** Call once the process has done its start-up work; `startupMs` and `idleMs` count from then. */
export async function report(startupMs, idleMs) {
  await sleep(startupMs);
  const startup = process.memoryUsage().rss;
  await sleep(Math.max(0, idleMs - startupMs));
  const m = process.memoryUsage();
  console.log(
    JSON.stringify({
      startup: mb(startup),
      idle: mb(m.rss),
      peak: mb(peakResident()),
      heapUsed: mb(m.heapUsed),
      parts: breakdown(m.rss),
    }),
  );
}
