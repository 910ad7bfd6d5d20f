/**
 * Health: the figures svc already keeps (`GET /_/api/db/stats`, the `/stats` handler again, which a
 * superuser reads there even when `metricsToken` closes `/stats` to anything but that token):
 * readiness, request rate (between two refreshes) and counts by route and status, latency (mean
 * and percentiles estimated from the histogram), the compile cache and the database pool.
 * Refreshed every 5 seconds while shown; the last SAMPLES refreshes are kept to draw the request
 * rate and the p95 latency over time (inline SVG made with DOM calls, styled by classes).
 */
import { call } from './api';
import { h, replace } from '@svc/dom';
import { grid, type ViewContext } from './view';

interface Stats {
  uptimeSeconds: number;
  requests: {
    total: number;
    byRoute: { method: string; route: string; status: number; count: number }[];
  };
  latency: { count: number; sumSeconds: number; buckets: { le: number | '+Inf'; count: number }[] };
  queryCompileCache: { hits: number; misses: number };
  cancelledStatements: number;
  databasePool: unknown;
}

/** The latency under which `q` of the requests fell (the bucket's upper bound). */
function percentile(stats: Stats, q: number): string {
  const le = bucketAt(stats.latency.buckets, stats.latency.count, q);
  if (le === undefined) return '—';
  return le === '+Inf' ? 'slower than the last bucket' : `≤ ${ms(le)}`;
}

/** The upper bound of the cumulative bucket holding the `q` quantile of `count` requests. */
function bucketAt(
  buckets: readonly { le: number | '+Inf'; count: number }[],
  count: number,
  q: number,
): number | '+Inf' | undefined {
  if (count <= 0) return undefined;
  const want = q * count;
  for (const b of buckets) if (b.count >= want) return b.le;
  return undefined;
}

/** How many refreshes the charts keep (5 minutes at one every 5 seconds). */
const SAMPLES = 60;

interface Sample {
  /** performance.now() of the answer. */
  at: number;
  stats: Stats;
}

/** One point per interval between two samples: its request rate and its p95 (seconds). */
function series(samples: readonly Sample[]): { rate: number[]; p95: (number | null)[] } {
  const rate: number[] = [];
  const p95: (number | null)[] = [];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1] as Sample;
    const b = samples[i] as Sample;
    const seconds = Math.max(0.001, (b.at - a.at) / 1000);
    rate.push((b.stats.requests.total - a.stats.requests.total) / seconds);
    // The interval's own histogram: each cumulative bucket minus the one before it.
    const buckets = b.stats.latency.buckets.map((x, k) => ({
      le: x.le,
      count: x.count - (a.stats.latency.buckets[k]?.count ?? 0),
    }));
    const le = bucketAt(buckets, b.stats.latency.count - a.stats.latency.count, 0.95);
    const last = b.stats.latency.buckets.at(-2)?.le;
    p95.push(
      le === undefined ? null : le === '+Inf' ? (typeof last === 'number' ? last : null) : le,
    );
  }
  return { rate, p95 };
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag: string, attrs: Record<string, string>): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

/**
 * A small line chart of `values` (null: no point) on a fixed 300×90 view box, scaled to its own
 * maximum, oldest at the left; its title and the latest value above it.
 */
function chart(
  id: string,
  title: string,
  values: readonly (number | null)[],
  unit: (v: number) => string,
) {
  const W = 300;
  const H = 90;
  const known = values.filter((v): v is number => v !== null);
  const max = Math.max(...known, 0) || 1;
  // The intervals kept span the width (a single one sits at the right edge).
  const step = W / Math.max(1, values.length - 1);
  const x0 = values.length === 1 ? W : 0;
  const points = values
    .map((v, i) =>
      v === null
        ? null
        : `${(x0 + i * step).toFixed(1)},${(H - 4 - (v / max) * (H - 12)).toFixed(1)}`,
    )
    .filter((p): p is string => p !== null);
  const box = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    preserveAspectRatio: 'none',
    role: 'img',
    'aria-label': `${title} over the last ${values.length} intervals`,
  });
  box.append(
    svg('line', { class: 'axis', x1: '0', y1: String(H - 4), x2: String(W), y2: String(H - 4) }),
  );
  if (points.length > 1) {
    const first = points[0]?.split(',')[0] ?? '0';
    const lastX = points.at(-1)?.split(',')[0] ?? String(W);
    box.append(
      svg('polygon', {
        class: 'area',
        points: `${first},${H - 4} ${points.join(' ')} ${lastX},${H - 4}`,
      }),
      svg('polyline', { class: 'line', points: points.join(' ') }),
    );
  } else if (points.length === 1) {
    const [cx, cy] = (points[0] as string).split(',');
    box.append(svg('circle', { class: 'line', cx: cx ?? '0', cy: cy ?? '0', r: '2' }));
  }
  const latest = known.at(-1);
  return h(
    'div',
    { class: 'chart card', id },
    h('div', { class: 'muted' }, title, ' ', h('span', { class: 'mono' }, `(max ${unit(max)})`)),
    h('div', { class: 'big' }, latest === undefined ? '—' : unit(latest)),
    box,
    values.length === 0 ? h('div', { class: 'muted' }, 'drawn from the next refresh on') : null,
  );
}

