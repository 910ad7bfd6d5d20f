/**
 * `svc admin <command>`: @svc/auth's administrative operations, on the database directly
 * (`createAuthAdmin`) or, when a running `svc serve` holds the embedded data folder, through that
 * server's admin routes (`/_/api/*`, which call the same operations) as a superuser or with the
 * service key (through-server `ServerCredentials`). Both paths print the same: each command's
 * output is written from `AdminOperations` answers, whichever path gave them.
 */
import { closestName } from '@svc/core';
import {
  createAuthAdmin,
  DEFAULT_USER_PAGE,
  type AuthAdminConfig,
  type Role,
  type User,
  type UserList,
} from '@svc/auth';
import { DATABASE_FLAGS, databaseUrlSource, resolveCommandConfig } from '../../database-options';
import { asExitError } from '../../failure';
import { ExitError, parseCommandArgs, type CliIo } from '../../io';
import { readSecret, type SecretInput } from '../../read-secret';
import { progressLines } from '../../progress';
import {
  openOrFindServer,
  requestThroughServer,
  SERVER_FLAGS,
  serverCredentials,
  type HoldingServer,
  type ServerCredentials,
} from '../../through-server';

export const ADMIN_USAGE = `Usage: svc admin <command> [options]

Commands:
  create-superuser <email> [--password <pw>]      create a superuser
  create-user <email> [--password <pw>]           create a user (active, email not verified)
  set-password <email or id> [--password <pw>]    set a password (no old one needed); revokes every session
  assign-role <email or id> <role> [--existing]   assign a role (effective at the user's next login);
                                                  a role that does not exist is created (said on
                                                  stderr); --existing refuses it instead
  create-role <name> [--description <text>]       create a role
  list-roles                                      list the roles
  list-users [--limit <n>] [--offset <n>] [--json]
                                                  list users, oldest first, with their roles (100 a page)
  revoke-sessions <email or id>                   end every session of a user
  reset-mfa <email or id>                         remove a user's TOTP and recovery codes

Without --password, the password is asked for on a terminal (nothing is echoed) or read as one
line from standard input: echo "$PW" | svc admin set-password ann@example.com

Options:
  --database-url <url>  PostgreSQL URL (env DATABASE_URL)
  --data-dir <dir>      embedded database folder (env SVC_DATA_DIR; default ./.svc/data)
  --config <file>       TOML config file (env SVC_CONFIG; default ./svc.toml when it exists)
  --token <jwt>         through a server: a superuser's access token (env SVC_TOKEN)
  --jwt-secret <s>      accepted for compatibility; no admin command needs it
  -h, --help            show this help

When \`svc serve\` holds the embedded data folder, the command goes through that server's admin
routes, as a superuser (--token, SVC_TOKEN, or the sign-in of \`svc login\`) or with the service
key (SVC_SERVICE_KEY or [server] service_key).`;

export interface AdminOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly io: CliIo;
  /** Where a password not given with --password is read. @default process.stdin */
  readonly stdin?: SecretInput;
}

interface Command {
  readonly args: readonly string[];
  /** The command's own flags, beyond the database ones. */
  readonly flags: readonly string[];
}

const COMMANDS: Readonly<Record<string, Command>> = {
  'create-superuser': { args: ['email'], flags: ['password'] },
  'create-user': { args: ['email'], flags: ['password'] },
  'set-password': { args: ['email or id'], flags: ['password'] },
  'assign-role': { args: ['email or id', 'role'], flags: ['existing'] },
  'create-role': { args: ['name'], flags: ['description'] },
  'list-roles': { args: [], flags: [] },
  'list-users': { args: [], flags: ['limit', 'offset', 'json'] },
  'revoke-sessions': { args: ['email or id'], flags: [] },
  'reset-mfa': { args: ['email or id'], flags: [] },
};
const OWN_FLAGS = ['password', 'description', 'limit', 'offset', 'json', 'existing'] as const;

