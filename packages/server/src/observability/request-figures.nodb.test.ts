import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { RequestFigures } from './request-figures';

const BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const NAMES = {
  requests: { name: 'svc_http_requests_total', help: 'HTTP requests answered' },
  latency: { name: 'svc_http_request_duration_seconds', help: 'HTTP request latency' },
};

interface Observation {
  method: string;
  route: string;
  status: number;
  seconds: number;
}

/** The same observations through prom-client's own Counter and Histogram, printed. */
async function promClientText(observations: readonly Observation[]): Promise<string> {
  const registry = new Registry();
  const counter = new Counter({
    ...NAMES.requests,
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const histogram = new Histogram({
    ...NAMES.latency,
    labelNames: ['method', 'route'],
    buckets: BOUNDS,
    registers: [registry],
  });
  for (const o of observations) {
    counter.labels(o.method, o.route, String(o.status)).inc();
    histogram.labels(o.method, o.route).observe(o.seconds);
  }
  return registry.metrics();
}

async function figuresText(observations: readonly Observation[]): Promise<string> {
  const registry = new Registry();
  const figures = new RequestFigures(BOUNDS);
  figures.register(registry, NAMES);
  for (const o of observations) figures.observe(o.method, o.route, o.status, o.seconds);
  return registry.metrics();
}

const observation = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE'),
  route: fc.constantFrom(
    '/query',
    '/api/Book/:id',
    '/health/live',
    'unmatched',
    '/a "quoted" \\ route',
  ),
  status: fc.constantFrom(200, 201, 400, 404, 500),
  // On the bounds, between them, below the first and above the last.
  seconds: fc.oneof(
    fc.constantFrom(...BOUNDS, 0, 11, 1e-7),
    fc.double({ min: 0, max: 20, noNaN: true }),
  ),
});

describe('request figures', () => {
  test('print what prom-client prints for the same observations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 60 }), async (observations) => {
        expect(await figuresText(observations)).toBe(await promClientText(observations));
      }),
      { numRuns: 200 },
    );
  });

  test('with no request yet: the two figures named, with no values', async () => {
    const text = await figuresText([]);
    expect(text).toBe(await promClientText([]));
    expect(text).toContain('# TYPE svc_http_requests_total counter');
    expect(text).toContain('# TYPE svc_http_request_duration_seconds histogram');
  });

  test('the answered requests and one overall distribution, cumulative', () => {
    const figures = new RequestFigures([0.01, 0.1]);
    figures.observe('GET', '/a', 200, 0.005);
    figures.observe('GET', '/a', 200, 0.05);
    figures.observe('GET', '/a', 404, 0.5);
    figures.observe('POST', '/b', 200, 0.01);
    expect(figures.answered()).toEqual([
      { method: 'GET', route: '/a', status: 200, count: 2 },
      { method: 'GET', route: '/a', status: 404, count: 1 },
      { method: 'POST', route: '/b', status: 200, count: 1 },
    ]);
    const overall = figures.overallLatency();
    expect(overall.count).toBe(4);
    expect(overall.sumSeconds).toBeCloseTo(0.565, 12);
    expect(overall.buckets).toEqual([
      { le: 0.01, count: 2 },
      { le: 0.1, count: 3 },
      { le: '+Inf', count: 4 },
    ]);
  });

  test("the registry's reset empties both", async () => {
    const registry = new Registry();
    const figures = new RequestFigures(BOUNDS);
    figures.register(registry, NAMES);
    figures.observe('GET', '/a', 200, 0.005);
    registry.resetMetrics();
    expect(figures.answered()).toEqual([]);
    expect(await registry.metrics()).toBe(await promClientText([]));
  });
});