function ms(seconds: number): string {
  return seconds < 1
    ? `${Math.round(seconds * 1000 * 10) / 10} ms`
    : `${Math.round(seconds * 100) / 100} s`;
}

export async function healthView(el: HTMLElement, _ctx: ViewContext): Promise<void> {
  const body = h('div', { id: 'health' });
  replace(el, h('div', { class: 'main wide' }, h('h2', null, 'Health'), body));
  let last: { at: number; total: number } | undefined;
  const samples: Sample[] = [];
  const load = async () => {
    const [ready, stats] = await Promise.all([
      call('/health/ready').then(
        () => 'ready',
        (err: Error) => `not ready: ${err.message}`,
      ),
      call<Stats>('/stats').then((a) => a.data),
    ]);
    const now = performance.now();
    samples.push({ at: now, stats });
    if (samples.length > SAMPLES) samples.splice(0, samples.length - SAMPLES);
    const over = series(samples);
    // Between two refreshes; on the first, the average since the server started.
    const rate = last
      ? ((stats.requests.total - last.total) / ((now - last.at) / 1000)).toFixed(2)
      : (stats.requests.total / Math.max(1, stats.uptimeSeconds)).toFixed(2);
    last = { at: now, total: stats.requests.total };
    const mean = stats.latency.count ? ms(stats.latency.sumSeconds / stats.latency.count) : '—';
    const figure = (label: string, value: string, id?: string) =>
      h(
        'div',
        { class: 'figure card', id },
        h('div', { class: 'muted' }, label),
        h('div', { class: 'big' }, value),
      );
    const routes = [...stats.requests.byRoute].sort((a, b) => b.count - a.count);
    // Buckets are cumulative: each bucket's own requests are the difference with the one before.
    const own = stats.latency.buckets.map(
      (b, i) => b.count - (i > 0 ? (stats.latency.buckets[i - 1]?.count ?? 0) : 0),
    );
    const max = Math.max(1, ...own);
    replace(
      body,
      h(
        'div',
        { class: 'figures-row' },
        figure('Database', ready, 'health-ready'),
        figure('Uptime', `${stats.uptimeSeconds} s`),
        figure('Requests', String(stats.requests.total), 'health-total'),
        figure('Rate (req/s)', String(rate)),
        figure('Mean latency', mean),
        figure('p50 / p95', `${percentile(stats, 0.5)} / ${percentile(stats, 0.95)}`),
        figure(
          'Compile cache hits / misses',
          `${stats.queryCompileCache.hits} / ${stats.queryCompileCache.misses}`,
        ),
        figure('Cancelled statements', String(stats.cancelledStatements)),
      ),
      h(
        'div',
        { class: 'charts' },
        chart('chart-rate', 'Requests per second', over.rate, (v) => v.toFixed(2)),
        chart('chart-p95', 'p95 latency (bucket bound)', over.p95, ms),
      ),
      h('h3', null, 'Requests by route'),
      grid(
        { class: 'grid', id: 'health-routes' },
        ['method', 'route', 'status', 'count'],
        routes.map((r) =>
          h(
            'tr',
            null,
            h('td', null, r.method),
            h('td', { class: 'mono' }, r.route),
            h('td', { class: r.status >= 500 ? 'message' : '' }, String(r.status)),
            h('td', null, String(r.count)),
          ),
        ),
      ),
      h('h3', null, 'Latency (requests per bucket)'),
      h(
        'table',
        { class: 'grid', id: 'health-latency' },
        h(
          'tbody',
          null,
          ...stats.latency.buckets.map((b, i) =>
            h(
              'tr',
              null,
              h('th', null, b.le === '+Inf' ? 'slower' : `≤ ${ms(b.le)}`),
              h(
                'td',
                null,
                h('progress', { max: String(max), value: String(own[i] ?? 0) }),
                ` ${own[i] ?? 0}`,
              ),
            ),
          ),
        ),
      ),
      h('h3', null, 'Database pool'),
      h('pre', { class: 'json' }, JSON.stringify(stats.databasePool, null, 2)),
    );
  };
  await load();
  const timer = setInterval(() => {
    if (!document.body.contains(body)) {
      clearInterval(timer);
      return;
    }
    void load().catch(() => undefined);
  }, 5000);
}
