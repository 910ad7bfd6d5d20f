import fs from 'node:fs';

/** How often a watch looks at its files, and how long a change must rest before it counts. */
export const WATCH_INTERVAL_MS = 200;

/**
 * What a watch compares: each file's path, size and modification time (a file gone is a
 * change too). Looking every WATCH_INTERVAL_MS works the same on every platform and editor
 * (an editor that saves by renaming a new file over the old one included).
 */
export function filesSignature(files: readonly string[]): string {
  return files
    .map((f) => {
      const s = fs.statSync(f, { throwIfNoEntry: false });
      return s ? `${f}:${s.size}:${s.mtimeMs}` : `${f}:gone`;
    })
    .join('\n');
}

/**
 * Looks at `signature()` every WATCH_INTERVAL_MS and calls `onChange` once a change has rested
 * for one interval (an editor's several writes are one change). Never two calls at once: a
 * change made during one is seen after it. Resolves on SIGINT or `signal`, once the call under
 * way (if any) has ended.
 */
export function watchFiles(
  signature: () => string,
  onChange: () => void | Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let seen = signature();
  let pending: string | null = null;
  let running: Promise<void> | null = null;
  return new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (running) return;
      const now = signature();
      if (now === seen) {
        pending = null;
      } else if (now === pending) {
        seen = now;
        pending = null;
        running = Promise.resolve()
          .then(onChange)
          .finally(() => {
            running = null;
          });
      } else {
        pending = now;
      }
    }, WATCH_INTERVAL_MS);
    const stop = () => {
      clearInterval(timer);
      process.off('SIGINT', stop);
      signal?.removeEventListener('abort', stop);
      void (running ?? Promise.resolve()).then(resolve, resolve);
    };
    process.once('SIGINT', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}
