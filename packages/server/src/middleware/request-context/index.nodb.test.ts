import type { NextFunction, Request, Response } from 'express';
import { commonError } from '@svc/core';
import { captureLogger } from '../../../test/helpers';
import type { ServerMetrics } from '../../observability/metrics';
import { appWith, request } from '../../testing';
import { Lifecycle, requestContext } from '.';

/** requestContext first, then `handlers`, with what it reports captured. */
function withContext(
  ...handlers: Array<(req: Request, res: Response, next: NextFunction) => void>
) {
  const { logger, lines } = captureLogger();
  const observed: unknown[][] = [];
  const metrics = {
    observeRequest: (...args: unknown[]) => void observed.push(args),
  } as unknown as ServerMetrics;
  const lifecycle = new Lifecycle();
  const app = appWith([requestContext({ logger, metrics, lifecycle }), ...handlers], logger);
  const logged = () =>
    lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((l) => l.msg === 'request');
  return { app, lifecycle, observed, logged };
}
const ok = (_req: Request, res: Response) => void res.status(200).json({ ok: true });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test('a request id on every response: a sane incoming one is kept, others replaced by a UUID', async () => {
  const { app } = withContext(ok);
  expect((await request(app, '/')).headers.get('x-request-id')).toMatch(UUID);
  expect(
    (await request(app, '/', { headers: { 'x-request-id': 'trace-abc.123' } })).headers.get(
      'x-request-id',
    ),
  ).toBe('trace-abc.123');
  for (const bad of ['x'.repeat(129), 'a b', 'a/b']) {
    expect(
      (await request(app, '/', { headers: { 'x-request-id': bad } })).headers.get('x-request-id'),
    ).toMatch(UUID);
  }
  // Errors too.
  expect((await request(withContext().app, '/nowhere')).headers.get('x-request-id')).toMatch(UUID);
});

test('counts the request in flight until its response closes; draining answers Connection: close', async () => {
  let during = -1;
  const { app, lifecycle } = withContext((_req, res) => {
    during = lifecycle.inFlight;
    res.status(200).json({ ok: true });
  });
  const res = await request(app, '/');
  expect(res.headers.get('connection')).toBe('keep-alive');
  expect(during).toBe(1);
  await lifecycle.idle();
  expect(lifecycle.inFlight).toBe(0);
  lifecycle.draining = true;
  expect((await request(app, '/')).headers.get('connection')).toBe('close');
});

test('one metrics observation and one log line per request: route pattern, path without the query, never headers', async () => {
  const { app, observed, logged } = withContext((req, res, next) => {
    if (req.path === '/labelled') res.locals.route = '/labelled/*';
    if (req.path === '/fails') return next(new Error('boom'));
    res.status(200).json({ ok: true });
  });
  await request(app, '/labelled?token=secret-in-query', {
    headers: { authorization: 'Bearer secret-in-header', 'x-request-id': 'r1' },
  });
  await request(app, '/other', { method: 'POST', headers: { 'x-request-id': 'r2' } });
  await request(app, '/fails', { headers: { 'x-request-id': 'r3' } });
  await new Promise((resolve) => setImmediate(resolve));
  expect(observed.map(([method, route, status]) => [method, route, status])).toEqual([
    ['GET', '/labelled/*', 200],
    ['POST', 'unmatched', 200],
    ['GET', 'unmatched', 500],
  ]);
  for (const [, , , seconds] of observed) expect(seconds).toBeGreaterThanOrEqual(0);
  const lines = logged();
  expect(
    lines.map(({ reqId, method, route, path, status, level }) => ({
      reqId,
      method,
      route,
      path,
      status,
      level,
    })),
  ).toEqual([
    { reqId: 'r1', method: 'GET', route: '/labelled/*', path: '/labelled', status: 200, level: 30 },
    { reqId: 'r2', method: 'POST', route: 'unmatched', path: '/other', status: 200, level: 30 },
    { reqId: 'r3', method: 'GET', route: 'unmatched', path: '/fails', status: 500, level: 30 },
  ]);
  expect(JSON.stringify(lines)).not.toContain('secret-in');
});

test('/health requests log at debug, the rest at info', async () => {
  const { app, logged } = withContext((_req, res) => {
    res.locals.route = _req.path;
    res.status(200).json({ ok: true });
  });
  await request(app, '/health/live');
  await request(app, '/schema');
  await new Promise((resolve) => setImmediate(resolve));
  expect(logged().map((l) => [l.route, l.level])).toEqual([
    ['/health/live', 20],
    ['/schema', 30],
  ]);
});

test("a refused request's line carries its envelope's code; a successful one none", async () => {
  const { app, logged } = withContext((req, res, next) => {
    if (req.path === '/refused') return next(commonError('VALIDATION_ERROR', 'no'));
    if (req.path === '/fails') return next(new Error('boom'));
    res.status(200).json({ ok: true });
  });
  await request(app, '/refused');
  await request(app, '/fails');
  await request(app, '/fine');
  await new Promise((resolve) => setImmediate(resolve));
  expect(logged().map((l) => [l.path, l.status, l.code])).toEqual([
    ['/refused', 400, 'VALIDATION_ERROR'],
    ['/fails', 500, 'INTERNAL_ERROR'],
    ['/fine', 200, undefined],
  ]);
});
