/**
 * gel-replay/live: runs the test methods extract.py cannot follow as Python (live.py), answering
 * the driver's queries and checks from the class's session.
 *
 * One Python process per test class (`live.py --file F --class C`); per method, `run` asks the
 * driver to run it inside `session.run` (the test's transaction), and serves its requests
 * (query, ddl, assert, shape: see live.py's protocol) until it reports `done`. The comparison
 * rules are the extracted tests' (gel-shape.ts), so both paths judge results alike. A request
 * from a second client (`create_async_client().with_globals(...)`) carries that client's
 * globals: it runs under its own session state (Gel's defaults and those globals), not the
 * test connection's.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { applyImplicitLimit, assertShape, sortResults, type Sort } from './gel-shape';
import type { ResultTypes } from './session';

type Queryable = import('../../../packages/core/dist').Queryable;

/** A second client's state: its globals (`with_globals`), by qualified name. */
export interface LiveClient {
  globals: Record<string, unknown>;
}

/** What the runner gives the driver: a session's statements and its error naming. */
export interface LiveSession {
  run(body: (db: Queryable | null) => Promise<void>): Promise<void>;
  /** Runs a script (statements, DDL, session statements) as one step, on the test's
   * connection or as `client`; the last statement answers. */
  script(
    db: Queryable | null,
    query: string,
    variables: Record<string, unknown> | undefined,
    client: LiveClient | undefined,
  ): Promise<{ data: unknown[] | undefined; error: unknown }>;
  /** The result type of a script's last statement (null: not known). */
  resultType(query: string, client: LiveClient | undefined): ResultTypes | null;
  /** A transaction inside the test's (a savepoint, the schema state with it). */
  begin(db: Queryable | null): Promise<void>;
  end(db: Queryable | null, rollback: boolean): Promise<void>;
  /** The Gel error class an svc error stands for (its type, or its SQLSTATE's class). */
  className(error: unknown): string;
  describe(error: unknown): string;
}

export interface LiveOutcome {
  status: 'pass' | 'fail';
  failure?: string;
  detail?: string;
  messageDiffers?: boolean;
  /** The assertions the method reached (`assert_query_result` calls and `assertRaises*`
   * blocks) and how many of them passed. */
  assertions?: { reached: number; passed: number };
}

interface Request {
  op: 'ready' | 'query' | 'assert' | 'shape' | 'begin' | 'rollback' | 'commit' | 'done';
  query?: string;
  variables?: Record<string, unknown>;
  expected?: unknown;
  data?: unknown;
  sort?: Sort | null;
  implicitLimit?: number;
  okOnly?: boolean;
  status?: 'pass' | 'fail';
  failure?: string;
  detail?: string;
  messageDiffers?: boolean;
  assertions?: { reached: number; passed: number };
  client?: LiveClient;
}

export class LiveDriver {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: Interface;
  private readonly queue: string[] = [];
  private waiting: ((line: string | null) => void) | null = null;
  private closed = false;
  private stderr = '';

  constructor(gel: string, file: string, cls: string) {
    this.child = spawn(
      'python3',
      [join(__dirname, '..', 'live.py'), '--gel', gel, '--file', file, '--class', cls],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-2000);
    });
    this.lines = createInterface({ input: this.child.stdout });
    this.lines.on('line', (line) => {
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = null;
        resolve(line);
      } else this.queue.push(line);
    });
    this.lines.on('close', () => {
      this.closed = true;
      this.waiting?.(null);
    });
  }

  private next(timeoutMs: number): Promise<Request | null> {
    const line = this.queue.shift();
    if (line !== undefined) return Promise.resolve(JSON.parse(line) as Request);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        resolve(null);
      }, timeoutMs);
      this.waiting = (l) => {
        clearTimeout(timer);
        resolve(l === null ? null : (JSON.parse(l) as Request));
      };
    });
  }

  private send(message: unknown): void {
    if (!this.closed) this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Waits for the driver to import the test file; null when it is ready, else why not. */
  async ready(): Promise<string | null> {
    const first = await this.next(20_000);
    if (first?.op === 'ready') return null;
    return `the Python driver did not start: ${this.stderr.trim().split('\n').slice(-3).join(' | ')}`;
  }

  /** Runs one test method; every request it makes is answered from `session`. */
  async run(session: LiveSession, test: string, timeoutMs: number): Promise<LiveOutcome> {
    let outcome: LiveOutcome | null = null;
    await session.run(async (db) => {
      this.send({ op: 'run', test, timeout: Math.ceil((timeoutMs * 6) / 1000) });
      for (let requests = 0; requests < 10_000; requests++) {
        const request = await this.next(timeoutMs * 8);
        if (request === null) {
          outcome = {
            status: 'fail',
            failure: 'driver',
            detail: `the Python driver stopped answering: ${this.stderr.trim().split('\n').slice(-2).join(' | ')}`,
          };
          return;
        }
        if (request.op === 'done') {
          outcome = {
            status: request.status ?? 'fail',
            ...(request.failure ? { failure: request.failure } : {}),
            ...(request.detail ? { detail: request.detail } : {}),
            ...(request.messageDiffers ? { messageDiffers: true } : {}),
            ...(request.assertions ? { assertions: request.assertions } : {}),
          };
          return;
        }
        this.send(await this.answer(session, db, request));
      }
      outcome = { status: 'fail', failure: 'driver', detail: 'more than 10000 requests' };
    });
    return outcome ?? { status: 'fail', failure: 'driver', detail: 'no outcome' };
  }

  private async answer(
    session: LiveSession,
    db: Queryable | null,
    request: Request,
  ): Promise<unknown> {
    if (request.op === 'shape') {
      return { difference: assertShape(request.data, request.expected) };
    }
    if (request.op === 'begin') return session.begin(db).then(() => ({}));
    if (request.op === 'rollback' || request.op === 'commit')
      return session.end(db, request.op === 'rollback').then(() => ({}));
    const { data, error } = await session.script(
      db,
      request.query ?? '',
      request.variables,
      request.client,
    );
    if (error !== undefined) {
      const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
      return {
        error: {
          className: session.className(error),
          message: session.describe(error),
          // svc's envelope code and own message: live.py names the client's argument errors
          // from svc's variable refusals (VALIDATION_ERROR) with them.
          ...(typeof code === 'string' ? { code } : {}),
          ...(typeof message === 'string' ? { svcMessage: message } : {}),
        },
      };
    }
    if (request.op !== 'assert' || request.okOnly) {
      const types = session.resultType(request.query ?? '', request.client);
      return { data: data ?? [], type: types?.printed ?? null, output: types?.output ?? null };
    }
    let actual: unknown = data ?? [];
    if (request.implicitLimit) actual = applyImplicitLimit(actual, request.implicitLimit);
    if (request.sort !== undefined && request.sort !== null) sortResults(actual, request.sort);
    return { difference: assertShape(actual, request.expected) };
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}
