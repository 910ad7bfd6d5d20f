/**
 * The one error class of svc. Every error a user can see is an `SvcError`: it carries the
 * machine-readable `code`, the HTTP `status` (decided once, in the table that defines the code),
 * and, for query-language errors, the Gel-style class name in `type`, a `hint`, the SQLSTATE and
 * the source position. `renderError` turns any thrown value into the envelope (docs/http.md).
 */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
  /** Where the offending text ends (exclusive), when known: a code frame underlines up to it. */
  readonly endLine?: number;
  readonly endColumn?: number;
  /** The file the position is in, when the source was several files (`buildSchema(files)`). */
  readonly file?: string;
}

export interface SvcErrorOptions {
  /** Gel-style class name shown to users (`InvalidReferenceError`). */
  readonly type?: string;
  readonly hint?: string;
  readonly sqlState?: string;
  readonly position?: SourcePosition;
  /** Extra response headers, such as `Retry-After` or `WWW-Authenticate`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** `POST /query/batch`: the index (0-based) of the statement that failed. */
  readonly statement?: number;
  /** Why a transaction ended (`TRANSACTION_ABORTED`): `rollback`, `error`, `idleTimeout`... */
  readonly reason?: string;
  /** Further independent errors found with this one (a schema build reports them all). */
  readonly others?: readonly SvcError[];
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
  readonly statement: number | undefined;
  readonly reason: string | undefined;
  /**
   * The independent errors found with this one, in source order (a schema build goes on past a
   * declaration it refuses); empty for every other error. The envelope shows the first only.
   */
  readonly others: readonly SvcError[];

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
    this.statement = options.statement;
    this.reason = options.reason;
    this.others = options.others ?? [];
  }

  /** The same error (same class) at another position, or with other errors found with it. */
  with(changes: { position?: SourcePosition; others?: readonly SvcError[] }): SvcError {
    const copy = new SvcError(this.code, this.status, this.message, {
      ...(this.type === undefined ? {} : { type: this.type }),
      ...(this.hint === undefined ? {} : { hint: this.hint }),
      ...(this.sqlState === undefined ? {} : { sqlState: this.sqlState }),
      ...(this.headers === undefined ? {} : { headers: this.headers }),
      ...(this.reason === undefined ? {} : { reason: this.reason }),
      ...(this.statement === undefined ? {} : { statement: this.statement }),
      position: changes.position ?? this.position,
      others: changes.others ?? this.others,
      ...(this.cause === undefined ? {} : { cause: this.cause }),
    });
    Object.setPrototypeOf(copy, Object.getPrototypeOf(this));
    copy.name = this.name;
    copy.stack = this.stack;
    return copy;
  }

  /** The same error, naming the batch statement (0-based) it came from. */
  inStatement(index: number): SvcError {
    const copy = new SvcError(this.code, this.status, this.message, {
      ...(this.type === undefined ? {} : { type: this.type }),
      ...(this.hint === undefined ? {} : { hint: this.hint }),
      ...(this.sqlState === undefined ? {} : { sqlState: this.sqlState }),
      ...(this.position === undefined ? {} : { position: this.position }),
      ...(this.headers === undefined ? {} : { headers: this.headers }),
      ...(this.reason === undefined ? {} : { reason: this.reason }),
      statement: index,
      cause: this,
    });
    Object.setPrototypeOf(copy, Object.getPrototypeOf(this));
    copy.name = this.name;
    return copy;
  }
}

export type ErrorFactory<Code extends string> = (
  code: Code,
  message: string,
  options?: SvcErrorOptions,
) => SvcError;

/** One code of the registry: its HTTP status and the table (`owner`) that declares it. */
export interface ErrorCodeEntry {
  readonly code: string;
  readonly status: number;
  /** The name given to `defineErrorCodes`: `common`, `query`, `auth`... */
  readonly owner: string;
}

const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

/**
 * Every code declared in this process, in declaration order. A code lives in exactly one table
 * with exactly one status: `defineErrorCodes` refuses anything else when the table is defined,
 * so a conflict fails at import, never at a throw site.
 */
const registry = new Map<string, ErrorCodeEntry>();

/**
 * Declares a table of UPPER_SNAKE codes with their HTTP status, and returns the one function that
 * makes errors from it, so a status is written once, beside its code, never at a throw site.
 * Every code enters one registry (`registeredErrorCodes`): a code already declared by another
 * table, or again with another status, throws here. The common codes (`commonError`: 400
 * VALIDATION_ERROR, 401 UNAUTHORIZED, 404 NOT_FOUND...) are core's; a feature declares only its
 * own. Defining the same table again (a module evaluated twice) is allowed when nothing changed.
 *
 * @example
 * const billingError = defineErrorCodes('billing', { PAYMENT_REQUIRED: 402 });
 * throw billingError('PAYMENT_REQUIRED', 'the plan has expired');
 */
export function defineErrorCodes<const Table extends Readonly<Record<string, number>>>(
  owner: string,
  table: Table,
): ErrorFactory<Extract<keyof Table, string>> & { readonly statuses: Table } {
  if (typeof owner !== 'string' || owner.length === 0)
    throw new TypeError('defineErrorCodes: name the table (a non-empty string)');
  const rows = Object.entries(table);
  for (const [code, status] of rows) {
    if (!UPPER_SNAKE.test(code))
      throw new TypeError(
        `defineErrorCodes(${owner}): ${JSON.stringify(code)} is not an UPPER_SNAKE code`,
      );
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new TypeError(
        `defineErrorCodes(${owner}): ${code} needs an HTTP error status (400 to 599), got ${String(status)}`,
      );
    }
    const known = registry.get(code);
    if (known && known.owner !== owner) {
      throw new Error(
        `error code ${code} is declared twice: by the ${known.owner} table (${known.status}) and by the ${owner} table (${status}); use ${known.owner}'s`,
      );
    }
    if (known && known.status !== status) {
      throw new Error(
        `error code ${code} of the ${owner} table is declared with two statuses: ${known.status} and ${status}`,
      );
    }
  }
  for (const [code, status] of rows) registry.set(code, Object.freeze({ code, status, owner }));
  const make = (code: Extract<keyof Table, string>, message: string, options?: SvcErrorOptions) =>
    new SvcError(code, table[code] as number, message, options);
  return Object.assign(make, { statuses: table });
}

/** Every declared code with its status and table, in declaration order (docs, tests, tools). */
export function registeredErrorCodes(): readonly ErrorCodeEntry[] {
  return [...registry.values()];
}
