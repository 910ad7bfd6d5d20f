/**
 * bcrypt off the event loop: a small pool of worker threads running `bcryptjs` (pure JavaScript,
 * no dependencies, no install script). One bcrypt at cost 12 is a few hundred milliseconds of CPU;
 * on the main thread it would stall every other request for that long, so each hash and compare
 * runs whole in a worker, one at a time per worker.
 *
 * - One pool per process, made with the first task and shared by every `createAuth` in it.
 * - Workers start on demand up to the pool's size (the available parallelism, at most
 *   MAX_WORKERS) and are unreferenced while idle, so an idle pool never keeps the process alive,
 *   while a task in flight does (a script awaiting a login does not exit under it). A worker idle
 *   for IDLE_MS stops: each holds about 10 MB, which an idle server should not keep.
 * - Tasks beyond the busy workers wait in a queue of at most `maxQueue`; past it a task is
 *   refused at once with SERVICE_UNAVAILABLE, not queued for minutes.
 * - A worker that dies fails its task with an error and is replaced by the next task.
 *
 * The worker's code is a string run with `eval` (below), so there is no worker file to resolve:
 * the same code runs from the published `dist`, from the TypeScript sources under Jest, and from a
 * bundle; it loads `bcryptjs` by the path resolved here.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { commonError } from '@svc/core';

/** Workers at most, whatever the machine: bcrypt is bounded by cores, not by more threads. */
export const MAX_WORKERS = 8;
/** Tasks waiting for a worker, per worker, before new ones are refused. */
export const QUEUE_PER_WORKER = 64;
/** How long a worker waits for a task before it stops. */
export const IDLE_MS = 10_000;

type Task =
  | { readonly op: 'hash'; readonly password: string; readonly rounds: number }
  | { readonly op: 'compare'; readonly password: string; readonly hash: string };

/**
 * The worker: one message in, one out. A compare against a hash bcryptjs cannot read (malformed,
 * unknown revision, cost out of range) is a mismatch, as it was with the native module, never an
 * error a login would turn into a 500.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptjs);
parentPort.on('message', (task) => {
  let reply;
  try {
    if (task.op === 'hash') {
      reply = { value: bcrypt.hashSync(task.password, task.rounds) };
    } else {
      let same = false;
      try { same = bcrypt.compareSync(task.password, task.hash); } catch { same = false; }
      reply = { value: same };
    }
  } catch (error) {
    reply = { error: String((error && error.message) || error) };
  }
  parentPort.postMessage(reply);
});
`;

export interface BcryptPool {
  /** The bcrypt hash of `password` at cost `rounds` (`$2b$`). */
  hash(password: string, rounds: number): Promise<string>;
  /** Whether `password` matches `hash` (`$2a$`/`$2b$`); false for a hash that cannot be read. */
  compare(password: string, hash: string): Promise<boolean>;
  /** Stops every worker; tasks queued or in flight fail. The pool starts again on its next task. */
  close(): Promise<void>;
  /** Workers running and tasks waiting now (for tests and benchmarks). */
  stats(): { workers: number; busy: number; queued: number };
  readonly size: number;
  readonly maxQueue: number;
}

interface Pending {
  readonly task: Task;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  current: Pending | undefined;
  idle: NodeJS.Timeout | undefined;
}

export function createBcryptPool(
  options: { size?: number; maxQueue?: number; idleMs?: number } = {},
): BcryptPool {
  const size = Math.max(1, Math.min(options.size ?? availableParallelism(), MAX_WORKERS));
  const maxQueue = Math.max(0, options.maxQueue ?? size * QUEUE_PER_WORKER);
  const idleMs = options.idleMs ?? IDLE_MS;
  const bcryptjs = require.resolve('bcryptjs');
  const slots = new Set<Slot>();
  const queue: Pending[] = [];

  const start = (): Slot => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptjs } });
    const slot: Slot = { worker, current: undefined, idle: undefined };
    worker.unref();
    worker.on('message', (reply: { value?: unknown; error?: string }) => {
      const pending = slot.current;
      slot.current = undefined;
      worker.unref();
      if (pending) {
        if (reply.error !== undefined) pending.reject(new Error(`bcrypt: ${reply.error}`));
        else pending.resolve(reply.value);
      }
      next(slot);
    });
    const fail = (error: Error) => {
      if (!slots.delete(slot)) return;
      const pending = slot.current;
      slot.current = undefined;
      pending?.reject(error);
      // Its queue goes on in a fresh worker.
      if (queue.length > 0) next(start());
    };
    worker.on('error', (error) => fail(error));
    worker.on('exit', (code) => fail(new Error(`bcrypt worker stopped (exit code ${code})`)));
    slots.add(slot);
    return slot;
  };

  const retire = (slot: Slot) => {
    if (slot.current || !slots.delete(slot)) return;
    void slot.worker.terminate();
  };

  const next = (slot: Slot) => {
    if (!slots.has(slot) || slot.current) return;
    clearTimeout(slot.idle);
    const pending = queue.shift();
    if (!pending) {
      slot.idle = setTimeout(() => retire(slot), idleMs);
      slot.idle.unref();
      return;
    }
    slot.current = pending;
    slot.worker.ref();
    slot.worker.postMessage(pending.task);
  };

  const run = <T>(task: Task): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const idle = [...slots].find((s) => !s.current);
      const free = idle ?? (slots.size < size ? start() : undefined);
      if (!free && queue.length >= maxQueue) {
        reject(
          commonError('SERVICE_UNAVAILABLE', 'too many password checks in progress; try again'),
        );
        return;
      }
      queue.push({ task, resolve: resolve as (value: unknown) => void, reject });
      if (free) next(free);
    });

  return {
    size,
    maxQueue,
    hash: (password, rounds) => run<string>({ op: 'hash', password, rounds }),
    compare: (password, hash) => run<boolean>({ op: 'compare', password, hash }),
    async close() {
      const stopping = [...slots];
      slots.clear();
      for (const slot of stopping) clearTimeout(slot.idle);
      const closed = new Error('bcrypt pool closed');
      for (const pending of queue.splice(0)) pending.reject(closed);
      for (const slot of stopping) slot.current?.reject(closed);
      await Promise.all(stopping.map((slot) => slot.worker.terminate()));
    },
    stats: () => ({
      workers: slots.size,
      busy: [...slots].filter((s) => s.current).length,
      queued: queue.length,
    }),
  };
}

let shared: BcryptPool | undefined;

/** The process's pool, made on first use. */
export function bcryptPool(): BcryptPool {
  shared ??= createBcryptPool();
  return shared;
}
