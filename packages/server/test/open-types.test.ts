/*
 * Visible defaults (DECISIONS "Added 2026-11-29"): with auth on, the server names at start the
 * types every caller, anonymous ones included, may read and write (no access policy under
 * `defaultAccess: 'open'`, or any type under the `simple` protocol), once, and again after a
 * migration that changes that list; `GET /schema/types` marks each type `open`.
 */
import type { CreateServerOptions, SvcServer } from '../src';
import { SECRET, build, call, captureLogger, readJson, sharedDatabase } from './helpers';

const db = sharedDatabase();
const SERVICE_KEY = `svc-service-key-${'o'.repeat(32)}`;

const SDL = `
abstract type Named { required name: str; }
type Note extending Named { body: str; }
type Tag extending Named;
type Post {
  required title: str;
  access policy readable allow select using (true);
}
`;
const ALL_GUARDED = `
type Post {
  required title: str;
  access policy readable allow select using (true);
}
`;

/** The open-types warnings a server logged, as [message, types]. */
function warnings(lines: readonly string[]): [string, string[]][] {
  return lines
    .map((l) => JSON.parse(l) as { level: number; msg: string; openTypes?: string[] })
    .filter((l) => l.msg.includes('open to anonymous callers'))
    .map((l) => {
      expect(l.level).toBe(40); // warn
      return [l.msg, l.openTypes ?? []];
    });
}

async function serve(options: CreateServerOptions) {
  const { logger, lines } = captureLogger();
  const server = await build(db.get(), {
    enableAuth: true,
    jwtSecret: SECRET,
    serviceKey: SERVICE_KEY,
    logger,
    ...options,
  });
  return { server, lines };
}

const migrate = (server: SvcServer, schema: string) =>
  call(server, '/migrations', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_KEY}` },
    body: JSON.stringify({ schema, allowDataLoss: true }),
  });

async function openFlags(server: SvcServer): Promise<Record<string, boolean>> {
  const res = await call(server, '/schema/types', {
    headers: { authorization: `Bearer ${SERVICE_KEY}` },
  });
  expect(res.status).toBe(200);
  const { types } = (await readJson(res)) as { types: { name: string; open: boolean }[] };
  return Object.fromEntries(types.map((t) => [t.name, t.open]));
}

beforeEach(async () => {
  // Each test starts from an empty schema in the shared database.
  await db.get().db.query('drop schema if exists "default" cascade');
  await db.get().db.query('drop schema if exists svc_meta cascade');
});

describe('the start-up warning', () => {
  test('with auth on: one warning naming the concrete types without access policies', async () => {
    const { server, lines } = await serve({ schema: SDL });
    try {
      expect(warnings(lines)).toEqual([
        [
          '2 types are open to anonymous callers (no access policy and default_access "open"; add access policies, or set default_access = "deny"): default::Note, default::Tag',
          ['default::Note', 'default::Tag'],
        ],
      ]);
    } finally {
      await server.close();
    }
  });

  test('for the schema already stored when none is given at start', async () => {
    await (await serve({ schema: SDL })).server.close();
    const { server, lines } = await serve({});
    try {
      expect(warnings(lines).map(([, types]) => types)).toEqual([
        ['default::Note', 'default::Tag'],
      ]);
    } finally {
      await server.close();
    }
  });

  test('under the simple protocol every concrete type is open, policies or not', async () => {
    const { server, lines } = await serve({ schema: SDL, protocol: 'simple' });
    try {
      expect(warnings(lines)).toEqual([
        [
          '3 types are open to anonymous callers (protocol "simple" applies no access policies; use "full" to apply them): default::Note, default::Post, default::Tag',
          ['default::Note', 'default::Post', 'default::Tag'],
        ],
      ]);
    } finally {
      await server.close();
    }
  });

  test.each([
    ['auth is off', { schema: SDL, enableAuth: false }],
    ['defaultAccess is deny', { schema: SDL, defaultAccess: 'deny' }],
    ['every type has a policy', { schema: ALL_GUARDED }],
    ['there is no schema', {}],
  ] as const)('none when %s', async (_why, options) => {
    const { server, lines } = await serve(options);
    try {
      expect(warnings(lines)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('after POST /migrations', () => {
  test('logged again when a migration changes the open types, not otherwise', async () => {
    const { server, lines } = await serve({ schema: ALL_GUARDED });
    try {
      expect(warnings(lines)).toEqual([]);
      expect((await migrate(server, SDL)).status).toBe(200);
      expect(warnings(lines).map(([, types]) => types)).toEqual([
        ['default::Note', 'default::Tag'],
      ]);
      // A change that leaves the list as it was: nothing more.
      expect(
        (await migrate(server, SDL.replace('body: str;', 'body: str; n: int64;'))).status,
      ).toBe(200);
      expect(warnings(lines)).toHaveLength(1);
      // No open type left: nothing to warn of.
      expect((await migrate(server, ALL_GUARDED)).status).toBe(200);
      expect(warnings(lines)).toHaveLength(1);
      // Open again: warned again.
      expect((await migrate(server, SDL)).status).toBe(200);
      expect(warnings(lines)).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  test('a dry run logs nothing', async () => {
    const { server, lines } = await serve({ schema: ALL_GUARDED });
    try {
      const res = await call(server, '/migrations', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_KEY}` },
        body: JSON.stringify({ schema: SDL, dryRun: true }),
      });
      expect((await readJson(res)).applied).toBe(false);
      expect(warnings(lines)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('GET /schema/types marks each type open or not', () => {
  test.each([
    [
      'defaultAccess open',
      {},
      {
        'default::Named': true,
        'default::Note': true,
        'default::Tag': true,
        'default::Post': false,
      },
    ],
    [
      'defaultAccess deny',
      { defaultAccess: 'deny' },
      {
        'default::Named': false,
        'default::Note': false,
        'default::Tag': false,
        'default::Post': false,
      },
    ],
    [
      'the simple protocol',
      { protocol: 'simple' },
      {
        'default::Named': true,
        'default::Note': true,
        'default::Tag': true,
        'default::Post': true,
      },
    ],
  ] as const)('%s', async (_name, options, expected) => {
    const { server } = await serve({ schema: SDL, ...options });
    try {
      expect(await openFlags(server)).toEqual(expected);
    } finally {
      await server.close();
    }
  });

  test('with auth off too', async () => {
    const { server } = await serve({ schema: SDL, enableAuth: false });
    try {
      expect((await openFlags(server))['default::Post']).toBe(false);
      expect((await openFlags(server))['default::Note']).toBe(true);
    } finally {
      await server.close();
    }
  });
});
