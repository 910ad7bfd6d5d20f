#!/usr/bin/env node
// The release rehearsal (issue 32): publishes this checkout to a private npm registry on loopback
// and installs it the way a user does, from an empty folder with an empty npm cache.
//
// 1. A copy of the checkout (tracked and untracked files, not ignored ones, plus each package's
//    built `dist/`; the root node_modules is linked, never copied) in a temporary folder: the
//    developer's working tree is never touched. There `changeset version` writes each package's
//    CHANGELOG.md from the pending changesets and `changeset publish` publishes every public
//    package (through `pnpm publish`, which turns `workspace:` ranges into versions) to
// 2. Verdaccio on 127.0.0.1, its storage and configuration in the temporary folder: the
//    workspace's own packages are served only from it (never proxied), everything else comes
//    through its uplink, the public npm registry (`SVC_REHEARSAL_UPLINK` to use another). A user
//    made through the registry's API gives the publish token; provenance is off for it.
// 3. Each tarball, fetched back from the registry, is measured (packed and unpacked) and read:
//    tests (`*.test.*`, `__tests__/`, `test/`), fixtures (`__fixtures__/`, `fixtures/`) and
//    source maps whose sources are not in the tarball fail the rehearsal.
// 4. As a user, with a `.npmrc` naming only that registry and `npm_config_cache` in an empty folder:
//    `npx @svc/cli serve` on the embedded database answers `GET /` with the published version
//    (install size and time printed); an Express app and a Hono app install `@svc/auth` without
//    PGlite and sign a user up on PostgreSQL (a fresh database, dropped at the end, on the server of
//    `SVC_REHEARSAL_DATABASE_URL`, else `SVC_TEST_DATABASE_URL`); `@svc/smtp` installs with no
//    dependency at all and sends to an SMTP peer in this process; `@svc/client` queries the server.
//    An install that prints a `deprecated` warning fails.
//
// Every wait is bounded, everything started is stopped and the temporary folder removed, on
// failure too. The last line is `release rehearsal: OK` or `release rehearsal: FAILED (<what>)`,
// with the exit code to match. Needs a build (`pnpm build`) and network to the uplink.
//
// Usage: SVC_REHEARSAL_DATABASE_URL=postgres://... node scripts/release-rehearsal.mjs
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rootManifest = readJson(path.join(ROOT, 'package.json'));
const PNPM = rootManifest.packageManager; // pnpm@x.y.z
/** The whole rehearsal, past which it fails (CI's budget for it is about 4 minutes). */
const OVERALL_LIMIT_MS = 8 * 60_000;
const INSTALL_LIMIT_MS = 4 * 60_000;
const START_LIMIT_MS = 120_000;
const RUN_LIMIT_MS = 60_000;
const UPLINK = process.env.SVC_REHEARSAL_UPLINK ?? 'https://registry.npmjs.org/';

/** A failure of the rehearsal: its message is the `<what>` of the last line. */
class RehearsalError extends Error {}
const fail = (what) => {
  throw new RehearsalError(what);
};

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

const started = performance.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const kilobytes = (bytes) => `${(bytes / 1024).toFixed(0)} kB`;
function log(line) {
  console.log(`[${seconds(performance.now() - started).padStart(7)}] ${line}`);
}

// ---------------------------------------------------------------------------------------------
// Processes: every one started here is in its own process group, stopped by that group's id.

const running = new Set();

/**
 * Runs a command to its end within `limitMs` (then its process group is killed and this fails).
 * Resolves with its exit code and output; `check` makes a non-zero exit a failure naming `what`.
 */
