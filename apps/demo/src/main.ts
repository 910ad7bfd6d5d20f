/**
 * The svc demo: a notes app on svc, run the way an application embeds it. One Node process, one
 * origin: it serves the app's pages and files (built by `build.mjs` into `dist/public`) and
 * hands every other request to svc (`createServer` from @svc/server: `/query`, `/auth/*`, the
 * hosted pages, the development inbox `/_/mail`, the admin UI `/_/`).
 *
 * - The schema is `dbschema/*.esdl`, migrated at start; its access policies are what hide one
 *   user's notes from another (the page asks for every Note).
 * - The database is embedded PGlite in `./.svc/demo-data` unless told otherwise.
 * - Auth is on: passwords, magic links (emailed to the development inbox, their hosted page
 *   sending the browser back here), passkeys (WebAuthn for this origin) and TOTP.
 * - Passkeys need a secure context with a domain name: open the app at `http://localhost:<port>`
 *   (what `origin` says), not at `127.0.0.1`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createServer, type CreateServerOptions, type SvcServer } from '@svc/server';

/** Where the built pages are, and where the schema is (resolved from the package root). */
const ROOT = path.resolve(__dirname, '..');
export const PUBLIC_DIR = path.join(ROOT, 'dist', 'public');
export const SCHEMA_DIR = path.join(ROOT, 'dbschema');

/** The app's own paths: each answers the page (the app routes in the browser). */
export const PAGES = ['/', '/notes', '/account'] as const;

