/**
 * The per-request figures of `/metrics` and `/stats`: requests answered by method, route and
 * status (a counter), and their latency by method and route (a histogram).
 *
 * Every request records one observation, so recording is a map lookup and a few additions. A
 * prom-client `Counter` or `Histogram` child, even one kept per label set, converts, validates
 * and hashes its labels on each call (about 3 µs a request on this project's by-id and liveness
 * benchmarks, issue 34); here the label set's key is made once, where the route is named.
 *
 * The two figures are handed to prom-client's registry as metrics of their own (`counter()`,
 * `histogram()`): at a scrape the registry asks them for their values and prints them as it
 * prints its own metrics. `request-figures.nodb.test.ts` holds the printed text equal to what
 * prom-client's `Counter` and `Histogram` print for the same observations.
 */
import type { Metric, Registry } from 'prom-client';

/** One label set's latency: a count per bucket (not cumulative), their sum and count. */
interface Latency {
  readonly labels: { readonly method: string; readonly route: string };
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

interface Answered {
  readonly labels: { readonly method: string; readonly route: string; readonly status: string };
  count: number;
}

/** What the registry reads from a metric (prom-client's `MetricObjectWithValues`). */
interface MetricValues {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: Array<{
    labels: Record<string, string | number>;
    value: number;
    metricName?: string;
  }>;
}

export interface FigureNames {
  readonly requests: { readonly name: string; readonly help: string };
  readonly latency: { readonly name: string; readonly help: string };
}

export class RequestFigures {
  readonly #bounds: readonly number[];
  readonly #answered = new Map<string, Answered>();
  readonly #latency = new Map<string, Latency>();

  /** `bounds`: the histogram's upper bounds in seconds, ascending (`+Inf` is implied). */
  constructor(bounds: readonly number[]) {
    this.#bounds = bounds;
  }

  /** One answered request. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const routeKey = `${method} ${route}`;
    const answeredKey = `${routeKey} ${status}`;
    let answered = this.#answered.get(answeredKey);
    if (answered === undefined) {
      answered = { labels: { method, route, status: String(status) }, count: 0 };
      this.#answered.set(answeredKey, answered);
    }
    answered.count++;
    let latency = this.#latency.get(routeKey);
    if (latency === undefined) {
      latency = {
        labels: { method, route },
        buckets: new Float64Array(this.#bounds.length),
        sum: 0,
        count: 0,
      };
      this.#latency.set(routeKey, latency);
    }
    const bounds = this.#bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]!) {
        latency.buckets[i]!++;
        break;
      }
    }
    latency.sum += seconds;
    latency.count++;
  }

  /** Requests answered, per method, route and status. */
  answered(): Array<{ method: string; route: string; status: number; count: number }> {
    return [...this.#answered.values()].map((a) => ({
      method: a.labels.method,
      route: a.labels.route,
      status: Number(a.labels.status),
      count: a.count,
    }));
  }

  /** Every route's latency summed into one distribution, cumulative by bucket. */
  overallLatency(): {
    count: number;
    sumSeconds: number;
    buckets: Array<{ le: number | '+Inf'; count: number }>;
  } {
    const counts = new Float64Array(this.#bounds.length);
    let count = 0;
    let sum = 0;
    for (const l of this.#latency.values()) {
      for (let i = 0; i < counts.length; i++) counts[i]! += l.buckets[i]!;
      count += l.count;
      sum += l.sum;
    }
    let below = 0;
    const buckets: Array<{ le: number | '+Inf'; count: number }> = this.#bounds.map((le, i) => {
      below += counts[i]!;
      return { le, count: below };
    });
    buckets.push({ le: '+Inf', count });
    return { count, sumSeconds: sum, buckets };
  }

  /** Registers both figures on `registry` under `names`. */
  register(registry: Registry, names: FigureNames): void {
    const counter = this.#metric(names.requests.name, names.requests.help, 'counter', () =>
      [...this.#answered.values()].map((a) => ({ labels: { ...a.labels }, value: a.count })),
    );
    const histogram = this.#metric(names.latency.name, names.latency.help, 'histogram', () =>
      this.#histogramValues(names.latency.name),
    );
    // prom-client's registry takes any object with these members; its type names its own classes.
    registry.registerMetric(counter as unknown as Metric);
    registry.registerMetric(histogram as unknown as Metric);
  }

  #metric(
    name: string,
    help: string,
    type: MetricValues['type'],
    values: () => MetricValues['values'],
  ) {
    return {
      name,
      help,
      type,
      aggregator: 'sum' as const,
      get: async (): Promise<MetricValues> => ({
        name,
        help,
        type,
        aggregator: 'sum',
        values: values(),
      }),
      reset: () => {
        if (type === 'counter') this.#answered.clear();
        else this.#latency.clear();
      },
    };
  }

  /**
   * As prom-client's `Histogram` gives them: cumulative buckets (`le` first among the labels),
   * `+Inf`, the sum, the count.
   */
  #histogramValues(name: string): MetricValues['values'] {
    const bucket = `${name}_bucket`;
    const out: MetricValues['values'] = [];
    for (const l of this.#latency.values()) {
      let below = 0;
      for (let i = 0; i < this.#bounds.length; i++) {
        below += l.buckets[i]!;
        out.push({
          labels: { le: this.#bounds[i]!, ...l.labels },
          value: below,
          metricName: bucket,
        });
      }
      out.push({ labels: { le: '+Inf', ...l.labels }, value: l.count, metricName: bucket });
      out.push({ labels: { ...l.labels }, value: l.sum, metricName: `${name}_sum` });
      out.push({ labels: { ...l.labels }, value: l.count, metricName: `${name}_count` });
    }
    return out;
  }
}
