/**
 * `svc login` and `svc logout`: a superuser's sign-in for the commands that work through a
 * running server (migrate, migration status/log, query, admin). `login` signs in with a password
 * (`POST /auth/login`, then `/auth/mfa/totp/login` or `/auth/mfa/recovery-codes/login` when the
 * server asks for a second factor), refuses anyone but a superuser (their session is ended at
 * once, nothing stored), and keeps the tokens for that server's URL in the project's
 * `.svc/credentials.json` (credentials.ts says what holds). `logout` ends the session on the
 * server (`POST /auth/logout`) and forgets the tokens. Neither prints a token.
 */
import readline from 'node:readline/promises';
import { readDataDirLock } from '@svc/core';
import {
  CREDENTIALS_FILE,
  expiresSoon,
  saveLogin,
  serverUrl,
  storedLogin,
  storedUrls,
  withCredentialsLock,
  type StoredLogin,
} from '../../credentials';
import { DATABASE_FLAGS, resolveCommandConfig } from '../../database-options';
import { ExitError, parseCommandArgs, type CliIo } from '../../io';
import { secretPrompter, type SecretInput } from '../../read-secret';
import { answerError, callServer, refreshLogin, type ServerAnswer } from '../../through-server';

export const LOGIN_USAGE = `Usage: svc login [--email <email>] [--url <url>]

Signs in to a running svc server as a superuser and keeps the tokens for this project in
${CREDENTIALS_FILE} (mode 600; .svc/ is never committed), for that server's URL only. Then
\`svc migrate\`, \`svc migration status|log\`, \`svc query\` and \`svc admin\` work through that server
without a service key; an expired access token is refreshed. \`svc logout\` signs out.

The password is asked for on a terminal (nothing is echoed) or read as one line from standard
input; when the account has TOTP, the code (or a recovery code) is asked next, or read as the
next line: printf '%s\\n%s\\n' "$PW" "$CODE" | svc login --email root@example.com

Options:
  --email <email>   the superuser's email (asked on a terminal when not given)
  --url <url>       the server (default: the svc serve holding this project's data folder)
  --data-dir <dir>  embedded database folder whose server to sign in to (default ./.svc/data)
  --config <file>   TOML config file (default ./svc.toml when it exists)
  -h, --help        show this help`;

export const LOGOUT_USAGE = `Usage: svc logout [--url <url>]

Ends the session \`svc login\` stored for a server (the server revokes it) and deletes its tokens
from ${CREDENTIALS_FILE}.

Options:
  --url <url>       the server (default: the one signed in to, or the svc serve holding this
                    project's data folder)
  --data-dir <dir>  embedded database folder (default ./.svc/data)
  --config <file>   TOML config file (default ./svc.toml when it exists)
  -h, --help        show this help`;

export interface LoginOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly io: CliIo;
  /** Where the password (and a TOTP code) is read. @default process.stdin */
  readonly stdin?: SecretInput;
}

const FLAGS = {
  url: { type: 'string' },
  'database-url': DATABASE_FLAGS['database-url'],
  'data-dir': DATABASE_FLAGS['data-dir'],
  config: DATABASE_FLAGS.config,
  help: { type: 'boolean', short: 'h' },
} as const;

/** `svc login`: resolves to the exit code. */
export async function loginCommand(argv: readonly string[], opts: LoginOptions): Promise<number> {
  const { values } = parseCommandArgs(argv, { ...FLAGS, email: { type: 'string' } }, LOGIN_USAGE);
  if (values.help) {
    opts.io.stdout(LOGIN_USAGE);
    return 0;
  }
  const url = values.url !== undefined ? serverUrl(values.url) : holdingServerUrl(values, opts);
  if (url === undefined)
    throw new ExitError(
      2,
      "no svc serve holds this project's data folder: start it, or give the server's address with --url",
    );
  const stdin = opts.stdin ?? process.stdin;
  const email = values.email ?? (await askEmail(stdin));
  if (email.trim() === '') throw new ExitError(2, 'svc login needs an email (--email)');
  const ask = secretPrompter(stdin, process.stderr);
  const password = await ask('Password', false);
  if (password === '')
    throw new ExitError(2, 'svc login needs a password (the prompt, or one line on stdin)');

  const unreachable = (why: string) => `cannot reach ${url} (${why}); is svc serve running?`;
  const post = (route: string, body: unknown, bearer?: string) =>
    callServer(url, 'POST', route, body, bearer, unreachable);
  let answer = await post('/auth/login', { email: email.trim(), password });
  const challenge = answer.json as { mfaRequired?: unknown; challengeToken?: unknown } | undefined;
  if (answer.status === 200 && challenge?.mfaRequired === true) {
    const code = (await ask('TOTP code (or a recovery code)', false)).trim();
    if (code === '') throw new ExitError(2, 'the account has TOTP: svc login needs its code');
    answer = await post(
      /^\d{6}$/.test(code) ? '/auth/mfa/totp/login' : '/auth/mfa/recovery-codes/login',
      { challengeToken: challenge.challengeToken, code },
    );
  }
  const signedIn = signInResult(answer, url);
  if (!claimsRoles(signedIn.token).includes('superuser')) {
    // Not kept, and not left open either.
    await post('/auth/logout', {}, signedIn.token).catch(() => undefined);
    throw new ExitError(
      1,
      `${signedIn.email} is not a superuser: svc login is for superusers (migrations, admin commands); nothing was stored`,
    );
  }
  await withCredentialsLock(opts.cwd, async () => saveLogin(opts.cwd, url, signedIn));
  opts.io.stdout(
    `Signed in to ${url} as ${signedIn.email} (superuser); the tokens are in ${CREDENTIALS_FILE} (svc logout signs out).`,
  );
  return 0;
}

