import { SECRET_SHOWN } from '@svc/auth';
import { DATABASE_FIELDS, isSecretField, SERVER_FIELDS } from './fields';
import { resolveConfig } from './index';
import { describeSettings } from './shown';

// The attack: the admin UI's settings page (or a screenshot of it) showing the JWT secret, the
// service key, the metrics token or the database password. Each is a distinct marker here.
const JWT = 'jwt-secret-marker-0123456789-0123456789';
const SERVICE_KEY = 'service-key-marker-0123456789-0123456789';
const METRICS = 'metrics-token-marker-0123456789-0123456789';
const DB_PASSWORD = 'db-password-marker';

describe('describeSettings', () => {
  const config = resolveConfig({
    env: {},
    enableAuth: true,
    jwtSecret: JWT,
    serviceKey: SERVICE_KEY,
    metricsToken: METRICS,
    requestTimeout: 12000,
    database: { url: `postgres://svc:${DB_PASSWORD}@db.example.com:5432/svc` },
  });

  test('no secret value appears anywhere', () => {
    const text = JSON.stringify(describeSettings(config));
    for (const secret of [JWT, SERVICE_KEY, METRICS, DB_PASSWORD])
      expect(text).not.toContain(secret);
  });

  test('every field by its key; the secret ones only as set or not', () => {
    const { server, database } = describeSettings(config);
    expect(Object.keys(server)).toEqual(SERVER_FIELDS.map((f) => f.key));
    for (const f of SERVER_FIELDS.filter(isSecretField)) expect(server[f.key]).toBe(SECRET_SHOWN);
    expect(server.requestTimeout).toBe(12000);
    expect(server.enableAuth).toBe(true);
    expect(database.url).toBe(SECRET_SHOWN);
    expect(Object.keys(database)).toEqual(DATABASE_FIELDS.map((f) => f.key));
  });

  test('the secret fields are marked in fields.ts, the database URL among them', () => {
    expect(SERVER_FIELDS.filter(isSecretField).map((f) => f.key)).toEqual([
      'jwtSecret',
      'serviceKey',
      'metricsToken',
    ]);
    expect(DATABASE_FIELDS.filter(isSecretField).map((f) => f.key)).toEqual(['url', 'replicas']);
  });

  test('an unset secret shows as null', () => {
    const { server } = describeSettings(resolveConfig({ env: {}, database: { memory: true } }));
    expect(server.serviceKey).toBeNull();
  });
});
