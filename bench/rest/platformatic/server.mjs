// Platformatic DB as a user deploys it over an existing PostgreSQL database: its REST routes
// (sql-openapi over sql-mapper) for the tables of schema `default`, no migrations, GraphQL off
// (not measured), logging at warn as svc's, a pool of 10 as svc's and the bare handler's.
// Routes: GET /defaultItem/{id}, GET /defaultItem/?limit=100&orderby.id=asc.
// Usage (by ../run.mjs): node server.mjs <database-url>
import platformaticDb from '@platformatic/db';

const app = await platformaticDb.buildServer({
  server: { hostname: '127.0.0.1', port: 0, logger: { level: 'warn' } },
  db: {
    connectionString: process.argv[2],
    schema: ['default'],
    poolSize: 10,
    openapi: true,
    graphql: false,
  },
});
await app.start();
console.log(`port=${new URL(app.url).port}`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