/** `svc logout`: resolves to the exit code. */
export async function logoutCommand(argv: readonly string[], opts: LoginOptions): Promise<number> {
  const { values } = parseCommandArgs(argv, FLAGS, LOGOUT_USAGE);
  if (values.help) {
    opts.io.stdout(LOGOUT_USAGE);
    return 0;
  }
  const stored = storedUrls(opts.cwd);
  const url =
    values.url !== undefined
      ? serverUrl(values.url)
      : stored.length === 1
        ? stored[0]
        : holdingServerUrl(values, opts);
  const login = url === undefined ? undefined : storedLogin(opts.cwd, url);
  if (url === undefined || login === undefined) {
    opts.io.stdout(
      stored.length === 0
        ? 'Not signed in to any server.'
        : `Not signed in to ${url ?? 'that server'}; signed in to ${stored.join(', ')} (--url names one).`,
    );
    return 0;
  }
  let revoked: string | undefined;
  try {
    let current: StoredLogin = login;
    if (expiresSoon(current.token)) current = await refreshLogin(opts.cwd, url, current);
    const answer = await callServer(
      url,
      'POST',
      '/auth/logout',
      {},
      current.token,
      (why) => `cannot reach ${url} (${why})`,
    );
    if (answer.status !== 200) {
      const err = answerError(answer);
      revoked = `${err.code}: ${err.message}`;
    }
  } catch (err) {
    revoked = (err as Error).message;
  }
  await withCredentialsLock(opts.cwd, async () => saveLogin(opts.cwd, url, undefined));
  if (revoked !== undefined)
    opts.io.stderr(
      `svc: the server did not end the session (${revoked}); its tokens are deleted here all the same`,
    );
  opts.io.stdout(`Signed out of ${url}.`);
  return 0;
}

/** The URL of the `svc serve` holding the project's embedded data folder, if one does. */
function holdingServerUrl(
  values: Parameters<typeof resolveCommandConfig>[0],
  opts: LoginOptions,
): string | undefined {
  const { database } = resolveCommandConfig(values, opts.cwd, opts.env);
  const url = 'dataDir' in database ? readDataDirLock(database.dataDir)?.url : undefined;
  return url === undefined ? undefined : serverUrl(url, 'the URL in the data folder lock');
}

/** The email, asked on a terminal (shown as typed); from a pipe, stdin is the password's. */
async function askEmail(stdin: SecretInput): Promise<string> {
  if (!stdin.isTTY)
    throw new ExitError(2, 'give --email when the password comes from standard input');
  const rl = readline.createInterface({ input: stdin, output: process.stderr, terminal: false });
  try {
    return await rl.question('Email: ');
  } finally {
    rl.close();
  }
}

/** A sign-in's tokens and who, or its refusal as one line (no token in it). */
function signInResult(answer: ServerAnswer, url: string): StoredLogin {
  const result = answer.json as
    | { token?: unknown; refreshToken?: unknown; user?: { id?: unknown; email?: unknown } }
    | undefined;
  if (answer.status !== 200) {
    const err = answerError(answer);
    throw new ExitError(1, `${url} refused the sign-in (${err.code}: ${err.message})`);
  }
  if (
    typeof result?.token !== 'string' ||
    typeof result.refreshToken !== 'string' ||
    typeof result.user?.id !== 'string' ||
    typeof result.user.email !== 'string'
  )
    throw new ExitError(1, `${url} answered the sign-in with no tokens: is it an svc server?`);
  return {
    email: result.user.email,
    userId: result.user.id,
    token: result.token,
    refreshToken: result.refreshToken,
  };
}

/** The `roles` claim of an access token just issued by the server (it checks them on use). */
function claimsRoles(token: string): string[] {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      roles?: unknown;
    };
    return Array.isArray(claims.roles) ? claims.roles.filter((r) => typeof r === 'string') : [];
  } catch {
    return [];
  }
}