/** `svc admin ...`: resolves to the exit code. */
export async function adminCommand(argv: readonly string[], opts: AdminOptions): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      password: { type: 'string' },
      description: { type: 'string' },
      limit: { type: 'string' },
      offset: { type: 'string' },
      json: { type: 'boolean' },
      existing: { type: 'boolean' },
      ...DATABASE_FLAGS,
      ...SERVER_FLAGS,
      'jwt-secret': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    ADMIN_USAGE,
    true,
  );
  const [name, ...args] = positionals;
  if (values.help || name === undefined) {
    opts.io.stdout(ADMIN_USAGE);
    return name === undefined && !values.help ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    const near = closestName(name, Object.keys(COMMANDS));
    const hint = near === undefined ? '' : `; did you mean "svc admin ${near}"?`;
    throw new ExitError(2, `unknown admin command "${name}"${hint}\n\n${ADMIN_USAGE}`);
  }
  if (args.length !== command.args.length) {
    const wanted = command.args.length
      ? command.args.map((a) => `<${a}>`).join(' ')
      : 'no arguments';
    throw new ExitError(2, `admin ${name} takes ${wanted}\n\n${ADMIN_USAGE}`);
  }
  for (const flag of OWN_FLAGS) {
    if (values[flag] !== undefined && !command.flags.includes(flag))
      throw new ExitError(2, `--${flag} is not an option of admin ${name}`);
  }
  const page = {
    ...(values.limit !== undefined ? { limit: integerFlag('--limit', values.limit) } : {}),
    ...(values.offset !== undefined ? { offset: integerFlag('--offset', values.offset) } : {}),
  };

  const { config, database, configFile } = resolveCommandConfig(
    values,
    opts.cwd,
    opts.env,
    values['jwt-secret'] !== undefined ? { jwtSecret: values['jwt-secret'] } : {},
  );
  // The password is read before the database is opened: nothing waits on a connection while a
  // person types, and an empty one is refused before it reaches the provider.
  let password: string | undefined;
  if (command.flags.includes('password')) {
    password =
      values.password ??
      (await readSecret(opts.stdin ?? process.stdin, process.stderr, 'Password', true));
    if (password === '')
      throw new ExitError(
        2,
        `admin ${name} needs a non-empty password (--password, the prompt, or one line on stdin)`,
      );
  }

  const { onCreateDataDir } = progressLines(opts.io, opts.cwd);
  const opened = await openOrFindServer(
    database,
    databaseUrlSource(config.databaseSource, configFile),
    { onCreateDataDir },
  );
  const withPassword = { ...values, password };
  if ('server' in opened) {
    const holder = opened.server;
    opts.io.stderr(
      `svc: the data folder is held by ${holder.command} (pid ${holder.pid}): working through it at ${holder.url}`,
    );
    const ops = remoteOperations(
      holder,
      serverCredentials(values, config.serviceKey, opts.cwd, opts.env),
    );
    try {
      opts.io.stdout(await runCommand(name, ops, args, withPassword, page, opts.io));
    } catch (err) {
      throw asExitError(err);
    }
    return 0;
  }
  const { db } = opened;
  try {
    const admin = await createAuthAdmin(config.authConfig as AuthAdminConfig, { database: db });
    try {
      const ops: AdminOperations = {
        createSuperuser: (email, pw) => admin.createSuperuser(email, pw),
        createUser: (email, pw) => admin.createUser({ email, password: pw }),
        setPassword: (who, pw) => admin.setPassword(who, pw),
        assignRole: (who, role, createIfMissing) =>
          admin.roles.assign(who, role, { createIfMissing }),
        createRole: (role, description) => admin.roles.create(role, description),
        listRoles: () => admin.roles.list(),
        listUsers: (p) => admin.listUsers(p),
        revokeAllSessions: (who) => admin.revokeAllSessions(who),
        resetMfa: (who) => admin.resetMfa(who),
      };
      opts.io.stdout(await runCommand(name, ops, args, withPassword, page, opts.io));
    } finally {
      await admin.close();
    }
    return 0;
  } catch (err) {
    throw asExitError(err);
  } finally {
    await db.close();
  }
}

/** What the admin commands do, on the database or through a server. */
interface AdminOperations {
  createSuperuser(email: string, password: string): Promise<User>;
  createUser(email: string, password: string): Promise<User>;
  setPassword(who: string, password: string): Promise<void>;
  assignRole(
    who: string,
    role: string,
    createIfMissing: boolean,
  ): Promise<{ roleCreated: boolean }>;
  createRole(role: string, description: string | undefined): Promise<Role>;
  listRoles(): Promise<readonly Role[]>;
  listUsers(page: { limit?: number; offset?: number }): Promise<UserList>;
  revokeAllSessions(who: string): Promise<number>;
  resetMfa(who: string): Promise<{ totp: boolean; recoveryCodes: number }>;
}

/**
 * The operations as the server's admin routes (docs/http.md, "The admin UI"), which call the
 * same @svc/auth operations; a user is named in the path by email or id.
 */
