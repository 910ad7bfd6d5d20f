import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings of a process the CLI owns (`svc serve` above all), set before it does any work.
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
 */
export function tuneRuntime(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
