import { parseMailbox, isValidDomain, type Mailbox } from './address';
import { SmtpError } from './errors';

/** Where the mailer writes its warnings (and the `NoopMailer` its messages). `console` fits. */
export interface MailerLogger {
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
}

/** Receives each line of the SMTP conversation, AUTH payloads masked, without the CRLF. */
export type TranscriptLogger = (direction: 'client' | 'server', line: string) => void;

/**
 * How `SmtpMailer` reaches the server. The names and defaults are those of `authConfig.smtp`;
 * `tls`, `logger` and `transcript` are additions.
 *
 * @example
 * const config: SmtpConfig = {
 *   host: 'smtp.example.com',
 *   from: 'Example <no-reply@example.com>',
 *   auth: { user: 'no-reply@example.com', pass: 'app password' },
 *   replyTo: 'support@example.com',
 * };
 */
export interface SmtpConfig {
  /** Server name or IP address. Required. */
  host: string;
  /** Default From (`no-reply@example.com` or `Name <no-reply@example.com>`), overridable per message. Required. */
  from: string;
  /**
   * TCP port.
   * @default 587, or 465 when `secure`
   */
  port?: number;
  /**
   * `true`: implicit TLS from the first byte (port 465). `false`: plain TCP, then STARTTLS when
   * the server advertises it.
   * @default false
   */
  secure?: boolean;
  /** Credentials: AUTH PLAIN when the server advertises it, else AUTH LOGIN. Never sent unencrypted except to a loopback address. */
  auth?: { user: string; pass: string };
  /**
   * The name this client gives in EHLO/HELO, and the domain of Message-IDs.
   * @default 'localhost'
   */
  hostname?: string;
  /** Reply-To header added to every message. */
  replyTo?: string;
  /**
   * Upper bound on one whole send: connect, greeting, every command and the data.
   * @default 30000
   */
  timeoutMs?: number;
  /**
   * Accepted for compatibility with other mailers' settings; `false` only logs a warning at construction.
   * Certificates are always validated: use `tls.ca` to trust a private CA.
   * @default true
   */
  tlsRejectUnauthorized?: boolean;
  /** TLS settings. `ca`: PEM certificate(s) of the CA(s) to trust instead of Node's defaults. */
  tls?: { ca?: string | Buffer | ReadonlyArray<string | Buffer> };
  /**
   * Receives warnings.
   * @default console
   */
  logger?: MailerLogger;
  /** Receives the SMTP conversation line by line, tagged `client` or `server`; credentials are masked. */
  transcript?: TranscriptLogger;
}

/** The configuration with defaults applied and every field validated. */
export interface ResolvedConfig {
  readonly host: string;
  readonly port: number;
  readonly secure: boolean;
  readonly from: Mailbox;
  readonly auth: { readonly user: string; readonly pass: string } | undefined;
  readonly hostname: string;
  readonly replyTo: Mailbox | undefined;
  readonly timeoutMs: number;
  readonly ca: string | Buffer | Array<string | Buffer> | undefined;
  readonly logger: MailerLogger;
  readonly transcript: TranscriptLogger | undefined;
  /** The domain of generated Message-IDs. */
  readonly messageIdDomain: string;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/** The longest timer Node can arm (about 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;

function fail(message: string): never {
  throw new SmtpError('ECONFIG', `invalid SMTP config: ${message}`);
}

function optionalBoolean(value: unknown, name: string): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') fail(`${name} must be a boolean`);
  return value;
}

/** Validates a config and fills in the defaults; throws an `ECONFIG` SmtpError naming the bad field. */
export function resolveConfig(config: SmtpConfig): ResolvedConfig {
  if (typeof config !== 'object' || config === null) fail('expected a config object');
  const { host } = config;
  if (typeof host !== 'string' || host.trim() === '') fail('host is required');
  if (/[\s\x00-\x1f\x7f]/.test(host))
    fail('host must not contain white space or control characters');
  if (config.from === undefined) fail('from is required');
  const from = parseMailbox(config.from, 'invalid SMTP config: from', 'ECONFIG');
  const secure = optionalBoolean(config.secure, 'secure') ?? false;
  const port = config.port ?? (secure ? 465 : 587);
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    fail(`port must be an integer from 1 to 65535, got ${String(port)}`);
  }
  let auth: ResolvedConfig['auth'];
  if (config.auth !== undefined) {
    const { user, pass } = (config.auth ?? {}) as { user?: unknown; pass?: unknown };
    if (typeof user !== 'string' || user === '') fail('auth.user must be a non-empty string');
    if (typeof pass !== 'string') fail('auth.pass must be a string');
    if (user.includes('\0') || pass.includes('\0'))
      fail('auth.user and auth.pass must not contain NUL characters');
    auth = { user, pass };
  }
  const hostname = config.hostname ?? 'localhost';
  if (typeof hostname !== 'string' || !isValidDomain(hostname)) {
    fail(
      `hostname must be a domain name or an address literal such as [192.0.2.1], got ${JSON.stringify(hostname)}`,
    );
  }
  const replyTo =
    config.replyTo === undefined
      ? undefined
      : parseMailbox(config.replyTo, 'invalid SMTP config: replyTo', 'ECONFIG');
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (
    typeof timeoutMs !== 'number' ||
    !Number.isFinite(timeoutMs) ||
    timeoutMs <= 0 ||
    timeoutMs > MAX_TIMEOUT_MS
  ) {
    fail(
      `timeoutMs must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS}, got ${String(timeoutMs)}`,
    );
  }
  optionalBoolean(config.tlsRejectUnauthorized, 'tlsRejectUnauthorized');
  const ca = config.tls?.ca;
  const isPem = (value: unknown): value is string | Buffer =>
    typeof value === 'string' || Buffer.isBuffer(value);
  if (ca !== undefined && !isPem(ca) && !(Array.isArray(ca) && ca.every(isPem))) {
    fail('tls.ca must be a PEM string, a Buffer, or an array of them');
  }
  const logger = config.logger ?? console;
  if (typeof logger.warn !== 'function' || typeof logger.info !== 'function') {
    fail('logger must have info and warn functions');
  }
  if (config.transcript !== undefined && typeof config.transcript !== 'function')
    fail('transcript must be a function');
  const fromDomain = from.address.slice(from.address.lastIndexOf('@') + 1);
  return {
    host,
    port,
    secure,
    from,
    auth,
    hostname,
    replyTo,
    timeoutMs,
    ca: Array.isArray(ca)
      ? [...(ca as ReadonlyArray<string | Buffer>)]
      : (ca as string | Buffer | undefined),
    logger,
    transcript: config.transcript,
    messageIdDomain:
      config.hostname !== undefined && hostname !== 'localhost' ? hostname : fromDomain,
  };
}
