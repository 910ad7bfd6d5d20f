import fs from 'node:fs';
import path from 'node:path';
import type { PGliteOptions } from '@electric-sql/pglite';
import { DatabaseConnectionError } from './connection-error';

/** The compiled module PGlite takes as `pgliteWasmModule`. */
export type PGliteWasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;

// Node's WebAssembly global (outside the ES library this project compiles against).
declare const WebAssembly: {
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer };
  compile(bytes: Uint8Array): Promise<PGliteWasmModule>;
};

/**
 * PGlite, loaded on the first embedded database a process opens. It is an optional peer of
 * @svc/core (and of @svc/auth): a program on PostgreSQL neither installs nor loads it. When it is
 * not installed, this throws a `DatabaseConnectionError` (`embedded-not-installed`, 503 in the
 * envelope) saying what to install or to give a database URL, instead of Node's bare
 * MODULE_NOT_FOUND. A module missing inside an installed PGlite is not disguised as that.
 */
export function requirePGlite(): typeof import('@electric-sql/pglite') {
  try {
    return require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
  } catch (err) {
    throw notInstalled(err) ?? err;
  }
}

/** The file of PGlite's main module (see `requirePGlite` for when it is not installed). */
export function resolvePGlite(): string {
  try {
    return require.resolve('@electric-sql/pglite');
  } catch (err) {
    throw notInstalled(err) ?? err;
  }
}

function notInstalled(err: unknown): DatabaseConnectionError | undefined {
  const e = err as { code?: unknown; message?: unknown } | null;
  const missing =
    e?.code === 'MODULE_NOT_FOUND' &&
    typeof e.message === 'string' &&
    e.message.includes("'@electric-sql/pglite'");
  if (!missing) return undefined;
  return new DatabaseConnectionError(
    'embedded-not-installed',
    'the embedded database (PGlite) needs the package @electric-sql/pglite, which is not installed',
    {
      hint: 'install it (npm install @electric-sql/pglite) or give a PostgreSQL database URL instead',
      cause: err,
    },
  );
}

const WASM_PAGE = 65_536;
let compiled: Promise<PGliteWasmModule> | undefined;

/**
 * PGlite's WebAssembly module, compiled once per process (every embedded database of the process
 * instantiates it). The file is read into a temporary WebAssembly memory, which V8 maps and unmaps
 * itself, rather than into a Buffer as PGlite does: when the garbage collector frees a Buffer of
 * 10 MB, glibc raises its trim threshold to 20 MB for the rest of the process (its dynamic
 * threshold takes the block for a sign of large allocations to come), and from then on each of
 * V8's worker threads keeps up to that much of the memory it freed after compiling PGlite's hot
 * functions, resident and unused: about 20 MB of an idle server (bench/memory).
 */
export function loadPGliteModule(): Promise<PGliteWasmModule> {
  compiled ??= compileFromMappedMemory(
    path.join(path.dirname(resolvePGlite()), 'pglite.wasm'),
  ).catch((err: unknown) => {
    compiled = undefined; // the next open tries again
    throw err;
  });
  return compiled;
}

async function compileFromMappedMemory(file: string): Promise<PGliteWasmModule> {
  const size = fs.statSync(file).size;
  const bytes = new Uint8Array(
    new WebAssembly.Memory({ initial: Math.ceil(size / WASM_PAGE) }).buffer,
    0,
    size,
  );
  const fd = fs.openSync(file, 'r');
  try {
    for (let at = 0; at < size; ) {
      const read = fs.readSync(fd, bytes, at, size - at, at);
      if (read === 0) throw new Error(`${file} ended after ${at} of ${size} bytes`);
      at += read;
    }
  } finally {
    fs.closeSync(fd);
  }
  return WebAssembly.compile(bytes);
}
