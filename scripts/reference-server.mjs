// The server the documentation scripts read (scripts/lint-openapi.mjs, scripts/docs-http.mjs):
// the built packages, embedded PGlite in memory, the fixture schema of @svc/rest's document tests
// (every REST feature: expand, hidden, computeds, multi and union links, enums, every scalar
// kind), auth on behind `requireAuth`, listening on 127.0.0.1 on a free port.
//
// startReferenceServer(authConfig?) resolves with { server, openapi() }: `openapi()` fetches the
// served /api/openapi.json with the service key. The caller closes the server.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
/** Loads a module the way the built server does (its own copies of core and auth). */
export const serverRequire = createRequire(join(root, 'packages/server/package.json'));

const SERVICE_KEY = `reference-service-key-${'k'.repeat(32)}`;

export async function startReferenceServer(authConfig) {
  const { createServer } = serverRequire('./dist/index.js');
  const schema = readFileSync(
    join(root, 'packages/rest/src/openapi/__fixtures__/schema.esdl'),
    'utf8',
  );
  const server = await createServer({
    env: {},
    logLevel: 'silent',
    database: { memory: true },
    schema,
    enableAuth: true,
    jwtSecret: `reference-jwt-secret-${'s'.repeat(32)}`,
    requireAuth: true,
    serviceKey: SERVICE_KEY,
    ...(authConfig ? { authConfig } : {}),
  });
  try {
    await server.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    await server.close();
    throw err;
  }
  const openapi = async () => {
    const res = await fetch(`${server.url}/api/openapi.json`, {
      headers: { authorization: `Bearer ${SERVICE_KEY}` },
      signal: AbortSignal.timeout(30_000),
    });
    if (res.status !== 200)
      throw new Error(`GET /api/openapi.json: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return { server, openapi };
}
