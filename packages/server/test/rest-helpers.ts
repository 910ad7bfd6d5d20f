/**
 * The one way the REST suites talk to a server: `api(server, method, path, body?)`. Every answer
 * of an `/api/...` route is checked against the OpenAPI document the server serves at that moment
 * (`checkServedAnswer`: Ajv 2020-12; a mismatch fails the test), and recorded
 * (`recordedAnswers`). A server that listens is called over its socket (real HTTP on
 * 127.0.0.1); one that does not, in-process (`call`).
 */
import { appendFileSync } from 'node:fs';
import type { SvcServer } from '../src';
import { call } from './helpers';
import { checkServedAnswer } from './openapi-served';

export interface RecordedAnswer {
  readonly method: string;
  /** The path as requested, query string included. */
  readonly path: string;
  readonly status: number;
  readonly contentType: string | null;
  /** The parsed JSON body; null for an empty one. */
  readonly body: unknown;
}

export interface ApiAnswer extends RecordedAnswer {
  readonly headers: Headers;
  readonly text: string;
}

export interface ApiOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A body sent as written (for bodies `JSON.stringify` would not produce). */
  readonly raw?: string;
}

/** Every answer the REST suites received, in order (per test file: Jest isolates modules). */
export const recordedAnswers: RecordedAnswer[] = [];

// `SVC_REST_ANSWERS=<file>`: each suite appends its answers there, one JSON line each, to be
// checked against the OpenAPI document after the run.
const answersFile = process.env.SVC_REST_ANSWERS;
if (answersFile) {
  afterAll(() => {
    const lines = recordedAnswers.map((a) => `${JSON.stringify(a)}\n`).join('');
    appendFileSync(answersFile, lines);
  });
}

export async function api(
  server: SvcServer,
  method: string,
  path: string,
  body?: unknown,
  options: ApiOptions = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const base = listeningUrl(server);
  const init = { method, headers, ...(payload === undefined ? {} : { body: payload }) };
  const res = base ? await fetch(`${base}${path}`, init) : await call(server, path, init);
  const text = await res.text();
  const contentType = res.headers.get('content-type');
  let parsed: unknown = null;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  const answer = { method, path, status: res.status, contentType, body: parsed };
  recordedAnswers.push(answer);
  // Every answer must be one the served document allows (issue 13). The document is fetched with
  // the service key where the server has one (it is gated like the data routes), else the token.
  // With REST off there is no document, and every /api answer is the 404 the suites assert.
  if (
    server.config.enableRest &&
    path.startsWith('/api/') &&
    !path.startsWith('/api/openapi.json')
  ) {
    await checkServedAnswer(server, answer, server.config.serviceKey ?? options.token);
  }
  return { ...answer, headers: res.headers, text };
}

function listeningUrl(server: SvcServer): string | undefined {
  try {
    return server.url;
  } catch {
    return undefined;
  }
}

/** Asserts the envelope of DECISIONS "One error envelope everywhere" and returns it. */
export function envelope(answer: ApiAnswer): { code: string; error: string; type?: string } {
  const body = answer.body as { code: string; error: string; type?: string };
  expect(answer.contentType).toMatch(/^application\/json/);
  expect(typeof body.code).toBe('string');
  expect(body.error.startsWith(`${body.code}: `)).toBe(true);
  return body;
}
