import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolStats } from '@svc/core';
import type { ReplicaStats } from '../replicas';
import { RequestFigures } from './request-figures';

export interface StatsSnapshot {
  uptimeSeconds: number;
  requests: {
    total: number;
    byRoute: Array<{ method: string; route: string; status: number; count: number }>;
  };
  latency: {
    count: number;
    sumSeconds: number;
    buckets: Array<{ le: number | '+Inf'; count: number }>;
  };
  queryCompileCache: { hits: number; misses: number };
  /** Statements cancelled (SQLSTATE 57014): past requestTimeout, or by statement_timeout. */
  cancelledStatements: number;
  databasePool: PoolStats;
  /** Each read replica's pool, health and lag (`[database] replica_urls`); empty without. */
  replicas: ReplicaStats[];
  /** Transactions held open across requests (`POST /transactions`), and the cap. */
  transactions: TransactionStats;
}

export interface TransactionStats {
  readonly open: number;
  readonly max: number;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The server's figures, on a registry of its own (never prom-client's global one), so two
 * servers in one process keep separate counts. `/metrics` prints it; `/stats` is the same
 * figures as JSON.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly #started = Date.now();
  /** Requests by method, route and status, and their latency (observability/request-figures). */
  readonly #requests = new RequestFigures(LATENCY_BUCKETS);
  readonly #cacheHits: Counter;
  readonly #cacheMisses: Counter;
  readonly #cancelled: Counter;
  readonly #pool: () => PoolStats;
  readonly #transactions: () => TransactionStats;
  readonly #replicas: () => ReplicaStats[];

  constructor(
    pool: () => PoolStats,
    transactions: () => TransactionStats = () => ({ open: 0, max: 0 }),
    replicas: () => ReplicaStats[] = () => [],
  ) {
    this.#pool = pool;
    this.#transactions = transactions;
    this.#replicas = replicas;
    const registers = [this.registry];
    this.#requests.register(this.registry, {
      requests: {
        name: 'svc_http_requests_total',
        help: 'HTTP requests answered, by method, route and status',
      },
      latency: {
        name: 'svc_http_request_duration_seconds',
        help: 'HTTP request latency, from arrival to the last byte written',
      },
    });
    this.#cacheHits = new Counter({
      name: 'svc_query_compile_cache_hits_total',
      help: 'Queries served from the compiled-query cache',
      registers,
    });
    this.#cacheMisses = new Counter({
      name: 'svc_query_compile_cache_misses_total',
      help: 'Queries that had to be compiled',
      registers,
    });
    this.#cancelled = new Counter({
      name: 'svc_db_statements_cancelled_total',
      help: 'Statements cancelled: their request passed requestTimeout, or the database stopped them (statement_timeout)',
      registers,
    });
    new Gauge({
      name: 'svc_db_pool_connections',
      help: 'Database connections by state (embedded PGlite is one connection)',
      labelNames: ['state'],
      registers,
      collect() {
        const s = pool();
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
      },
    });
    new Gauge({
      name: 'svc_db_replica_connections',
      help: 'Read replica connections by replica and state (in_use, idle, waiting callers)',
      labelNames: ['replica', 'state'],
      registers,
      collect() {
        this.reset();
        for (const r of replicas()) {
          this.set({ replica: r.replica, state: 'in_use' }, r.inUse);
          this.set({ replica: r.replica, state: 'idle' }, r.idle);
          this.set({ replica: r.replica, state: 'waiting' }, r.waiting);
        }
      },
    });
    new Gauge({
      name: 'svc_db_replica_healthy',
      help: 'Whether reads go to a replica (1) or skip it: down, or lagging beyond max_replica_lag (0)',
      labelNames: ['replica'],
      registers,
      collect() {
        this.reset();
        for (const r of replicas()) this.set({ replica: r.replica }, r.healthy ? 1 : 0);
      },
    });
    new Gauge({
      name: 'svc_db_replica_lag_seconds',
      help: 'Seconds a replica was behind the primary at its last check (absent when unknown)',
      labelNames: ['replica'],
      registers,
      collect() {
        this.reset();
        for (const r of replicas())
          if (r.lagSeconds !== null) this.set({ replica: r.replica }, r.lagSeconds);
      },
    });
    new Gauge({
      name: 'svc_db_replica_errors',
      help: 'Failed checks of a replica, and statements that failed there and ran again on the primary, since start',
      labelNames: ['replica'],
      registers,
      collect() {
        this.reset();
        for (const r of replicas()) this.set({ replica: r.replica }, r.errors);
      },
    });
    new Gauge({
      name: 'svc_transactions_open',
      help: 'Transactions held open across requests (POST /transactions)',
      registers,
      collect() {
        this.set(transactions().open);
      },
    });
    new Gauge({
      name: 'svc_transactions_max',
      help: 'The most transactions this process holds open at once (maxTransactions)',
      registers,
      collect() {
        this.set(transactions().max);
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'svc_' });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.#requests.observe(method, route, status, seconds);
  }

  /** For the query engine: count a compiled-query cache hit or miss. */
  compileCache(hit: boolean): void {
    (hit ? this.#cacheHits : this.#cacheMisses).inc();
  }

  /** For the query engine: count a statement cancelled (SQLSTATE 57014). */
  statementCancelled(): void {
    this.#cancelled.inc();
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  async snapshot(): Promise<StatsSnapshot> {
    const byRoute = this.#requests.answered();
    const hits = (await this.#cacheHits.get()).values[0]?.value ?? 0;
    const misses = (await this.#cacheMisses.get()).values[0]?.value ?? 0;
    return {
      uptimeSeconds: Math.round((Date.now() - this.#started) / 1000),
      requests: { total: byRoute.reduce((n, r) => n + r.count, 0), byRoute },
      latency: this.#requests.overallLatency(),
      queryCompileCache: { hits, misses },
      cancelledStatements: (await this.#cancelled.get()).values[0]?.value ?? 0,
      databasePool: this.#pool(),
      replicas: this.#replicas(),
      transactions: this.#transactions(),
    };
  }
}
