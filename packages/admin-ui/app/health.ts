/**
 * Health: the figures svc already keeps (`GET /stats`, the same as `/metrics`): readiness,
 * request rate (between two refreshes) and counts by route and status, latency (mean and
 * percentiles estimated from the histogram), the compile cache and the database pool. Refreshed
 * every 5 seconds while shown.
 */
import { call } from './api';
import { h, replace } from './dom';
import type { ViewContext } from './view';

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
  const { count, buckets } = stats.latency;
  if (count === 0) return '—';
  const want = q * count;
  for (const b of buckets)
    if (b.count >= want) return b.le === '+Inf' ? 'slower than the last bucket' : `≤ ${ms(b.le)}`;
  return '—';
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
  const load = async () => {
    const [ready, stats] = await Promise.all([
      call('/health/ready').then(
        () => 'ready',
        (err: Error) => `not ready: ${err.message}`,
      ),
      call<Stats>('/stats').then((a) => a.data),
    ]);
    const now = performance.now();
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
      h('h3', null, 'Requests by route'),
      h(
        'table',
        { class: 'grid', id: 'health-routes' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', null, 'method'),
            h('th', null, 'route'),
            h('th', null, 'status'),
            h('th', null, 'count'),
          ),
        ),
        h(
          'tbody',
          null,
          ...routes.map((r) =>
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
