/**
 * The one error class of svc. Every error a user can see is an `SvcError`: it carries the
 * machine-readable `code`, the HTTP `status` (decided once, in the table that defines the code),
 * and, for query-language errors, the Gel-style class name in `type`, a `hint`, the SQLSTATE and
 * the source position. `renderError` turns any thrown value into the DECISIONS.md envelope.
 */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

export interface SvcErrorOptions {
  /** Gel-style class name shown to users (`InvalidReferenceError`). */
  readonly type?: string;
  readonly hint?: string;
  readonly sqlState?: string;
  readonly position?: SourcePosition;
  /** Extra response headers, such as `Retry-After` or `WWW-Authenticate`. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

export class SvcError extends Error {
  readonly code: string;
  readonly status: number;
  readonly type: string | undefined;
  readonly hint: string | undefined;
  readonly sqlState: string | undefined;
  readonly position: SourcePosition | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(code: string, status: number, message: string, options: SvcErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = options.type ?? 'SvcError';
    this.code = code;
    this.status = status;
    this.type = options.type;
    this.hint = options.hint;
    this.sqlState = options.sqlState;
    this.position = options.position;
    this.headers = options.headers;
  }
}

export type ErrorFactory<Code extends string> = (
  code: Code,
  message: string,
  options?: SvcErrorOptions,
) => SvcError;

/**
 * Declares a table of UPPER_SNAKE codes with their HTTP status, and returns the one function that
 * makes errors from it, so a status is written once, beside its code, never at a throw site.
 *
 * @example
 * const restError = defineErrorCodes({ NOT_FOUND: 404, METHOD_NOT_ALLOWED: 405 });
 * throw restError('NOT_FOUND', 'no type named Foo');
 */
export function defineErrorCodes<const Table extends Readonly<Record<string, number>>>(
  table: Table,
): ErrorFactory<Extract<keyof Table, string>> & { readonly statuses: Table } {
  const make = (code: Extract<keyof Table, string>, message: string, options?: SvcErrorOptions) =>
    new SvcError(code, table[code] as number, message, options);
  return Object.assign(make, { statuses: table });
}
