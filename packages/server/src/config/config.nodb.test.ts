import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, resolveConfig, type ServerConfig } from './index';

const SECRET = 'x'.repeat(40);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-config-'));
function tomlFile(text: string): string {
  const file = path.join(tmp, `svc-${Math.random().toString(36).slice(2)}.toml`);
  fs.writeFileSync(file, text);
  return file;
}
function problems(config: ServerConfig): readonly string[] {
  try {
    resolveConfig(config);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('defaults (DECISIONS.md, "Service defaults")', () => {
  test('with nothing given', () => {
    const c = resolveConfig({ env: {} });
    expect(c).toMatchObject({
      port: 5656,
      host: '127.0.0.1',
      enableAuth: false,
      requireAuth: false,
      enableRest: true,
      readOnly: false,
      requestTimeout: 30000,
      protocol: 'full',
      defaultAccess: 'open',
      bodyLimit: 1048576,
      database: { dataDir: './.svc/data' },
      databaseSource: 'default',
    });
    expect(c.jwtSecret).toBeUndefined();
  });
});

describe('precedence: explicit (flag) > environment > file > default', () => {
  const file = tomlFile(`
[server]
port = 7000
host = "127.0.0.3"
protocol = "simple"
request_timeout = 1000
enable_rest = false
require_auth = true

[database]
url = "postgres://file@127.0.0.1/db"
`);

  test('the file beats the defaults', () => {
    const c = resolveConfig({ env: {}, configFile: file });
    expect(c).toMatchObject({
      port: 7000,
      host: '127.0.0.3',
      protocol: 'simple',
      requestTimeout: 1000,
      enableRest: false,
      requireAuth: true,
    });
    expect(c.database).toEqual({ url: 'postgres://file@127.0.0.1/db' });
    expect(c.databaseSource).toBe('file');
  });

  test('the environment beats the file', () => {
    const c = resolveConfig({
      configFile: file,
      env: {
        SVC_PORT: '7001',
        SVC_PROTOCOL: 'full',
        SVC_ENABLE_REST: 'true',
        DATABASE_URL: 'postgres://env@127.0.0.1/db',
      },
    });
    expect(c).toMatchObject({ port: 7001, protocol: 'full', enableRest: true, host: '127.0.0.3' });
    expect(c.database).toEqual({ url: 'postgres://env@127.0.0.1/db' });
    expect(c.databaseSource).toBe('environment');
  });

  test('explicit values (flags) beat the environment', () => {
    const c = resolveConfig({
      configFile: file,
      env: { SVC_PORT: '7001', DATABASE_URL: 'postgres://env@127.0.0.1/db' },
      port: 7002,
      database: { dataDir: '/tmp/explicit' },
    });
    expect(c.port).toBe(7002);
    expect(c.database).toEqual({ dataDir: '/tmp/explicit' });
    expect(c.databaseSource).toBe('explicit');
  });

  test('an explicit false is a value, not an absence', () => {
    const c = resolveConfig({ env: { SVC_ENABLE_REST: 'true' }, enableRest: false });
    expect(c.enableRest).toBe(false);
  });

  test('environment booleans and the auth pair', () => {
    const c = resolveConfig({
      env: { SVC_ENABLE_AUTH: '1', SVC_JWT_SECRET: SECRET, SVC_ENABLE_REST: 'false' },
    });
    expect(c).toMatchObject({ enableAuth: true, jwtSecret: SECRET, enableRest: false });
  });

  test('a relative data_dir in the file is relative to the file', () => {
    const c = resolveConfig({
      env: {},
      configFile: tomlFile('[database]\ndata_dir = "data/here"\n'),
    });
    expect(c.database).toEqual({ dataDir: path.join(tmp, 'data/here') });
  });

  test('[auth] keys become camelCase, through sub-tables and [[auth.webhooks]]', () => {
    const c = resolveConfig({
      env: {},
      configFile: tomlFile(`
[auth]
token_expiry = 600
require_email_verification = true
[auth.branding]
app_name = "Acme"
brand_color = "#ff0000"
[[auth.webhooks]]
url = "http://127.0.0.1:9/hook"
events = ["IdentityCreated"]
secret = "s"
`),
    });
    expect(c.authConfig).toEqual({
      tokenExpiry: 600,
      requireEmailVerification: true,
      branding: { appName: 'Acme', brandColor: '#ff0000' },
      webhooks: [{ url: 'http://127.0.0.1:9/hook', events: ['IdentityCreated'], secret: 's' }],
    });
  });

  test('programmatic authConfig keys win over the file, key by key', () => {
    const c = resolveConfig({
      env: {},
      configFile: tomlFile('[auth]\ntoken_expiry = 600\nbcrypt_rounds = 10\n'),
      authConfig: { tokenExpiry: 60 },
    });
    expect(c.authConfig).toEqual({ tokenExpiry: 60, bcryptRounds: 10 });
  });

  test('jwtSecret may come from authConfig', () => {
    const c = resolveConfig({ env: {}, enableAuth: true, authConfig: { jwtSecret: SECRET } });
    expect(c.jwtSecret).toBe(SECRET);
  });
});

describe('validation: every problem at once, with its source', () => {
  test('a jwtSecret under 32 characters', () => {
    expect(problems({ env: {}, jwtSecret: 'short' })).toEqual([
      'jwtSecret must be at least 32 characters (got 5)',
    ]);
  });

  test('enableAuth without a secret', () => {
    expect(problems({ env: {}, enableAuth: true })).toEqual([
      'enableAuth needs a jwtSecret (--jwt-secret, SVC_JWT_SECRET or [server] jwt_secret)',
    ]);
  });

  test('unknown keys: programmatic, TOML key, TOML table, auth key; each with "did you mean" and its line', () => {
    expect(problems({ env: {}, prot: 'full' } as ServerConfig)).toEqual([
      "unknown config key 'prot'; did you mean 'port'?",
    ]);
    const file = tomlFile(
      '[server]\nportt = 1\nzzz = 2\n[databse]\nurl = "x"\n[nothing]\n[auth]\ntoken_expiri = 5\n[auth.smtp]\nhost = "h"\nfrom = "a@b.example"\nprot = 25\n',
    );
    expect(problems({ env: {}, configFile: file })).toEqual([
      `${file}:2: unknown key [server] portt; did you mean 'port'?`,
      `${file}:3: unknown key [server] zzz`,
      `${file}:4: unknown table [databse]; did you mean 'database'?`,
      `${file}:6: unknown table [nothing] (expected [server], [database] or [auth])`,
      `${file}:8: unknown key [auth] token_expiri; did you mean 'token_expiry'?`,
      `${file}:12: unknown key [auth.smtp] prot; did you mean 'port'?`,
    ]);
    expect(
      problems({
        env: {},
        authConfig: { tokenExpiri: 5, smtp: { hots: 'h', from: 'a@b.example' } },
      }),
    ).toEqual([
      "unknown key authConfig.tokenExpiri; did you mean 'tokenExpiry'?",
      "unknown key authConfig.smtp.hots; did you mean 'host'?",
    ]);
  });

  // Issue 31: `[auth.smtp] port = "2525"` passed, then crashed the start with a stack trace.
  test('[auth] and its tables are typed from their specs: every problem at once, with its line', () => {
    const file = tomlFile(
      [
        '[auth]',
        'token_expiry = "1h"',
        'cookie = 1',
        'redirect_allow_list = "https://a.example"',
        'claims = "x"',
        '',
        '[auth.smtp]',
        'host = "smtp.example.com"',
        'from = "no-reply@example.com"',
        'port = "2525"',
        'auth = { user = "u", pass = 7 }',
        '',
        '[[auth.webhooks]]',
        'url = "https://hooks.example/a"',
        'events = "all"',
        'secret = "s"',
        '',
      ].join('\n'),
    );
    expect(problems({ env: {}, configFile: file })).toEqual([
      `${file}:2: [auth] token_expiry must be an integer from 1 to 315360000, got the string "1h"`,
      `${file}:3: [auth] cookie must be true or false, got 1`,
      `${file}:4: [auth] redirect_allow_list must be a list of strings, got the string "https://a.example"`,
      `${file}:5: [auth] claims can only be given in code (authConfig of createServer)`,
      `${file}:10: [auth.smtp] port must be an integer from 1 to 65535, got the string "2525"`,
      // An inline table: the line of its key; a secret is never echoed.
      `${file}:11: [auth.smtp.auth] pass must be a string`,
      `${file}:15: [auth.webhooks[0]] events must be a list of strings, got the string "all"`,
    ]);
  });

  test('rateLimits takes false (every limit off) as well as a table, from code and from a file', () => {
    expect(() => resolveConfig({ env: {}, authConfig: { rateLimits: false } })).not.toThrow();
    expect(() =>
      resolveConfig({ env: {}, configFile: tomlFile('[auth]\nrate_limits = false\n') }),
    ).not.toThrow();
    expect(problems({ env: {}, authConfig: { rateLimits: 5 } })).toEqual([
      'authConfig.rateLimits must be a table (or false), got 5',
    ]);
  });

  test('auth values of the right type are checked further by @svc/auth, at load', () => {
    const file = tomlFile('[auth.smtp]\nhost = "smtp.example.com"\nfrom = "not an address"\n');
    const found = problems({ env: {}, configFile: file });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^auth config: invalid SMTP config: from/);
    expect(problems({ env: {}, authConfig: { branding: { brandColor: 'blue!' } } })).toEqual([
      expect.stringMatching(/^auth config: .*brandColor/),
    ]);
  });

  test('bad types from each source', () => {
    const file = tomlFile('[server]\nport = "eighty"\nenable_rest = "no"\n');
    expect(
      problems({
        configFile: file,
        env: { SVC_PORT: 'abc', SVC_ENABLE_AUTH: 'maybe', SVC_PROTOCOL: 'fast' },
        requestTimeout: -1,
        readOnly: 'yes' as never,
      }),
    ).toEqual([
      'requestTimeout must be a positive integer, got -1',
      'readOnly must be true or false, got the string "yes"',
      'SVC_PORT must be an integer from 0 to 65535, got "abc"',
      'SVC_ENABLE_AUTH must be true/false/1/0, got "maybe"',
      'SVC_PROTOCOL must be one of full, simple, got "fast"',
      `${file}:2: [server] port must be an integer from 0 to 65535, got the string "eighty"`,
      `${file}:3: [server] enable_rest must be true or false, got the string "no"`,
    ]);
  });

  test('a port out of range', () => {
    expect(problems({ env: {}, port: 70000 })).toEqual([
      'port must be an integer from 0 to 65535, got 70000',
    ]);
  });

  test('a TOML syntax error and a missing file', () => {
    const bad = tomlFile('[server\nport = 1\n');
    expect(problems({ env: {}, configFile: bad })).toEqual([
      `${bad}:1:8: illegal character in key\n      [server\n             ^`,
    ]);
    const value = tomlFile('[server]\nport = 56 56\n');
    expect(problems({ env: {}, configFile: value })).toEqual([
      `${value}:2:11: each key-value declaration must be followed by an end-of-line\n      port = 56 56\n                ^`,
    ]);
    expect(problems({ env: {}, configFile: path.join(tmp, 'missing.toml') })).toEqual([
      `cannot read config file ${path.join(tmp, 'missing.toml')}: ENOENT`,
    ]);
  });

  test('a bad database value', () => {
    expect(problems({ env: {}, database: { url: 'x', dataDir: 'y' } as never })).toEqual([
      'database must be one of {url}, {dataDir} or {memory: true}',
    ]);
  });

  test('never echoes a secret in a message', () => {
    const secret = 'tiny-secret';
    const found = problems({ env: { SVC_SERVICE_KEY: secret }, jwtSecret: secret });
    expect(found.join('\n')).not.toContain(secret);
    expect(found).toEqual([
      'jwtSecret must be at least 32 characters (got 11)',
      'serviceKey must be at least 32 characters (got 11)',
    ]);
  });

  test('the error message lists every problem', () => {
    try {
      resolveConfig({ env: {}, enableAuth: true, port: -1 });
      throw new Error('unreachable');
    } catch (err) {
      expect((err as Error).message).toBe(
        'invalid configuration:\n  - port must be an integer from 0 to 65535, got -1\n  - enableAuth needs a jwtSecret (--jwt-secret, SVC_JWT_SECRET or [server] jwt_secret)',
      );
    }
  });
});

describe('cors (issue 8, "Browsers")', () => {
  test('off when absent', () => {
    expect(resolveConfig({ env: {} }).cors).toBeUndefined();
  });

  test('programmatic: origins canonicalised, credentials false unless given', () => {
    expect(
      resolveConfig({
        env: {},
        cors: { origins: ['https://App.example.com:443', 'http://localhost:3000'] },
      }).cors,
    ).toEqual({
      origins: ['https://app.example.com', 'http://localhost:3000'],
      credentials: false,
    });
    expect(resolveConfig({ env: {}, cors: { origins: ['*'] } }).cors).toEqual({
      origins: ['*'],
      credentials: false,
    });
  });

  test('SVC_CORS_ORIGINS is comma-separated', () => {
    const c = resolveConfig({
      env: { SVC_CORS_ORIGINS: 'https://a.example, http://localhost:5173 ,' },
    });
    expect(c.cors).toEqual({
      origins: ['https://a.example', 'http://localhost:5173'],
      credentials: false,
    });
  });

  test('TOML [server.cors]; the environment replaces the origins and keeps the credentials', () => {
    const file = tomlFile(`
[server.cors]
origins = ["https://app.example.com"]
credentials = true
`);
    expect(resolveConfig({ env: {}, configFile: file }).cors).toEqual({
      origins: ['https://app.example.com'],
      credentials: true,
    });
    expect(
      resolveConfig({ env: { SVC_CORS_ORIGINS: 'https://b.example' }, configFile: file }).cors,
    ).toEqual({
      origins: ['https://b.example'],
      credentials: true,
    });
    expect(
      resolveConfig({
        env: {},
        configFile: file,
        cors: { origins: ['https://c.example'], credentials: false },
      }).cors,
    ).toEqual({
      origins: ['https://c.example'],
      credentials: false,
    });
    // The inline form is the same table.
    const inline = tomlFile(`[server]\ncors = { origins = ["https://app.example.com"] }\n`);
    expect(resolveConfig({ env: {}, configFile: inline }).cors?.origins).toEqual([
      'https://app.example.com',
    ]);
  });

  test('refused at start: what is not an origin, * with credentials, * among others, wrong shapes', () => {
    expect(
      problems({
        env: {},
        cors: { origins: ['https://app.example.com/', 'app.example.com', 'https://a.example/x'] },
      }),
    ).toEqual([
      `cors origins must be origins, scheme://host[:port] with no path or trailing slash (or '*'): "https://app.example.com/", "app.example.com", "https://a.example/x"`,
    ]);
    expect(problems({ env: {}, cors: { origins: ['*'], credentials: true } })).toEqual([
      "cors: origins '*' cannot go with credentials: true (browsers refuse it): list the origins instead",
    ]);
    expect(problems({ env: {}, cors: { origins: ['*', 'https://a.example'] } })).toEqual([
      "cors origins: '*' (any origin) must be the only entry",
    ]);
    expect(problems({ env: {}, cors: { origins: [] } })[0]).toMatch(
      /^cors origins must be a non-empty list/,
    );
    expect(
      problems({
        env: {},
        cors: { origins: ['https://a.example'], credentials: 'yes' as never },
      })[0],
    ).toMatch(/credentials must be true or false/);
    expect(problems({ env: {}, cors: ['https://a.example'] as never })[0]).toMatch(
      /^cors must be an object/,
    );
    expect(
      problems({ env: {}, cors: { origins: ['https://a.example'], allowHeaders: [] } as never })[0],
    ).toMatch(/unknown keys 'allowHeaders'/);
    expect(problems({ env: { SVC_CORS_ORIGINS: ' , ' } })[0]).toMatch(
      /^SVC_CORS_ORIGINS origins must be a non-empty list/,
    );
    expect(problems({ env: { SVC_CORS_ORIGINS: 'https://a.example/' } })[0]).toMatch(
      /^SVC_CORS_ORIGINS origins must be origins/,
    );
    const onlyCredentials = tomlFile(`[server.cors]\ncredentials = true\n`);
    expect(problems({ env: {}, configFile: onlyCredentials })).toEqual([
      'cors needs origins (cors.origins, SVC_CORS_ORIGINS or [server.cors] origins)',
    ]);
    expect(problems({ env: { SVC_CORS_ORIGINS: '*' }, configFile: onlyCredentials })[0]).toMatch(
      /'\*' cannot go with credentials/,
    );
    const bad = tomlFile(`[server.cors]\norigins = "https://a.example"\n`);
    expect(problems({ env: {}, configFile: bad })[0]).toMatch(
      /\[server\] cors origins must be a non-empty list/,
    );
  });
});

// Issue 8: the pool size was settable only in code.
describe('[database] pool_size / SVC_DATABASE_POOL_SIZE', () => {
  const URL_ = 'postgres://u@127.0.0.1/db';

  test('from the file, the environment and the code, by precedence', () => {
    const file = tomlFile(`[database]\nurl = "${URL_}"\npool_size = 3\n`);
    expect(resolveConfig({ env: {}, configFile: file }).database).toEqual({
      url: URL_,
      poolSize: 3,
    });
    expect(
      resolveConfig({ env: { SVC_DATABASE_POOL_SIZE: '7' }, configFile: file }).database,
    ).toEqual({ url: URL_, poolSize: 7 });
    expect(
      resolveConfig({
        env: { SVC_DATABASE_POOL_SIZE: '7' },
        configFile: file,
        database: { url: URL_, poolSize: 2 },
      }).database,
    ).toEqual({
      url: URL_,
      poolSize: 2,
    });
    // The size applies to whichever URL wins: the environment's URL with the file's size.
    expect(
      resolveConfig({ env: { DATABASE_URL: 'postgres://env@127.0.0.1/db' }, configFile: file })
        .database,
    ).toEqual({
      url: 'postgres://env@127.0.0.1/db',
      poolSize: 3,
    });
    // Unset: the database layer's default (10) applies.
    expect(resolveConfig({ env: { DATABASE_URL: URL_ } }).database).toEqual({ url: URL_ });
  });

  test('embedded PGlite is one connection: the size is ignored there', () => {
    expect(
      resolveConfig({ env: { SVC_DATABASE_POOL_SIZE: '4' }, database: { memory: true } }).database,
    ).toEqual({ memory: true });
  });

  test('a positive integer of at most 1000, from every source', () => {
    const file = (v: string) => tomlFile(`[database]\nurl = "${URL_}"\npool_size = ${v}\n`);
    const zero = file('0');
    const big = file('1001');
    const text = file('"ten"');
    expect(problems({ env: {}, configFile: zero })).toEqual([
      `${zero}:3: [database] pool_size must be an integer from 1 to 1000, got 0`,
    ]);
    expect(problems({ env: {}, configFile: big })).toEqual([
      `${big}:3: [database] pool_size must be an integer from 1 to 1000, got 1001`,
    ]);
    expect(problems({ env: {}, configFile: text })).toEqual([
      `${text}:3: [database] pool_size must be an integer from 1 to 1000, got the string "ten"`,
    ]);
    expect(problems({ env: { SVC_DATABASE_POOL_SIZE: 'many' } })).toEqual([
      'SVC_DATABASE_POOL_SIZE must be an integer from 1 to 1000, got "many"',
    ]);
    expect(problems({ env: { SVC_DATABASE_POOL_SIZE: '2.5' } })).toEqual([
      'SVC_DATABASE_POOL_SIZE must be an integer from 1 to 1000, got "2.5"',
    ]);
    expect(problems({ env: {}, database: { url: URL_, poolSize: 0 } })).toEqual([
      'database.poolSize must be an integer from 1 to 1000, got 0',
    ]);
    expect(problems({ env: {}, database: { url: URL_, poolSize: 1.5 } })).toEqual([
      'database.poolSize must be an integer from 1 to 1000, got 1.5',
    ]);
    expect(resolveConfig({ env: { SVC_DATABASE_POOL_SIZE: '1000' } }).database).toEqual({
      dataDir: './.svc/data',
    });
  });
});

// Issue 33: a transaction-mode pooler without protocol-level prepared statements needs them off.
describe('[database] prepared_statements / SVC_DATABASE_PREPARED_STATEMENTS', () => {
  const URL_ = 'postgres://u@127.0.0.1/db';

  test("unset: the database layer's default (on) applies, nothing added", () => {
    expect(resolveConfig({ env: { DATABASE_URL: URL_ } }).database).toEqual({ url: URL_ });
  });

  test('from the file, the environment and the code, by precedence', () => {
    const file = tomlFile(`[database]\nurl = "${URL_}"\nprepared_statements = false\n`);
    expect(resolveConfig({ env: {}, configFile: file }).database).toEqual({
      url: URL_,
      preparedStatements: false,
    });
    expect(
      resolveConfig({ env: { SVC_DATABASE_PREPARED_STATEMENTS: 'on' }, configFile: file }).database,
    ).toEqual({ url: URL_, preparedStatements: true });
    expect(
      resolveConfig({
        env: { SVC_DATABASE_PREPARED_STATEMENTS: 'yes' },
        configFile: file,
        database: { url: URL_, preparedStatements: false },
      }).database,
    ).toEqual({ url: URL_, preparedStatements: false });
    // It applies to whichever URL wins, beside the pool size.
    expect(
      resolveConfig({
        env: { DATABASE_URL: 'postgres://env@127.0.0.1/db', SVC_DATABASE_POOL_SIZE: '4' },
        configFile: file,
      }).database,
    ).toEqual({ url: 'postgres://env@127.0.0.1/db', poolSize: 4, preparedStatements: false });
  });

  test('embedded PGlite has no prepared statements to turn off: ignored there', () => {
    expect(
      resolveConfig({
        env: { SVC_DATABASE_PREPARED_STATEMENTS: 'false' },
        database: { memory: true },
      }).database,
    ).toEqual({ memory: true });
  });

  test('a boolean, from every source', () => {
    const text = tomlFile(`[database]\nurl = "${URL_}"\nprepared_statements = "no"\n`);
    expect(problems({ env: {}, configFile: text })).toEqual([
      `${text}:3: [database] prepared_statements must be true or false, got the string "no"`,
    ]);
    expect(problems({ env: { SVC_DATABASE_PREPARED_STATEMENTS: 'sometimes' } })).toHaveLength(1);
    expect(problems({ env: { SVC_DATABASE_PREPARED_STATEMENTS: 'sometimes' } })[0]).toMatch(
      /^SVC_DATABASE_PREPARED_STATEMENTS /,
    );
    expect(
      problems({
        env: {},
        database: { url: URL_, preparedStatements: 'no' as unknown as boolean },
      }),
    ).toEqual(['database.preparedStatements must be true or false, got the string "no"']);
    const misspelt = tomlFile(`[database]\nurl = "${URL_}"\nprepared_statement = false\n`);
    expect(problems({ env: {}, configFile: misspelt })).toEqual([
      `${misspelt}:3: unknown key [database] prepared_statement; did you mean 'prepared_statements'?`,
    ]);
  });
});

describe('[server] trust_proxy / SVC_TRUST_PROXY', () => {
  test('unset by default; addresses, CIDRs and proxy-addr names from every source', () => {
    expect(resolveConfig({ env: {} }).trustProxy).toBeUndefined();
    expect(resolveConfig({ env: {}, trustProxy: 'loopback' }).trustProxy).toBe('loopback');
    expect(
      resolveConfig({ env: { SVC_TRUST_PROXY: '10.0.0.0/8, fd00::/8,192.0.2.7' } }).trustProxy,
    ).toBe('10.0.0.0/8, fd00::/8,192.0.2.7');
    const file = tomlFile('[server]\ntrust_proxy = "uniquelocal, linklocal, ::1"\n');
    expect(resolveConfig({ env: {}, configFile: file }).trustProxy).toBe(
      'uniquelocal, linklocal, ::1',
    );
  });

  test('anything else is refused, naming the bad items', () => {
    expect(problems({ env: { SVC_TRUST_PROXY: 'loopback, everyone, 10.0.0.0/33' } })).toEqual([
      'SVC_TRUST_PROXY: not an address, CIDR or loopback/linklocal/uniquelocal: "everyone", "10.0.0.0/33"',
    ]);
    expect(problems({ env: {}, trustProxy: true as never })).toEqual([
      'trustProxy must be a comma-separated list of addresses, CIDRs or loopback, linklocal, uniquelocal, got true',
    ]);
    expect(problems({ env: { SVC_TRUST_PROXY: ' ' } })).toEqual([
      'SVC_TRUST_PROXY must be a comma-separated list of addresses, CIDRs or loopback, linklocal, uniquelocal, got " "',
    ]);
    expect(problems({ env: {}, trustProxy: '::1/129' })).toEqual([
      'trustProxy: not an address, CIDR or loopback/linklocal/uniquelocal: "::1/129"',
    ]);
  });
});

describe('[server] default_access / SVC_DEFAULT_ACCESS (DECISIONS "Added 2026-11-29")', () => {
  test('open by default; deny from the file, the environment and the code, by precedence', () => {
    expect(resolveConfig({ env: {} }).defaultAccess).toBe('open');
    const file = tomlFile('[server]\ndefault_access = "deny"\n');
    expect(resolveConfig({ env: {}, configFile: file }).defaultAccess).toBe('deny');
    expect(
      resolveConfig({ env: { SVC_DEFAULT_ACCESS: 'open' }, configFile: file }).defaultAccess,
    ).toBe('open');
    expect(
      resolveConfig({ env: { SVC_DEFAULT_ACCESS: 'open' }, defaultAccess: 'deny' }).defaultAccess,
    ).toBe('deny');
  });

  test('anything but open or deny is refused at start, from every source', () => {
    const file = tomlFile('[server]\ndefault_access = "closed"\n');
    expect(
      problems({
        configFile: file,
        env: { SVC_DEFAULT_ACCESS: 'Deny' },
        defaultAccess: true as never,
      }),
    ).toEqual([
      'defaultAccess must be one of open, deny, got true',
      'SVC_DEFAULT_ACCESS must be one of open, deny, got "Deny"',
      `${file}:2: [server] default_access must be one of open, deny, got the string "closed"`,
    ]);
  });
});

describe('[server] metrics_token / SVC_METRICS_TOKEN (issue 26, 9)', () => {
  const token = (c: string) => `metrics-${c.repeat(32)}`;

  test('unset by default; from the file, the environment and the code, by precedence', () => {
    expect(resolveConfig({ env: {} }).metricsToken).toBeUndefined();
    const file = tomlFile(`[server]\nmetrics_token = "${token('f')}"\n`);
    expect(resolveConfig({ env: {}, configFile: file }).metricsToken).toBe(token('f'));
    const env = { SVC_METRICS_TOKEN: token('e') };
    expect(resolveConfig({ env, configFile: file }).metricsToken).toBe(token('e'));
    expect(resolveConfig({ env, metricsToken: token('c') }).metricsToken).toBe(token('c'));
  });

  test('refused at start: short, not a bearer token, the service key; never echoed', () => {
    const short = 'too-short';
    const spaced = `${token('s')} and more`;
    const shared = token('k');
    const found = [
      ...problems({ env: { SVC_METRICS_TOKEN: short } }),
      ...problems({ env: {}, metricsToken: spaced }),
      ...problems({
        env: {},
        configFile: tomlFile(`[server]\nmetrics_token = "${shared}"\nservice_key = "${shared}"\n`),
      }),
    ];
    expect(found).toEqual([
      'metricsToken must be at least 32 characters (got 9)',
      'metricsToken must be a bearer token: letters, digits and - . _ ~ + /, then any = (RFC 6750)',
      'metricsToken must not be the service key',
    ]);
    for (const secret of [short, spaced, shared]) expect(found.join('\n')).not.toContain(secret);
    expect(problems({ env: {}, metricsToken: 42 as never })).toEqual([
      'metricsToken must be a string',
    ]);
  });
});

// Issue 33: read replicas.
describe('[database] replica_urls / SVC_DATABASE_REPLICA_URLS, max_replica_lag', () => {
  const URL_ = 'postgres://u@127.0.0.1/db';
  const R1 = 'postgres://u:secret@127.0.0.2/db';
  const R2 = 'postgresql://u@127.0.0.3/db';

  test('from the file, the environment and the code, by precedence; the lag defaults to 10', () => {
    const file = tomlFile(
      `[database]\nurl = "${URL_}"\nreplica_urls = ["${R1}"]\nmax_replica_lag = 5\n`,
    );
    expect(resolveConfig({ env: {}, configFile: file }).database).toEqual({
      url: URL_,
      replicas: [R1],
      maxReplicaLag: 5,
    });
    expect(
      resolveConfig({ env: { SVC_DATABASE_REPLICA_URLS: ` ${R1}, ${R2} ` }, configFile: file })
        .database,
    ).toEqual({ url: URL_, replicas: [R1, R2], maxReplicaLag: 5 });
    expect(
      resolveConfig({
        env: { SVC_DATABASE_REPLICA_URLS: R1, SVC_DATABASE_MAX_REPLICA_LAG: '3' },
        configFile: file,
        database: { url: URL_, replicas: [R2] },
      }).database,
    ).toEqual({ url: URL_, replicas: [R2], maxReplicaLag: 3 });
    expect(
      resolveConfig({ env: { DATABASE_URL: URL_, SVC_DATABASE_REPLICA_URLS: R2 } }).database,
    ).toEqual({ url: URL_, replicas: [R2], maxReplicaLag: 10 });
    // None: nothing added.
    expect(resolveConfig({ env: { DATABASE_URL: URL_ } }).database).toEqual({ url: URL_ });
  });

  test('PGlite has no replicas: the setting is refused on an embedded database', () => {
    const refused =
      'replica_urls needs a PostgreSQL database (url): embedded PGlite has no replicas';
    expect(problems({ env: { SVC_DATABASE_REPLICA_URLS: R1 } })).toEqual([refused]);
    expect(problems({ env: {}, database: { memory: true, replicas: [R1] } as never })).toEqual([
      refused,
    ]);
    const file = tomlFile(`[database]\ndata_dir = "data"\nreplica_urls = ["${R1}"]\n`);
    expect(problems({ env: {}, configFile: file })).toEqual([refused]);
  });

  test('a list of postgres:// URLs, never echoed; the lag a positive integer', () => {
    const file = tomlFile(`[database]\nurl = "${URL_}"\nreplica_urls = "${R1}"\n`);
    expect(problems({ env: {}, configFile: file })).toEqual([
      `${file}:3: [database] replica_urls must be a list of postgres:// URLs`,
    ]);
    expect(problems({ env: { SVC_DATABASE_REPLICA_URLS: 'mysql://u:secret@h/db' } })).toEqual([
      'SVC_DATABASE_REPLICA_URLS must be a list of postgres:// URLs',
    ]);
    expect(
      problems({ env: {}, database: { url: URL_, replicas: 'x' as never, maxReplicaLag: 0 } }),
    ).toEqual([
      'database.replicas must be a list of postgres:// URLs',
      'database.maxReplicaLag must be an integer from 1 to 86400, got 0',
    ]);
    expect(problems({ env: { SVC_DATABASE_MAX_REPLICA_LAG: 'soon' } })).toEqual([
      'SVC_DATABASE_MAX_REPLICA_LAG must be an integer from 1 to 86400, got "soon"',
    ]);
  });
});
