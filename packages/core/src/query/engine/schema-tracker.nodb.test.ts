/*
 * The schema tracker alone, with a scripted source and clock: how often the stored schema is
 * read, that concurrent callers share one read, that a model is built once per version, and that
 * invalidate() wins over a read already in flight.
 */
import type { Schema } from '../../model/schema';
import { SchemaTracker, type SchemaSource } from './schema-tracker';

function scripted() {
  let stored = { version: 'v1', sdl: 'one' };
  let reads = 0;
  const builds: string[] = [];
  const gates: (() => void)[] = [];
  let gated = false;
  const source: SchemaSource = {
    async read() {
      reads++;
      const answer = stored;
      if (gated) await new Promise<void>((resolve) => gates.push(resolve));
      return answer;
    },
    build(sdl) {
      builds.push(sdl);
      return { modules: [sdl] } as unknown as Schema;
    },
  };
  return {
    source,
    builds,
    get reads() {
      return reads;
    },
    store(version: string, sdl: string) {
      stored = { version, sdl };
    },
    hold() {
      gated = true;
    },
    release() {
      gated = false;
      for (const open of gates.splice(0)) open();
    },
  };
}

test('reads at most once per recheck interval, and builds once per version', async () => {
  const s = scripted();
  let now = 0;
  const tracker = new SchemaTracker(s.source, 500, () => now);
  expect((await tracker.current()).version).toBe('v1');
  now = 499;
  await tracker.current();
  expect(s.reads).toBe(1);
  now = 500;
  await tracker.current();
  expect(s.reads).toBe(2);
  expect(s.builds).toEqual(['one']);
  s.store('v2', 'two');
  now = 1000;
  expect((await tracker.current()).version).toBe('v2');
  expect(s.builds).toEqual(['one', 'two']);
});

test('concurrent callers share one read', async () => {
  const s = scripted();
  const tracker = new SchemaTracker(s.source, 500, () => 0);
  const all = await Promise.all([tracker.refresh(), tracker.current(), tracker.refresh()]);
  expect(new Set(all).size).toBe(1);
  expect(s.reads).toBe(1);
});

test('invalidate() during a read in flight makes the next caller read again', async () => {
  const s = scripted();
  let now = 0;
  const tracker = new SchemaTracker(s.source, 500, () => now);
  await tracker.current();
  now = 600;
  s.hold();
  const stale = tracker.current(); // reads v1, held
  s.store('v2', 'two'); // a migration commits meanwhile...
  tracker.invalidate(); // ...and this process says so
  s.release();
  expect((await stale).version).toBe('v1');
  expect((await tracker.current()).version).toBe('v2');
});
