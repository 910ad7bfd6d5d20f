// Shared by the measured processes: waits for the process to settle, then prints its memory as
// one JSON line (resident now, peak resident, and the JS heap, in MB).
import fs from 'node:fs';

export async function report(settleMs) {
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const m = process.memoryUsage();
  let peak = process.resourceUsage().maxRSS * 1024;
  try {
    // Linux: the high-water mark of this process alone.
    peak = Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
  } catch {
    // elsewhere: maxRSS
  }
  const mb = (n) => Math.round(n / 1e6);
  console.log(JSON.stringify({ rss: mb(m.rss), peak: mb(peak), heap: mb(m.heapUsed), arrayBuffers: mb(m.arrayBuffers) }));
}
