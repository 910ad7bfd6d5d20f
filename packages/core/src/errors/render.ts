import { SvcError } from './svc-error';

/** The JSON error envelope of every surface (docs/http.md, "The error envelope"). */
export interface ErrorEnvelope {
  code: string;
  error: string;
  type?: string;
  hint?: string;
  extensions?: {
    sqlState?: string;
    position?: { line: number; column: number };
    statement?: number;
    reason?: string;
  };
}

/**
 * The JSON Schema (2020-12) of `ErrorEnvelope`: the one description of the envelope that every
 * OpenAPI document of svc uses (the REST document and @svc/auth's fragment share it as `Error`).
 */
export const ERROR_ENVELOPE_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: 'object',
  description: 'The error envelope of every svc surface.',
  properties: {
    code: { type: 'string', description: 'Machine-readable code (UPPER_SNAKE).' },
    error: { type: 'string', description: '`<CODE>: <message>`' },
    type: { type: 'string', description: 'The error class, for query errors.' },
    hint: { type: 'string' },
    extensions: {
      type: 'object',
      properties: {
        sqlState: { type: 'string' },
        position: {
          type: 'object',
          properties: { line: { type: 'integer' }, column: { type: 'integer' } },
          required: ['line', 'column'],
          additionalProperties: false,
        },
        statement: {
          type: 'integer',
          description: 'POST /query/batch: the index (0-based) of the statement that failed.',
        },
        reason: {
          type: 'string',
          description: 'TRANSACTION_ABORTED: why the transaction ended.',
        },
      },
      additionalProperties: false,
    },
  },
  required: ['code', 'error'],
  additionalProperties: false,
});

export interface RenderedError {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: ErrorEnvelope;
  /** True when the value was not an SvcError: the caller should log the original. */
  unexpected: boolean;
}

const INTERNAL: ErrorEnvelope = Object.freeze({
  code: 'INTERNAL_ERROR',
  error: 'INTERNAL_ERROR: an unexpected error occurred',
}) as ErrorEnvelope;

/**
 * Turns any thrown value into the one error envelope. Anything that is not an `SvcError`
 * becomes a 500 `INTERNAL_ERROR` whose message says nothing of the original.
 */
export function renderError(err: unknown): RenderedError {
  if (!(err instanceof SvcError)) {
    return { status: 500, headers: {}, body: { ...INTERNAL }, unexpected: true };
  }
  const body: ErrorEnvelope = { code: err.code, error: `${err.code}: ${err.message}` };
  if (err.type) body.type = err.type;
  if (err.hint) body.hint = err.hint;
  if (err.sqlState || err.position || err.statement !== undefined || err.reason) {
    body.extensions = {};
    if (err.sqlState) body.extensions.sqlState = err.sqlState;
    if (err.position)
      body.extensions.position = { line: err.position.line, column: err.position.column };
    if (err.statement !== undefined) body.extensions.statement = err.statement;
    if (err.reason) body.extensions.reason = err.reason;
  }
  return {
    status: err.status,
    headers: err.headers ?? {},
    body,
    unexpected: err.status >= 500 && err.code === 'INTERNAL_ERROR',
  };
}

/**
 * Which envelope code an answer carried, for the access log: noted where the envelope is
 * rendered into a response (the server's `sendError`, @svc/auth's handler and its Node adapter),
 * so the log never re-reads a body. Keyed weakly by the response object (a Node
 * `ServerResponse` or a Fetch `Response`), so nothing outlives its request.
 */
const ANSWERED_CODES = new WeakMap<object, string>();

/** Notes that `answer` carries the envelope with `code` (see `errorCodeOf`). */
export function noteErrorCode(answer: object, code: string): void {
  ANSWERED_CODES.set(answer, code);
}

/** The envelope code noted for `answer` by `noteErrorCode`, if any. */
export function errorCodeOf(answer: object): string | undefined {
  return ANSWERED_CODES.get(answer);
}
