/**
 * What `svc init` writes. The example schema is text; `svc.toml` is rendered from the server's
 * own field tables (@svc/server `SERVER_FIELDS`, `DATABASE_FIELDS`) and @svc/auth's defaults, so
 * a key name, default or description there is the one the server reads.
 */
import { AUTH_CONFIG_DEFAULTS } from '@svc/auth';
import { DATABASE_FIELDS, SERVER_FIELDS, type FieldSpec } from '@svc/server/config';

/** `dbschema/default.esdl`: a small schema that builds and migrates as it is. */
export const EXAMPLE_SCHEMA = `# The schema of this project, in Gel's SDL: every *.esdl file of dbschema/ is read.
# After an edit, \`svc migration create\` writes the next migration file and \`svc migrate\`
# applies it. Gel's documentation on schemas is the reference for what can go here.
module default {
  type Author {
    # An exclusive constraint: no two authors share a name.
    required name: str {
      constraint exclusive;
    };
    email: str;
  }

  type Post {
    required title: str {
      constraint max_len_value(200);
    };
    body: str;
    published: bool {
      default := false;
    };
    # A link: each post has one author; \`select Post { author: { name } }\` follows it.
    required author: Author;
    created_at: datetime {
      default := datetime_current();
      readonly := true;
    };
    # An index for queries that filter or sort by it.
    index on (.created_at);

    # With auth on (svc.toml: [server] enable_auth), access policies decide who reads and
    # writes a type (README, "Data access with auth on"). Uncomment to let anyone read posts and
    # only signed-in users write them:
    # access policy anyone_reads
    #   allow select
    #   using (true);
    # access policy signed_in_writes
    #   allow insert, update, delete
    #   using (exists global current_user_id);
  }
}
`;

/** The `.gitignore` line: the embedded database and the server's state stay out of git. */
export const GITIGNORE_LINE = '.svc/';

/** The settings `svc.toml` lists, by their programmatic key, in this order. */
const COMMON_SERVER_KEYS = [
  'port',
  'host',
  'enableAuth',
  'jwtSecret',
  'requireAuth',
  'enableRest',
  'adminUi',
  'defaultAccess',
  'logLevel',
] as const;
const COMMON_DATABASE_KEYS = ['url', 'dataDir'] as const;

/** What a key without a default shows once uncommented: what it needs. */
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  jwtSecret: '"<32+ random characters>"',
  url: '"postgres://user:password@127.0.0.1:5432/app"',
};

/** The `[auth]` keys listed (read when auth is on), with their description. */
const AUTH_KEYS: readonly (readonly [key: keyof typeof AUTH_CONFIG_DEFAULTS, doc: string])[] = [
  ['allowRegistration', 'anyone may sign up (POST /auth/register)'],
  ['requireEmailVerification', 'a new account must verify its email before it signs in'],
  ['tokenExpiry', 'seconds an access token lasts'],
  ['cookie', 'also set the auth_token cookie (HttpOnly, SameSite=Lax) on sign-in'],
];

const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const tomlValue = (value: unknown) =>
  typeof value === 'string' ? JSON.stringify(value) : String(value);

/** A description as `# ` lines of at most 100 characters. */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(' ')) {
    if (line.length + 1 + word.length > 100 && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

function fieldLines(fields: readonly FieldSpec[], keys: readonly string[]): string[] {
  return keys.flatMap((key) => {
    const field = fields.find((f) => f.key === key);
    if (!field?.toml) throw new Error(`svc init: no TOML setting '${key}'`);
    const value = key in PLACEHOLDERS ? PLACEHOLDERS[key] : tomlValue(field.default);
    const from = [field.env && `env ${field.env}`, field.flag && `flag ${field.flag}`]
      .filter(Boolean)
      .join(', ');
    return [...comment(`${field.doc}${from ? ` (${from})` : ''}`), `# ${field.toml[1]} = ${value}`];
  });
}

/** `svc.toml`: the common keys, each commented out with its default and what it does. */
export function configTemplate(): string {
  const auth = AUTH_KEYS.flatMap(([key, doc]) => [
    ...comment(doc),
    `# ${toSnake(key)} = ${tomlValue(AUTH_CONFIG_DEFAULTS[key])}`,
  ]);
  return [
    '# svc configuration. Each key is commented out and shows its default: uncomment one to change',
    '# it. A command-line flag or an environment variable overrides this file. Every key: the',
    '# README, "Configuration"; [auth]: packages/auth/README.md. Keep secrets in the environment.',
    '',
    '[server]',
    ...fieldLines(SERVER_FIELDS, COMMON_SERVER_KEYS),
    '',
    '[database]',
    ...fieldLines(DATABASE_FIELDS, COMMON_DATABASE_KEYS),
    '',
    '# Read when auth is on ([server] enable_auth).',
    '[auth]',
    ...auth,
    "# what the links in emails start with: this server's public address (its hosted pages) or your app's",
    '# email_base_url = "https://api.example.com"',
    '',
    '# Where email goes out (without it, in development, emails are kept at /_/mail).',
    '# [auth.smtp]',
    '# host = "smtp.example.com"',
    '# port = 587',
    '# from = "App <no-reply@example.com>"',
    '',
  ].join('\n');
}