function remoteOperations(holder: HoldingServer, credentials: ServerCredentials): AdminOperations {
  const call = (method: 'GET' | 'POST', route: string, body?: unknown) =>
    requestThroughServer(holder, method, `/_/api${route}`, body, credentials);
  const user = (who: string) => `/users/${encodeURIComponent(who)}`;
  return {
    createSuperuser: async (email, password) =>
      (await call('POST', '/users', { email, password, superuser: true })) as User,
    createUser: async (email, password) =>
      (await call('POST', '/users', { email, password })) as User,
    setPassword: async (who, password) => {
      await call('POST', `${user(who)}/password`, { password });
    },
    assignRole: async (who, role, createIfMissing) =>
      (await call('POST', `${user(who)}/roles`, { role, createIfMissing })) as {
        roleCreated: boolean;
      },
    createRole: async (role, description) =>
      (await call('POST', '/roles', {
        name: role,
        ...(description !== undefined ? { description } : {}),
      })) as Role,
    listRoles: async () =>
      ((await call('GET', '/roles')) as { roles: (Role & { members: number })[] }).roles.map(
        (r) => ({ name: r.name, description: r.description }),
      ),
    listUsers: async ({ limit = DEFAULT_USER_PAGE, offset = 0 }) =>
      (await call('GET', `/users?limit=${limit}&offset=${offset}`)) as UserList,
    revokeAllSessions: async (who) =>
      ((await call('POST', `${user(who)}/revoke-sessions`)) as { revoked: number }).revoked,
    resetMfa: async (who) =>
      (await call('POST', `${user(who)}/reset-mfa`)) as { totp: boolean; recoveryCodes: number },
  };
}

async function runCommand(
  name: string,
  admin: AdminOperations,
  args: string[],
  values: {
    password?: string | undefined;
    description?: string | undefined;
    json?: boolean | undefined;
    existing?: boolean | undefined;
  },
  page: { limit?: number; offset?: number },
  io: CliIo,
): Promise<string> {
  const [first = '', second = ''] = args;
  switch (name) {
    case 'create-superuser': {
      const user = await admin.createSuperuser(first, values.password as string);
      return `Created superuser ${user.email} (${user.id}).`;
    }
    case 'create-user': {
      const user = await admin.createUser(first, values.password as string);
      return `Created user ${user.email} (${user.id}).`;
    }
    case 'set-password':
      await admin.setPassword(first, values.password as string);
      return `Password set for ${first}; every session of that user was revoked.`;
    case 'assign-role': {
      // The CLI has no create-role command, so assign-role alone must work on a fresh database.
      const { roleCreated } = await admin.assignRole(first, second, values.existing !== true);
      if (roleCreated)
        io.stderr(
          `svc: created role '${second}' (it did not exist; --existing refuses an unknown role instead)`,
        );
      return `Assigned role ${second} to ${first} (effective at the next login).`;
    }
    case 'create-role': {
      const role = await admin.createRole(first, values.description);
      return `Created role ${role.name}.`;
    }
    case 'list-roles': {
      const roles = await admin.listRoles();
      return roles.length
        ? roles.map((r) => (r.description ? `${r.name}\t${r.description}` : r.name)).join('\n')
        : '(no roles)';
    }
    case 'list-users': {
      const list = await admin.listUsers(page);
      return values.json ? JSON.stringify(list, null, 2) : userTable(list);
    }
    case 'revoke-sessions': {
      const n = await admin.revokeAllSessions(first);
      return `Revoked ${n} session${n === 1 ? '' : 's'} of ${first}.`;
    }
    case 'reset-mfa': {
      const { totp, recoveryCodes } = await admin.resetMfa(first);
      return `Reset MFA of ${first}: ${totp ? 'TOTP removed' : 'no TOTP'}, ${recoveryCodes} unused recovery code${recoveryCodes === 1 ? '' : 's'} removed.`;
    }
    default:
      throw new Error(`unhandled admin command ${name}`);
  }
}

function integerFlag(flag: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new ExitError(2, `${flag} must be a whole number, got "${text}"`);
  return Number(text);
}

/** Aligned columns for a person; `--json` gives the same data to a program. */
function userTable(list: UserList): string {
  if (list.users.length === 0) {
    return list.total === 0
      ? '(no users)'
      : `(no users past offset ${list.offset}; there are ${list.total})`;
  }
  const rows = [
    ['EMAIL', 'ID', 'ROLES', 'VERIFIED', 'ACTIVE', 'CREATED'],
    ...list.users.map((u) => [
      u.email,
      u.id,
      u.roles.join(',') || '-',
      u.emailVerified ? 'yes' : 'no',
      u.active ? 'yes' : 'no',
      u.createdAt.slice(0, 19).replace('T', ' '),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) =>
    r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '),
  );
  const from = list.offset + 1;
  const to = list.offset + list.users.length;
  const more = to < list.total ? ` (--offset ${to} for the next page)` : '';
  return [
    ...lines,
    list.total === 1 ? '1 user' : `users ${from}-${to} of ${list.total}${more}`,
  ].join('\n');
}
