import path from 'node:path';
import type { StartProgress } from '@svc/server';
import type { CliIo } from './io';

/** A migration with fewer steps is quick: it says nothing while it runs. */
export const PROGRESS_MIN_STEPS = 10;
/** Steps are told at most this often (the first step always). */
const PROGRESS_INTERVAL_MS = 1000;

/**
 * The lines a person waiting at a terminal reads while slow work runs, on stderr (stdout stays
 * the command's output): the embedded database created on a first start (10-30 s of initdb) and
 * the steps of a long migration, at most one line a second.
 *
 * @example
 * await openDatabase(database, progressLines(io, cwd));
 */
export function progressLines(
  io: CliIo,
  cwd: string,
  now: () => number = () => performance.now(),
): Required<StartProgress> {
  let lastStepAt: number | undefined;
  return {
    onCreateDataDir: ({ dataDir, ms }) => {
      io.stderr(
        ms === undefined
          ? `svc: creating the embedded database in ${shownDir(dataDir, cwd)} (first start, usually 10-30 s)...`
          : `svc: created the embedded database in ${(ms / 1000).toFixed(1)} s`,
      );
    },
    onStep: (done, total, step) => {
      if (total < PROGRESS_MIN_STEPS) return;
      const at = now();
      if (lastStepAt !== undefined && at - lastStepAt < PROGRESS_INTERVAL_MS) return;
      lastStepAt = at;
      io.stderr(`svc: migrating: step ${done + 1} of ${total} (${step.description})`);
    },
  };
}

/** A folder as the person named it: `./.svc/data` inside the working folder, else absolute. */
export function shownDir(dir: string, cwd: string): string {
  const relative = path.relative(cwd, dir);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative)
    ? `./${relative}`
    : dir;
}
