import { SvcError, openDatabase } from '@svc/core';
import { createAuth, type AuthConfig } from '@svc/auth';
import { describeError } from '../../describe-error';
import { DATABASE_FLAGS, resolveCommandConfig } from '../../database-options';
import { ExitError, parseCommandArgs, type CliIo } from '../../io';

export const ADMIN_USAGE = `Usage: svc admin <command> [options]

Commands:
  create-superuser <email> --password <pw>      create the first superuser
  set-password <email or id> --password <pw>    set a password (no old one needed); revokes every session
  assign-role <email or id> <role>              assign a role (effective at the user's next login)
  list-roles                                    list the roles

Options:
  --database-url <url>  PostgreSQL URL (env DATABASE_URL)
  --data-dir <dir>      embedded database folder (env SVC_DATA_DIR; default ./.svc/data)
  --jwt-secret <s>      the server's HS256 secret (env SVC_JWT_SECRET)
  --config <file>       TOML config file (default ./svc.toml when it exists)
  -h, --help            show this help`;

export interface AdminOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly io: CliIo;
}

const ARITY: Readonly<Record<string, number>> = { 'create-superuser': 1, 'set-password': 1, 'assign-role': 2, 'list-roles': 0 };

/** `svc admin ...`: resolves to the exit code. */
export async function adminCommand(argv: readonly string[], opts: AdminOptions): Promise<number> {
  const parsed = parseCommandArgs(
    argv,
    { password: { type: 'string' }, ...DATABASE_FLAGS, 'jwt-secret': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    ADMIN_USAGE,
    true,
  );
  const { values, positionals } = parsed;
  const [command, ...args] = positionals;
  if (values.help || command === undefined) {
    opts.io.stdout(ADMIN_USAGE);
    return command === undefined && !values.help ? 2 : 0;
  }
  const arity = ARITY[command];
  if (arity === undefined) throw new ExitError(2, `unknown admin command "${command}"\n\n${ADMIN_USAGE}`);
  if (args.length !== arity) throw new ExitError(2, `admin ${command} takes ${arity} argument${arity === 1 ? '' : 's'}\n\n${ADMIN_USAGE}`);
  const needsPassword = command === 'create-superuser' || command === 'set-password';
  // The spec: an empty password is refused before it reaches the provider.
  if (needsPassword && (values.password === undefined || values.password === '')) {
    throw new ExitError(2, `admin ${command} needs a non-empty --password`);
  }

  const { config, database } = resolveCommandConfig(values, opts.cwd, opts.env, values['jwt-secret'] !== undefined ? { jwtSecret: values['jwt-secret'] } : {});
  if (!config.jwtSecret) throw new ExitError(2, 'svc admin needs the JWT secret: --jwt-secret or SVC_JWT_SECRET');

  const db = await openDatabase(database);
  try {
    const auth = await createAuth({ ...(config.authConfig as Partial<AuthConfig>), jwtSecret: config.jwtSecret } as AuthConfig, { database: db });
    try {
      switch (command) {
        case 'create-superuser': {
          const user = await auth.createSuperuser(args[0] as string, values.password as string);
          opts.io.stdout(`Created superuser ${user.email} (${user.id}).`);
          break;
        }
        case 'set-password':
          await auth.setPassword(args[0] as string, values.password as string);
          opts.io.stdout(`Password set for ${args[0]}; every session of that user was revoked.`);
          break;
        case 'assign-role':
          await auth.roles.assign(args[0] as string, args[1] as string);
          opts.io.stdout(`Assigned role ${args[1]} to ${args[0]} (effective at the next login).`);
          break;
        case 'list-roles': {
          const roles = await auth.roles.list();
          opts.io.stdout(roles.length ? roles.map((r) => (r.description ? `${r.name}\t${r.description}` : r.name)).join('\n') : '(no roles)');
          break;
        }
      }
    } finally {
      await auth.close();
    }
    return 0;
  } catch (err) {
    if (err instanceof SvcError) throw new ExitError(1, describeError(err));
    throw err;
  } finally {
    await db.close();
  }
}