function run(command, args, { cwd, env, limitMs = RUN_LIMIT_MS, what, check = true, input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env,
      detached: true,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    running.add(child);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    if (input !== undefined) child.stdin.end(input);
    const timer = setTimeout(() => {
      killGroup(child, 'SIGKILL');
      reject(new RehearsalError(`${what ?? command}: did not finish within ${seconds(limitMs)}`));
    }, limitMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      running.delete(child);
      reject(new RehearsalError(`${what ?? command}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      if (check && code !== 0) {
        console.log(out.trimEnd());
        reject(new RehearsalError(`${what ?? command}: exit ${code ?? signal}`));
      } else resolve({ code, out });
    });
  });
}

/** Starts a long-running process; its output is kept in `output()`. */
function start(command, args, { cwd, env }) {
  const child = spawn(command, args, {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  child.on('close', () => running.delete(child));
  child.on('error', () => running.delete(child));
  return { child, output: () => out };
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** SIGTERM to the process group, SIGKILL after `graceMs` if it has not exited. */
async function stop(child, graceMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'close');
  killGroup(child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  killGroup(child, 'SIGKILL'); // whatever the group leader left behind
}

async function freePort() {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `url` until `accept(response)` holds, within `limitMs`; fails naming `what`. */
async function waitFor(url, { limitMs, what, alive }) {
  const deadline = Date.now() + limitMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (alive && !alive()) fail(`${what}: the process exited`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      // The body is read here, inside the request's time limit (its signal would abort it later).
      if (res.ok) return await res.text();
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  fail(`${what}: no answer at ${url} within ${seconds(limitMs)} (${last})`);
}

// ---------------------------------------------------------------------------------------------
// The workspace and its copy.

/** The workspace's packages (folder, manifest), public ones marked. */
function workspacePackages(root) {
  const out = [];
  for (const group of ['packages', 'apps']) {
    const dir = path.join(root, group);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, name, 'package.json');
      if (!fs.existsSync(file)) continue;
      const manifest = readJson(file);
      out.push({ dir: path.join(dir, name), manifest, public: manifest.private !== true });
    }
  }
  return out;
}

/**
 * Copies the checkout into `target`: the files git would commit (tracked and untracked, not
 * ignored) and each package's built `dist/`; the root node_modules is linked.
 */
function copyCheckout(target) {
  let listing;
  try {
    listing = execFileSync('git', ['ls-files', '-z', '-c', '-o', '--exclude-standard'], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    fail(`git ls-files: the rehearsal copies a git checkout (${String(err.stderr ?? err).trim()})`);
  }
  const listed = listing.toString().split('\0').filter(Boolean);
  let files = 0;
  for (const rel of listed) {
    const from = path.join(ROOT, rel);
    const stat = fs.lstatSync(from, { throwIfNoEntry: false });
    if (!stat || stat.isDirectory()) continue; // deleted in the working tree, or a submodule
    fs.mkdirSync(path.dirname(path.join(target, rel)), { recursive: true });
    fs.cpSync(from, path.join(target, rel), { verbatimSymlinks: true });
    files++;
  }
  for (const pkg of workspacePackages(ROOT)) {
    const dist = path.join(pkg.dir, 'dist');
    if (!pkg.public) continue;
    if (!fs.existsSync(dist)) fail(`${pkg.manifest.name} is not built (run pnpm build first)`);
    fs.cpSync(dist, path.join(target, path.relative(ROOT, dist)), { recursive: true });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(target, 'node_modules'), 'dir');
  // `pnpm publish` reads the version of a `workspace:` dependency from the package's own
  // node_modules link (what `pnpm install` makes): the same links, to the copy's packages.
  const copies = workspacePackages(target);
  const byName = new Map(copies.map((p) => [p.manifest.name, p.dir]));
  for (const pkg of copies) {
    for (const key of ['dependencies', 'devDependencies', 'peerDependencies']) {
      for (const [name, range] of Object.entries(pkg.manifest[key] ?? {})) {
        if (!String(range).startsWith('workspace:') || !byName.has(name)) continue;
        const link = path.join(pkg.dir, 'node_modules', name);
        if (fs.existsSync(link)) continue;
        fs.mkdirSync(path.dirname(link), { recursive: true });
        fs.symlinkSync(path.relative(path.dirname(link), byName.get(name)), link, 'dir');
      }
    }
  }
  return files;
}

/** The path of the pnpm the repository names (packageManager), fetched by npx once. */
async function pnpmBinary() {
  const { out } = await run('npx', ['--yes', '-p', PNPM, '-c', 'command -v pnpm'], {
    env: cleanEnv(),
    what: `locate ${PNPM}`,
    limitMs: INSTALL_LIMIT_MS,
  });
  const bin = out.trim().split('\n').pop();
  if (!bin || !fs.existsSync(bin)) fail(`locate ${PNPM}: got ${JSON.stringify(out.trim())}`);
  return bin;
}

/** This process's environment without npm's and pnpm's settings (a user's shell has none). */
function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|NODE_OPTIONS$|INIT_CWD$)/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', ...extra };
}

// ---------------------------------------------------------------------------------------------
// The registry.

async function startRegistry(dir, packageNames) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  fs.mkdirSync(path.join(dir, 'storage'), { recursive: true });
  // The workspace's own names are never proxied: a name the public registry also has (an
  // unscoped one) could otherwise be served from there.
  const own = packageNames
    .map(
      (name) =>
        `  '${name}':\n    access: $all\n    publish: $authenticated\n    unpublish: $authenticated\n`,
    )
    .join('');
  const config = [
    `storage: ${JSON.stringify(path.join(dir, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(path.join(dir, 'htpasswd'))}`,
    '    max_users: 1',
    'uplinks:',
    '  npmjs:',
    `    url: ${JSON.stringify(UPLINK)}`,
    '    timeout: 60s',
    '    maxage: 30m',
    'packages:',
    "  '@svc/*':",
    '    access: $all',
    '    publish: $authenticated',
    '    unpublish: $authenticated',
    own.trimEnd(),
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    '    proxy: npmjs',
    'web:',
    '  enable: false',
    'max_body_size: 100mb',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
  const configFile = path.join(dir, 'config.yaml');
  fs.writeFileSync(configFile, config);
  const verdaccio = createRequire(path.join(ROOT, 'package.json')).resolve(
    'verdaccio/bin/verdaccio',
  );
  const proc = start(
    process.execPath,
    [verdaccio, '--config', configFile, '--listen', `127.0.0.1:${port}`],
    { cwd: dir, env: cleanEnv() },
  );
  await waitFor(`${url}-/ping`, {
    limitMs: 30_000,
    what: 'the registry (Verdaccio)',
    alive: () => proc.child.exitCode === null,
  }).catch((err) => {
    console.log(proc.output());
    throw err;
  });
  return { url, proc };
}

/** A user made through the registry's API (npm's `adduser` request): its token. */
async function registryToken(url) {
  const name = 'rehearsal';
  const res = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      password: randomBytes(18).toString('base64url'),
      email: 'rehearsal@example.invalid',
    }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = await res.json().catch(() => ({}));
  if (res.status !== 201 || typeof body.token !== 'string')
    fail(`registry user: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

async function packument(url, name) {
  const res = await fetch(`${url}${name.replace('/', '%2f')}`, {
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) fail(`${name}: not in the registry (HTTP ${res.status})`);
  return res.json();
}

// ---------------------------------------------------------------------------------------------
// Tarballs.

/** The entries of a .tgz: `{path, size, body}` (paths without the leading `package/`). */
export function readTarball(bytes) {
  const tar = zlib.gunzipSync(bytes);
  const entries = [];
  let longName;
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const field = (from, length) =>
      header
        .subarray(from, from + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const prefix = field(345, 155);
    let name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const body = tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = body.toString('utf8').replace(/\0.*$/s, '');
      continue;
    }
    if (type === 'x' || type === 'g') continue; // pax headers
    if (longName) {
      name = longName;
      longName = undefined;
    }
    if (type === '0' || type === '' || type === '7') {
      entries.push({ path: name.replace(/^[^/]+\//, ''), size, body });
    }
  }
  return entries;
}

/** What a published tarball must not hold: tests, fixtures, source maps without their sources. */
export function tarballProblems(entries) {
  const problems = [];
  const paths = new Set(entries.map((e) => e.path));
  for (const entry of entries) {
    const p = entry.path;
    if (/(^|\/)[^/]*\.test\.[^/]+$/.test(p)) problems.push(`a test: ${p}`);
    else if (/(^|\/)(__tests__|test)\//.test(p)) problems.push(`a test folder: ${p}`);
    else if (/(^|\/)(__fixtures__|fixtures)\//.test(p)) problems.push(`a fixture: ${p}`);
    if (p.endsWith('.map')) {
      let map;
      try {
        map = JSON.parse(entry.body.toString('utf8'));
      } catch {
        problems.push(`a source map that does not parse: ${p}`);
        continue;
      }
      const sources = Array.isArray(map.sources) ? map.sources : [];
      const dir = path.posix.dirname(p);
      sources.forEach((source, i) => {
        if (typeof map.sourcesContent?.[i] === 'string') return; // the source is in the map
        const at = path.posix.normalize(path.posix.join(dir, map.sourceRoot ?? '', source));
        if (!paths.has(at)) problems.push(`a source map whose source is not in it: ${p} → ${at}`);
      });
    }
    const mapRef = /\/\/# sourceMappingURL=(?!data:)(\S+)\s*$/.exec(
      p.endsWith('.js') ? entry.body.toString('utf8').slice(-400) : '',
    );
    if (mapRef) {
      const at = path.posix.normalize(path.posix.join(path.posix.dirname(p), mapRef[1]));
      if (!paths.has(at)) problems.push(`a source map reference to a missing file: ${p} → ${at}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The user's side.

/** Installs into `dir`; fails on a non-zero exit or a `deprecated` warning. */
async function npmInstall(dir, env, what, args = ['install']) {
  const t0 = performance.now();
  const { out } = await run('npm', args, { cwd: dir, env, limitMs: INSTALL_LIMIT_MS, what });
  const ms = performance.now() - t0;
  const deprecated = out.split('\n').filter((line) => /\bdeprecated\b/i.test(line));
  if (deprecated.length > 0) {
    console.log(deprecated.join('\n'));
    fail(`${what}: npm printed a deprecated warning (${deprecated.length})`);
  }
  return { ms, out };
}

/** Bytes and files under `dir` (symlinks not followed), bounded by the tree itself. */
function treeSize(dir) {
  let bytes = 0;
  let files = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const at = stack.pop();
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const p = path.join(at, entry.name);
      if (entry.isDirectory()) stack.push(p);
      else if (entry.isFile()) {
        bytes += fs.statSync(p).size;
        files++;
      }
    }
  }
  return { bytes, files };
}

/** The packages npm installed under `dir` (its hidden lockfile), by `node_modules/...` path. */
function installedPackages(dir) {
  const lock = path.join(dir, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(lock)) return [];
  return Object.keys(readJson(lock).packages ?? {}).filter((k) => k.startsWith('node_modules/'));
}

function writeApp(dir, manifest, source) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, 'index.mjs'), source);
}

/** Runs an app's index.mjs; its last stdout line is JSON. */
async function runApp(dir, env, what) {
  const { out } = await run(process.execPath, ['index.mjs'], { cwd: dir, env, what });
  const line = out.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line);
  } catch {
    console.log(out);
    return fail(`${what}: printed no result`);
  }
}

const SIGN_UP = `
const email = process.env.REHEARSAL_EMAIL;
const res = await fetch(\`http://127.0.0.1:\${port}/auth/register\`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email, password: 'a long passphrase for the rehearsal' }),
});
const body = await res.json();
// PGlite is not installed; this says whether anything even tried to load it.
const loaded = Object.keys(createRequire(import.meta.url).cache);
const pgliteLoaded = loaded.some((file) => file.includes('@electric-sql'));
// And what asking for the embedded database says without it.
const embedded = await openDatabase({ memory: true }).then(
  (db) => db.close().then(() => 'opened'),
  (err) => \`\${err.code} \${err.problem}: \${err.message}\`,
);
console.log(JSON.stringify({
  status: res.status,
  email: body.user?.email,
  token: typeof body.token === 'string',
  pgliteLoaded,
  embedded,
}));
`;

const EXPRESS_APP = `import { once } from 'node:events';
import { createRequire } from 'node:module';
import express from 'express';
import { openDatabase } from '@svc/core';
import { createAuth } from '@svc/auth';
import { authRouter } from '@svc/auth/express';

const database = await openDatabase({ url: process.env.DATABASE_URL });
const auth = await createAuth({ jwtSecret: process.env.JWT_SECRET }, { database });
const app = express();
app.use('/auth', authRouter(auth));
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
const { port } = server.address();
${SIGN_UP}
server.close();
await auth.close();
await database.close();
`;

const HONO_APP = `import { createRequire } from 'node:module';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { openDatabase } from '@svc/core';
import { createAuth } from '@svc/auth';
import { authHandler } from '@svc/auth/hono';

const database = await openDatabase({ url: process.env.DATABASE_URL });
const auth = await createAuth({ jwtSecret: process.env.JWT_SECRET }, { database });
const app = new Hono();
app.all('/auth/*', authHandler(auth));
let server;
const port = await new Promise((resolve) => {
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
});
${SIGN_UP}
server.close();
await auth.close();
await database.close();
`;

const SMTP_APP = `import { SmtpMailer } from '@svc/smtp';

const mailer = new SmtpMailer({
  host: '127.0.0.1',
  port: Number(process.env.SMTP_PORT),
  from: 'svc rehearsal <rehearsal@example.invalid>',
});
const { accepted, messageId } = await mailer.send({
  to: 'ann@example.invalid',
  subject: 'Rehearsal',
  text: 'Hello from an installed @svc/smtp.',
});
console.log(JSON.stringify({ accepted, messageId }));
`;

const CLIENT_APP = `import { createClient } from '@svc/client';

const client = createClient({ url: process.env.SVC_URL });
console.log(JSON.stringify({ data: await client.query('select 1 + 1') }));
`;

/** An SMTP peer in this process (smtp-server from the repository's dev dependencies). */
async function startSmtpPeer() {
  const { SMTPServer } = createRequire(path.join(ROOT, 'packages', 'smtp', 'package.json'))(
    'smtp-server',
  );
  const messages = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let text = '';
      stream.on('data', (d) => {
        text += d;
      });
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), text });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  return { server, port: server.server.address().port, messages };
}

/** A database of its own on the server of `url`, dropped at the end. */
async function temporaryDatabase(url) {
  const pg = createRequire(path.join(ROOT, 'packages', 'core', 'package.json'))('pg');
  const name = `svc_rehearsal_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch (err) {
    fail(`PostgreSQL at the rehearsal URL: ${err.message}`);
  } finally {
    await admin.end().catch(() => undefined);
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------

const cleanups = [];

async function main() {
  const databaseUrl = process.env.SVC_REHEARSAL_DATABASE_URL || process.env.SVC_TEST_DATABASE_URL;
  if (!databaseUrl)
    fail(
      'no PostgreSQL: set SVC_REHEARSAL_DATABASE_URL (or SVC_TEST_DATABASE_URL) to a server where a database may be created',
    );

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-rehearsal-'));
  cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const publicPackages = workspacePackages(ROOT).filter((p) => p.public);

  // The copy, then changeset version in it.
  const repo = path.join(tmp, 'repo');
  const files = copyCheckout(repo);
  for (const pkg of workspacePackages(repo).filter((p) => p.public)) {
    // Provenance needs a CI provider's identity; this registry is local.
    if (pkg.manifest.publishConfig?.provenance !== undefined) {
      delete pkg.manifest.publishConfig.provenance;
      fs.writeFileSync(
        path.join(pkg.dir, 'package.json'),
        `${JSON.stringify(pkg.manifest, null, 2)}\n`,
      );
    }
  }
  log(`copied the checkout (${files} files and the built dist/ folders) to ${repo}`);
  const changeset = createRequire(path.join(ROOT, 'package.json')).resolve(
    '@changesets/cli/bin.js',
  );
  const pnpm = await pnpmBinary();
  const bin = path.join(tmp, 'bin');
  fs.mkdirSync(bin);
  fs.symlinkSync(pnpm, path.join(bin, 'pnpm')); // changeset publish runs `pnpm publish`
  const devEnv = cleanEnv({ PATH: `${bin}${path.delimiter}${process.env.PATH}` });
  await run(process.execPath, [changeset, 'version'], {
    cwd: repo,
    env: devEnv,
    what: 'changeset version',
  });
  const versions = new Map(
    workspacePackages(repo)
      .filter((p) => p.public)
      .map((p) => [p.manifest.name, p.manifest.version]),
  );
  const noChangelog = workspacePackages(repo)
    .filter((p) => p.public && !fs.existsSync(path.join(p.dir, 'CHANGELOG.md')))
    .map((p) => p.manifest.name);
  if (noChangelog.length > 0) fail(`changeset version wrote no CHANGELOG.md for ${noChangelog}`);
  log(
    `changeset version: ${[...versions].map(([n, v]) => `${n}@${v}`).join(', ')}; a CHANGELOG.md each`,
  );

  // The registry and the publish.
  const registry = await startRegistry(
    path.join(tmp, 'registry'),
    publicPackages.map((p) => p.manifest.name).filter((n) => !n.startsWith('@svc/')),
  );
  cleanups.push(() => stop(registry.proc.child));
  const token = await registryToken(registry.url);
  const host = registry.url.replace(/^http:/, '');
  const publishRc = path.join(tmp, 'publish.npmrc');
  fs.writeFileSync(publishRc, `registry=${registry.url}\n${host}:_authToken=${token}\n`);
  log(`Verdaccio on ${registry.url} (workspace packages local only, the rest from ${UPLINK})`);
  const publishEnv = {
    ...devEnv,
    npm_config_userconfig: publishRc,
    npm_config_registry: registry.url,
    npm_config_provenance: 'false',
    npm_config_loglevel: 'warn',
  };
  const t0 = performance.now();
  const published = await run(process.execPath, [changeset, 'publish', '--no-git-tag'], {
    cwd: repo,
    env: publishEnv,
    limitMs: INSTALL_LIMIT_MS,
    what: 'changeset publish',
  });
  if (!/packages published successfully/.test(published.out)) {
    console.log(published.out);
    fail('changeset publish: published nothing');
  }
  log(`changeset publish: ${versions.size} packages in ${seconds(performance.now() - t0)}`);

  // What each tarball holds.
  const rows = [];
  const problems = [];
  for (const [name, version] of versions) {
    const doc = await packument(registry.url, name);
    const meta = doc.versions?.[version];
    if (!meta) fail(`${name}@${version}: not published`);
    const deps = Object.keys(meta.dependencies ?? {});
    const workspaceRange = deps.filter((d) =>
      String(meta.dependencies[d]).startsWith('workspace:'),
    );
    if (workspaceRange.length > 0)
      fail(`${name}: published with workspace: ranges (${workspaceRange})`);
    const res = await fetch(meta.dist.tarball, { signal: AbortSignal.timeout(30_000) });
    if (!res.ok) fail(`${name}: tarball HTTP ${res.status}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    const entries = readTarball(bytes);
    const unpacked = entries.reduce((sum, e) => sum + e.size, 0);
    rows.push({
      name,
      version,
      packed: bytes.length,
      unpacked,
      files: entries.length,
      deps: deps.length,
      changelog: entries.some((e) => e.path === 'CHANGELOG.md'),
    });
    for (const p of tarballProblems(entries)) problems.push(`${name}: ${p}`);
  }
  console.log('\npackage                  packed   unpacked  files  deps  CHANGELOG.md');
  for (const r of rows) {
    console.log(
      `${`${r.name}@${r.version}`.padEnd(22)} ${kilobytes(r.packed).padStart(8)} ${kilobytes(r.unpacked).padStart(10)} ${String(r.files).padStart(6)} ${String(r.deps).padStart(5)}  ${r.changelog ? 'in the tarball' : 'not in the tarball'}`,
    );
  }
  console.log('');
  const withoutChangelog = rows.filter((r) => !r.changelog).map((r) => r.name);
  if (withoutChangelog.length > 0)
    problems.push(`CHANGELOG.md is not in the tarball of ${withoutChangelog.join(', ')}`);
  if (problems.length > 0) {
    for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
    if (problems.length > 20) console.log(`  ... and ${problems.length - 20} more`);
    fail(`${problems.length} problem(s) with what the tarballs hold`);
  }
  log('tarballs: no tests, no fixtures, no source map without its sources');

  // The user's side: an empty cache, a .npmrc naming only the registry.
  const home = path.join(tmp, 'user');
  fs.mkdirSync(home);
  const userRc = path.join(home, '.npmrc');
  fs.writeFileSync(userRc, `registry=${registry.url}\n`);
  const userEnv = cleanEnv({
    HOME: home,
    npm_config_userconfig: userRc,
    npm_config_globalconfig: path.join(home, 'no-global-npmrc'),
    npm_config_cache: path.join(tmp, 'npm-cache'),
    npm_config_loglevel: 'warn',
    npm_config_audit: 'false',
  });
  const userDir = (name) => {
    const dir = path.join(home, name);
    fs.mkdirSync(dir);
    fs.copyFileSync(userRc, path.join(dir, '.npmrc'));
    return dir;
  };

  // 1. npx @svc/cli serve, on the embedded database.
  const serveDir = userDir('serve');
  const cliVersion = versions.get('@svc/cli');
  const serverVersion = versions.get('@svc/server');
  const cliInstall = await npmInstall(serveDir, userEnv, 'npx @svc/cli', [
    'exec',
    '--yes',
    '--',
    '@svc/cli',
    '--version',
  ]);
  if (!cliInstall.out.includes(cliVersion))
    fail(`npx @svc/cli --version: expected ${cliVersion}, got ${cliInstall.out.trim()}`);
  const npxDirs = fs
    .readdirSync(path.join(tmp, 'npm-cache', '_npx'))
    .map((d) => path.join(tmp, 'npm-cache', '_npx', d));
  if (npxDirs.length !== 1) fail(`npx @svc/cli: expected one npx folder, found ${npxDirs.length}`);
  const cliTree = treeSize(path.join(npxDirs[0], 'node_modules'));
  const cliPackages = installedPackages(npxDirs[0]).length;
  log(
    `@svc/cli install (npx, empty cache): ${cliPackages} packages, ${megabytes(cliTree.bytes)} (${cliTree.files} files) in ${seconds(cliInstall.ms)}`,
  );
  const port = await freePort();
  const serve = start('npx', ['--yes', '@svc/cli', 'serve', '--port', String(port)], {
    cwd: serveDir,
    env: userEnv,
  });
  cleanups.push(() => stop(serve.child));
  const serverUrl = `http://127.0.0.1:${port}`;
  const serving = waitFor(`${serverUrl}/`, {
    limitMs: START_LIMIT_MS,
    what: 'npx @svc/cli serve',
    alive: () => serve.child.exitCode === null,
  });
  serving.catch(() => undefined); // awaited below, after the installs it overlaps

  // 2-4. The apps' installs, meanwhile.
  const auth = readJson(path.join(ROOT, 'packages', 'auth', 'package.json')).devDependencies;
  const svcDeps = (...names) => Object.fromEntries(names.map((n) => [n, versions.get(n)]));
  const expressDir = userDir('express-app');
  writeApp(
    expressDir,
    {
      name: 'rehearsal-express',
      private: true,
      type: 'module',
      dependencies: { ...svcDeps('@svc/auth', '@svc/core'), express: auth.express },
    },
    EXPRESS_APP,
  );
  const honoDir = userDir('hono-app');
  writeApp(
    honoDir,
    {
      name: 'rehearsal-hono',
      private: true,
      type: 'module',
      dependencies: {
        ...svcDeps('@svc/auth', '@svc/core'),
        hono: auth.hono,
        '@hono/node-server': auth['@hono/node-server'],
      },
    },
    HONO_APP,
  );
  const smtpDir = userDir('smtp-app');
  writeApp(
    smtpDir,
    { name: 'rehearsal-smtp', private: true, type: 'module', dependencies: svcDeps('@svc/smtp') },
    SMTP_APP,
  );
  const clientDir = userDir('client-app');
  writeApp(
    clientDir,
    {
      name: 'rehearsal-client',
      private: true,
      type: 'module',
      dependencies: svcDeps('@svc/client'),
    },
    CLIENT_APP,
  );
  const installs = await Promise.all(
    [
      ['express app', expressDir],
      ['hono app', honoDir],
      ['smtp app', smtpDir],
      ['client app', clientDir],
    ].map(async ([what, dir]) => {
      const { ms } = await npmInstall(dir, userEnv, `npm install (${what})`);
      const n = installedPackages(dir).length;
      return `${what} ${n} package${n === 1 ? '' : 's'} in ${seconds(ms)}`;
    }),
  );
  log(`installed (side by side): ${installs.join(', ')}`);

  // 2. @svc/auth from Express and Hono, on PostgreSQL, without PGlite.
  const database = await temporaryDatabase(databaseUrl);
  cleanups.push(() => database.drop());
  let embeddedSays = '';
  for (const [what, dir] of [
    ['Express', expressDir],
    ['Hono', honoDir],
  ]) {
    if (fs.existsSync(path.join(dir, 'node_modules', '@electric-sql', 'pglite')))
      fail(`${what} app: @electric-sql/pglite was installed with @svc/auth`);
    const email = `${what.toLowerCase()}-${randomBytes(4).toString('hex')}@example.invalid`;
    const result = await runApp(
      dir,
      {
        ...userEnv,
        DATABASE_URL: database.url,
        JWT_SECRET: randomBytes(32).toString('hex'),
        REHEARSAL_EMAIL: email,
      },
      `${what} app`,
    );
    if (result.status !== 201 || result.email !== email || !result.token)
      fail(`${what} app: sign-up answered ${JSON.stringify(result)}`);
    if (result.pgliteLoaded) fail(`${what} app: something tried to load PGlite`);
    if (!String(result.embedded).startsWith('SERVICE_UNAVAILABLE embedded-not-installed: '))
      fail(`${what} app: the embedded database without PGlite gave ${result.embedded}`);
    embeddedSays = result.embedded;
    log(`${what} app: @svc/auth signed ${email} up on PostgreSQL (201), PGlite not installed`);
  }

  log(`without PGlite, openDatabase({ memory: true }) says: ${embeddedSays}`);

  // 3. @svc/smtp: nothing but itself. `npm ls --all` names the optional peers of its
  // `@svc/smtp/testing` entry (smtp-server) as UNMET OPTIONAL: listed, never installed.
  const ls = await run('npm', ['ls', '--all', '--json'], {
    cwd: smtpDir,
    env: userEnv,
    what: 'npm ls (smtp app)',
  });
  const tree = JSON.parse(ls.out.slice(ls.out.indexOf('{')));
  const top = Object.keys(tree.dependencies ?? {});
  const smtpManifest = readJson(path.join(smtpDir, 'node_modules', '@svc', 'smtp', 'package.json'));
  const installedBelow = Object.entries(tree.dependencies?.['@svc/smtp']?.dependencies ?? {})
    .filter(([name, dep]) => dep.version || !smtpManifest.peerDependenciesMeta?.[name]?.optional)
    .map(([name]) => name);
  const onDisk = installedPackages(smtpDir);
  if (
    top.join() !== '@svc/smtp' ||
    installedBelow.length > 0 ||
    onDisk.join() !== 'node_modules/@svc/smtp'
  )
    fail(`@svc/smtp installs more than itself: ${JSON.stringify({ top, installedBelow, onDisk })}`);
  const lsText = await run('npm', ['ls', '--all'], { cwd: smtpDir, env: userEnv, check: false });
  console.log(lsText.out.trimEnd().replace(/^/gm, '    '));
  const smtp = await startSmtpPeer();
  cleanups.push(() => new Promise((resolve) => smtp.server.close(resolve)));
  const sent = await runApp(smtpDir, { ...userEnv, SMTP_PORT: String(smtp.port) }, 'smtp app');
  const got = smtp.messages[0];
  if (
    sent.accepted?.join() !== 'ann@example.invalid' ||
    got?.to.join() !== 'ann@example.invalid' ||
    !/^Subject: Rehearsal$/m.test(got.text)
  )
    fail(`smtp app: ${JSON.stringify({ sent, got })}`);
  log('@svc/smtp: installs alone (no dependency installed), delivered a message to a local peer');

  // 1 (again) and 4: the server answers, and the client queries it.
  const root = JSON.parse(await serving);
  if (root.name !== 'svc' || root.version !== serverVersion)
    fail(`GET / answered ${JSON.stringify(root)}, expected version ${serverVersion}`);
  log(`npx @svc/cli serve: GET / answered ${JSON.stringify(root)}`);
  const queried = await runApp(clientDir, { ...userEnv, SVC_URL: serverUrl }, 'client app');
  if (JSON.stringify(queried.data) !== '[2]')
    fail(`client app: select 1 + 1 gave ${JSON.stringify(queried)}`);
  log(`@svc/client: select 1 + 1 → ${JSON.stringify(queried.data)}`);

  // 5. The starter: `npm create svc my-app`, then the next command it prints.
  const createDir = userDir('create');
  const createVersion = versions.get('create-svc');
  if (!createVersion) fail('create-svc was not published');
  const created = await run('npm', ['create', `svc@${createVersion}`, 'my-app'], {
    cwd: createDir,
    env: userEnv,
    limitMs: INSTALL_LIMIT_MS,
    what: 'npm create svc my-app',
  });
  const app = path.join(createDir, 'my-app');
  const made = ['dbschema/default.esdl', 'svc.toml', '.gitignore'].filter((f) =>
    fs.existsSync(path.join(app, f)),
  );
  if (made.length !== 3 || !created.out.includes('npx @svc/cli migration create'))
    fail(`npm create svc my-app: made ${made.join(', ') || 'nothing'}; said ${created.out.trim()}`);
  const next = await run('npx', ['--yes', '@svc/cli', 'migration', 'create'], {
    cwd: app,
    env: userEnv,
    limitMs: INSTALL_LIMIT_MS,
    what: 'npx @svc/cli migration create (in my-app)',
  });
  const migrations = fs.existsSync(path.join(app, 'dbschema', 'migrations'))
    ? fs.readdirSync(path.join(app, 'dbschema', 'migrations'))
    : [];
  if (migrations.length !== 1) fail(`npx @svc/cli migration create: ${next.out.trim()}`);
  log(
    `npm create svc my-app: ${made.join(', ')}; then npx @svc/cli migration create wrote ${migrations[0]}`,
  );
}

async function cleanup() {
  for (const step of cleanups.reverse()) {
    try {
      await Promise.race([step(), new Promise((resolve) => setTimeout(resolve, 20_000))]);
    } catch (err) {
      console.log(`cleanup: ${err.message}`);
    }
  }
  cleanups.length = 0;
  for (const child of running) killGroup(child, 'SIGKILL');
}

let finished = false;
async function finish(error) {
  if (finished) return;
  finished = true;
  await cleanup();
  const total = seconds(performance.now() - started);
  if (error) {
    const what = error instanceof RehearsalError ? error.message : (error?.stack ?? String(error));
    console.log(`(${total})`);
    console.log(`release rehearsal: FAILED (${what})`);
    process.exit(1);
  }
  console.log(`(${total})`);
  console.log('release rehearsal: OK');
  process.exit(0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const watchdog = setTimeout(
    () => finish(new RehearsalError(`did not finish within ${seconds(OVERALL_LIMIT_MS)}`)),
    OVERALL_LIMIT_MS,
  );
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => finish(new RehearsalError(`stopped by ${signal}`)));
  main().then(
    () => {
      clearTimeout(watchdog);
      return finish();
    },
    (err) => {
      clearTimeout(watchdog);
      return finish(err);
    },
  );
}