/** The pages' Content-Security-Policy: the app's own files and its own origin, nothing else. */
export const DEMO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** A loopback address as a Host header (`127.0.0.1:3000`, `[::1]:3000`). */
const LOOPBACK_HOST = /^(127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/;

export interface DemoOptions {
  /** @default 3000 (0: any free port) */
  readonly port?: number;
  /** @default '127.0.0.1' (loopback only) */
  readonly host?: string;
  /** @default { dataDir: './.svc/demo-data' } */
  readonly database?: CreateServerOptions['database'];
  /**
   * Signs the tokens. @default `SVC_JWT_SECRET`, else one made on first start and kept beside an
   * embedded database (`<dataDir>.jwt-secret`) so sessions outlive a restart.
   */
  readonly jwtSecret?: string;
  /** @default 'info' */
  readonly logLevel?: CreateServerOptions['logLevel'];
  /** Auth settings over the demo's own (tests lower `bcryptRounds`). */
  readonly authConfig?: Record<string, unknown>;
}

export interface Demo {
  readonly svc: SvcServer;
  /** `http://localhost:<port>`: the origin passkeys and the magic links are made for. */
  readonly origin: string;
  close(): Promise<void>;
}

interface StaticFile {
  readonly body: Buffer;
  readonly type: string;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The built files, read once; a clear error when the app was not built. */
function loadPublic(): { index: StaticFile; assets: Map<string, StaticFile> } {
  const manifestPath = path.join(PUBLIC_DIR, 'manifest.json');
  if (!fs.existsSync(manifestPath))
    throw new Error(`the demo's pages are not built (${manifestPath} is missing): run pnpm build`);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as {
    index: string;
    assets: string[];
  };
  const read = (name: string): StaticFile => ({
    body: fs.readFileSync(path.join(PUBLIC_DIR, name)),
    type: TYPES[path.extname(name)] ?? 'application/octet-stream',
  });
  return {
    index: read(manifest.index),
    assets: new Map(manifest.assets.map((name) => [name, read(name)])),
  };
}

function send(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  file: StaticFile,
  cache: string,
): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', file.type);
  res.setHeader('Content-Length', file.body.length);
  res.setHeader('Cache-Control', cache);
  res.setHeader('Content-Security-Policy', DEMO_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.end(req.method === 'HEAD' ? undefined : file.body);
}

/** The SDL of `dbschema/*.esdl`, concatenated in name order (as `svc serve` reads a folder). */
function readSchema(): string {
  return fs
    .readdirSync(SCHEMA_DIR)
    .filter((name) => name.endsWith('.esdl'))
    .sort()
    .map((name) => fs.readFileSync(path.join(SCHEMA_DIR, name), 'utf8'))
    .join('\n');
}

/** The given or environment's secret, else one kept beside the embedded database. */
function jwtSecretFor(options: DemoOptions, database: CreateServerOptions['database']): string {
  const given = options.jwtSecret ?? process.env.SVC_JWT_SECRET;
  if (given) return given;
  const dataDir = database && 'dataDir' in database ? database.dataDir : undefined;
  if (!dataDir) return crypto.randomBytes(32).toString('base64url');
  const file = `${path.resolve(dataDir)}.jwt-secret`;
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const secret = crypto.randomBytes(32).toString('base64url');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * Starts the demo: listens first (the origin's port is part of the auth settings), then starts
 * svc behind the app's own files.
 */
export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const files = loadPublic();
  let svc: SvcServer | undefined;
  const front = http.createServer((req, res) => {
    if (svc) return handle(svc, req, res);
    // Listening already, svc still starting (migrating the schema): say so rather than hang.
    const body = JSON.stringify({
      code: 'SERVICE_UNAVAILABLE',
      error: 'SERVICE_UNAVAILABLE: the demo is starting; try again in a moment',
    });
    res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '2' });
    res.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => {
      front.off('error', reject);
      resolve();
    });
  });
  const { port } = front.address() as AddressInfo;
  const origin = `http://localhost:${port}`;
  const database = options.database ?? { dataDir: './.svc/demo-data' };
  let started: SvcServer;
  try {
    started = await createServer({
      // The demo's settings are its own: the environment (DATABASE_URL, ...) does not change them.
      env: {},
      database,
      schema: readSchema(),
      logLevel: options.logLevel ?? 'info',
      enableAuth: true,
      // Every data-plane route wants a signed-in caller (the pages query only when signed in).
      requireAuth: true,
      jwtSecret: jwtSecretFor(options, database),
      // Loopback callers see the emails auth would send at /_/mail (no SMTP server here).
      devMail: process.env.NODE_ENV === 'production' ? false : undefined,
      authConfig: {
        emailBaseUrl: origin,
        // The emailed link opens svc's hosted page, whose "Sign in" comes back to the notes.
        magicLinkUrlTemplate: `${origin}/auth/magic?token={token}&redirectTo=${encodeURIComponent(`${origin}/notes`)}`,
        redirectAllowList: [origin],
        webauthn: { origin, rpId: 'localhost', rpName: 'svc notes' },
        branding: { appName: 'svc notes', brandColor: '#1f4e8c' },
        ...options.authConfig,
      },
    });
  } catch (err) {
    front.close();
    throw err;
  }
  // The app's own paths first; every other request is svc's.
  function handle(svc: SvcServer, req: http.IncomingMessage, res: http.ServerResponse): void {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    const get = req.method === 'GET' || req.method === 'HEAD';
    if (get && (PAGES as readonly string[]).includes(pathname)) {
      // Opened by address (127.0.0.1): to the origin passkeys and links are made for.
      if (LOOPBACK_HOST.test(req.headers.host ?? '')) {
        res.writeHead(308, { Location: `${origin}${req.url ?? '/'}`, 'Content-Length': 0 });
        return void res.end();
      }
      return send(req, res, files.index, 'no-cache');
    }
    if (get && pathname.startsWith('/assets/')) {
      const file = files.assets.get(pathname.slice('/assets/'.length));
      if (file) return send(req, res, file, 'public, max-age=31536000, immutable');
    }
    svc.app(req, res);
  }
  svc = started;
  let closing: Promise<void> | undefined;
  return {
    svc: started,
    origin,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          front.close(() => resolve());
          front.closeIdleConnections();
          // A browser's kept-alive connections: given two seconds to finish, then closed.
          setTimeout(() => front.closeAllConnections(), 2000).unref();
        });
        await started.close();
      })();
      return closing;
    },
  };
}

if (require.main === module) {
  // PORT picks the port (3000), DATABASE_URL a PostgreSQL database in place of the embedded one.
  const { PORT, DATABASE_URL } = process.env;
  startDemo({
    ...(PORT ? { port: Number(PORT) } : {}),
    ...(DATABASE_URL ? { database: { url: DATABASE_URL } } : {}),
  }).then(
    (demo) => {
      demo.svc.logger.info(
        `svc notes demo at ${demo.origin}/ (the emails it would send: ${demo.origin}/_/mail)`,
      );
      const stop = () => void demo.close().then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    },
  );
}
