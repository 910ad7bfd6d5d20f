import { setFlagsFromString } from 'node:v8';

/** Commands whose process lives on: the server, and the watcher that pushes on every save. */
const LONG_LIVED: ReadonlySet<string> = new Set(['serve', 'watch']);

/**
 * V8 settings of a process the CLI owns, set before it does any work; `command` is the CLI's
 * first argument.
 *
 * `--no-allocation-site-pretenuring`: V8 watches each allocation site and, when most of its
 * objects survive a young-generation collection, allocates the site's later objects in the old
 * generation. A server under load answering from a pooled connection (`pool.connect`, query,
 * `release`) tips it that way: a site gets tenured, its dead old objects keep the young objects
 * they point to alive, which then survive and tip more sites. From then on every request's
 * objects are promoted: a 100-row REST page promoted 22 KB per request and spent 105 to 160 µs
 * per request in the scavenger, against 60-190 B and 12 µs with the flag; a by-id read 458 B and
 * 10 µs against 20 B and 5 µs (issue 34, `node --trace-gc-nvp`, wrk -c32). Whether a run tips is
 * chance (5 runs in 7 of a bare `pg` pool under the same load did), which is why it is off for the process
 * rather than worked around at one site. A host application embedding `@svc/server` keeps its own
 * settings.
 *
 * `--liftoff-only`, for a command that ends once it has done its work (`svc admin`, `migrate`,
 * `query`...): V8 compiles WebAssembly (embedded PGlite, several megabytes of it) first with its
 * quick compiler, Liftoff, then again with its optimising one in background threads, work only a
 * long-lived process gets back. A one-shot command opening an embedded folder spends about a
 * third less CPU without that second compile (`svc admin list-roles`: 2.3 s against 3.3 s),
 * and no more wall time. `svc serve` and `svc watch` keep the optimised code.
 */
export function tuneRuntime(command: string | undefined): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
  if (command !== undefined && !LONG_LIVED.has(command)) setFlagsFromString('--liftoff-only');
}
