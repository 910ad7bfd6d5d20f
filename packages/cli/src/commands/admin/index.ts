import { closestName, openDatabase } from '@svc/core';
import { createAuthAdmin, type AuthAdmin, type AuthAdminConfig, type UserList } from '@svc/auth';
import { DATABASE_FLAGS, databaseUrlSource, resolveCommandConfig } from '../../database-options';
import { asExitError } from '../../failure';
import { ExitError, parseCommandArgs, type CliIo } from '../../io';
import { readSecret, type SecretInput } from '../../read-secret';
import { progressLines } from '../../progress';

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
  --jwt-secret <s>      accepted for compatibility; no admin command needs it
  -h, --help            show this help`;

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
  const db = await openDatabase(database, { onCreateDataDir }).catch((err: unknown) => {
    throw asExitError(err, databaseUrlSource(config.databaseSource, configFile));
  });
  try {
    const admin = await createAuthAdmin(config.authConfig as AuthAdminConfig, { database: db });
    try {
      opts.io.stdout(await runCommand(name, admin, args, { ...values, password }, page, opts.io));
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

async function runCommand(
  name: string,
  admin: AuthAdmin,
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
      const user = await admin.createUser({ email: first, password: values.password as string });
      return `Created user ${user.email} (${user.id}).`;
    }
    case 'set-password':
      await admin.setPassword(first, values.password as string);
      return `Password set for ${first}; every session of that user was revoked.`;
    case 'assign-role': {
      // The CLI has no create-role command, so assign-role alone must work on a fresh database.
      const { roleCreated } = await admin.roles.assign(first, second, {
        createIfMissing: values.existing !== true,
      });
      if (roleCreated)
        io.stderr(
          `svc: created role '${second}' (it did not exist; --existing refuses an unknown role instead)`,
        );
      return `Assigned role ${second} to ${first} (effective at the next login).`;
    }
    case 'create-role': {
      const role = await admin.roles.create(first, values.description);
      return `Created role ${role.name}.`;
    }
    case 'list-roles': {
      const roles = await admin.roles.list();
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
