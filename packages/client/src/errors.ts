/**
 * client/errors: every failure is an `SvcError`. A query the server refused is an instance of the
 * class it names in the envelope's `type` (Gel's class names, docs/http.md "Query error
 * classes"), whose parents are Gel's too (`instanceof IntegrityError` catches a
 * `ConstraintViolationError`); another refusal is a `ServerError` with the envelope's `code`;
 * a failed request is a `NetworkError`, an answer that is not svc's JSON a `ProtocolError`.
 * Never a silent `undefined`.
 */

/** Where in the query text an error is (1-based). */
export interface ErrorPosition {
  readonly line: number;
  readonly column: number;
}

/** What the server's error envelope carried (docs/http.md, "The error envelope"). */
export interface ErrorDetails {
  /** The envelope's `code` (`QUERY_ERROR`, `VALIDATION_ERROR`, ...); absent for client-side failures. */
  readonly code?: string;
  /** The HTTP status. */
  readonly status?: number;
  readonly sqlState?: string;
  readonly position?: ErrorPosition;
  readonly hint?: string;
  /** `client.batch`: the index (0-based) of the statement that failed. */
  readonly statement?: number;
  /** A transaction that ended (`TRANSACTION_ABORTED`): why (`error`, `idleTimeout`, ...). */
  readonly reason?: string;
  readonly cause?: unknown;
}

/** The root of every error the client throws. */
export class SvcError extends Error {
  readonly code: string | undefined;
  readonly status: number | undefined;
  readonly sqlState: string | undefined;
  readonly position: ErrorPosition | undefined;
  readonly hint: string | undefined;
  readonly statement: number | undefined;
  readonly reason: string | undefined;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.code = details.code;
    this.status = details.status;
    this.sqlState = details.sqlState;
    this.position = details.position;
    this.hint = details.hint;
    this.statement = details.statement;
    this.reason = details.reason;
  }
}

/** The request did not reach the server, or its answer did not arrive. */
export class NetworkError extends SvcError {}

/** The server's answer was not what svc answers (not JSON, or JSON of another form). */
export class ProtocolError extends SvcError {}

/** A refusal without a query error class: the envelope's `code` says which. */
export class ServerError extends SvcError {}

/** The root of the query-language error classes. */
export class QueryError extends SvcError {}

/**
 * Gives a class its name for good: minifiers rename classes, and `err.name` (set from the class)
 * must still say `NetworkError` in a minified browser bundle.
 */
function named<T extends abstract new (...args: never[]) => unknown>(cls: T, name: string): T {
  return Object.defineProperty(cls, 'name', { value: name });
}
named(SvcError, 'SvcError');
named(NetworkError, 'NetworkError');
named(ProtocolError, 'ProtocolError');
named(ServerError, 'ServerError');
named(QueryError, 'QueryError');

/**
 * Gel's query error classes and their parents, as svc's server names them (a test checks this
 * table against @svc/core's, the server's one table). A class a newer server names and this
 * client does not know arrives as a `QueryError`.
 */
const PARENTS = {
  InvalidSyntaxError: 'QueryError',
  EdgeQLSyntaxError: 'InvalidSyntaxError',
  SchemaSyntaxError: 'InvalidSyntaxError',
  InvalidTypeError: 'QueryError',
  InvalidTargetError: 'InvalidTypeError',
  InvalidPropertyTargetError: 'InvalidTargetError',
  InvalidLinkTargetError: 'InvalidTargetError',
  InvalidReferenceError: 'QueryError',
  UnknownModuleError: 'InvalidReferenceError',
  UnknownParameterError: 'InvalidReferenceError',
  SchemaError: 'QueryError',
  SchemaDefinitionError: 'QueryError',
  InvalidDefinitionError: 'SchemaDefinitionError',
  InvalidPropertyDefinitionError: 'InvalidDefinitionError',
  InvalidLinkDefinitionError: 'InvalidDefinitionError',
  InvalidConstraintDefinitionError: 'InvalidDefinitionError',
  InvalidFunctionDefinitionError: 'InvalidDefinitionError',
  DuplicateDefinitionError: 'SchemaDefinitionError',
  QueryCardinalityError: 'QueryError',
  ResultCardinalityMismatchError: 'QueryError',
  QueryArgumentError: 'QueryError',
  NoDataError: 'QueryError',
  ExecutionError: 'QueryError',
  InvalidValueError: 'ExecutionError',
  QueryAssertionError: 'InvalidValueError',
  DivisionByZeroError: 'InvalidValueError',
  NumericOutOfRangeError: 'InvalidValueError',
  AccessPolicyError: 'InvalidValueError',
  IntegrityError: 'ExecutionError',
  ConstraintViolationError: 'IntegrityError',
  CardinalityViolationError: 'IntegrityError',
  MissingRequiredError: 'IntegrityError',
  ForeignKeyViolationError: 'IntegrityError',
  TransactionError: 'ExecutionError',
  TransactionSerializationError: 'TransactionError',
  TransactionDeadlockError: 'TransactionError',
  QueryTimeoutError: 'ExecutionError',
  MigrationError: 'QueryError',
  DataLossError: 'MigrationError',
  UnsupportedFeatureError: 'QueryError',
} as const;

export type QueryErrorName = keyof typeof PARENTS | 'QueryError';

/** The classes, built from the table in its order (each parent comes before its children). */
const CLASSES = new Map<string, typeof QueryError>([['QueryError', QueryError]]);
for (const [name, parent] of Object.entries(PARENTS)) {
  const base = CLASSES.get(parent) as typeof QueryError;
  // A named class expression: `err.name` and stack traces show the Gel name.
  const cls = { [name]: class extends base {} }[name] as typeof QueryError;
  CLASSES.set(name, cls);
}

/** The class of a query error by its Gel name (`QueryError` for a name the client does not know). */
export function queryErrorClass(name: string): typeof QueryError {
  return CLASSES.get(name) ?? QueryError;
}

/** Every query error class name the client knows, with its parent (tests compare it with the server's). */
export function queryErrorTable(): ReadonlyMap<string, string | null> {
  return new Map<string, string | null>([['QueryError', null], ...Object.entries(PARENTS)]);
}

export const InvalidSyntaxError = queryErrorClass('InvalidSyntaxError');
export const EdgeQLSyntaxError = queryErrorClass('EdgeQLSyntaxError');
export const InvalidTypeError = queryErrorClass('InvalidTypeError');
export const InvalidReferenceError = queryErrorClass('InvalidReferenceError');
export const QueryCardinalityError = queryErrorClass('QueryCardinalityError');
export const ResultCardinalityMismatchError = queryErrorClass('ResultCardinalityMismatchError');
export const QueryArgumentError = queryErrorClass('QueryArgumentError');
export const NoDataError = queryErrorClass('NoDataError');
export const ExecutionError = queryErrorClass('ExecutionError');
export const InvalidValueError = queryErrorClass('InvalidValueError');
export const QueryAssertionError = queryErrorClass('QueryAssertionError');
export const DivisionByZeroError = queryErrorClass('DivisionByZeroError');
export const NumericOutOfRangeError = queryErrorClass('NumericOutOfRangeError');
export const AccessPolicyError = queryErrorClass('AccessPolicyError');
export const IntegrityError = queryErrorClass('IntegrityError');
export const ConstraintViolationError = queryErrorClass('ConstraintViolationError');
export const CardinalityViolationError = queryErrorClass('CardinalityViolationError');
export const MissingRequiredError = queryErrorClass('MissingRequiredError');
export const ForeignKeyViolationError = queryErrorClass('ForeignKeyViolationError');
export const TransactionError = queryErrorClass('TransactionError');
export const TransactionSerializationError = queryErrorClass('TransactionSerializationError');
export const TransactionDeadlockError = queryErrorClass('TransactionDeadlockError');
export const QueryTimeoutError = queryErrorClass('QueryTimeoutError');
export const UnsupportedFeatureError = queryErrorClass('UnsupportedFeatureError');

/** The error an answer's envelope stands for (docs/http.md, "The error envelope"). */
export function errorFromEnvelope(status: number, body: unknown): SvcError {
  if (
    body === null ||
    typeof body !== 'object' ||
    typeof (body as { code?: unknown }).code !== 'string'
  )
    return new ProtocolError(`the server answered ${status} without svc's error envelope`, {
      status,
    });
  const envelope = body as {
    code: string;
    error?: unknown;
    type?: unknown;
    hint?: unknown;
    extensions?: {
      sqlState?: unknown;
      position?: { line?: unknown; column?: unknown };
      statement?: unknown;
      reason?: unknown;
    };
  };
  const text = typeof envelope.error === 'string' ? envelope.error : envelope.code;
  // The envelope's message starts with its code (`QUERY_ERROR: ...`): the class says that.
  const message = text.startsWith(`${envelope.code}: `)
    ? text.slice(envelope.code.length + 2)
    : text;
  const position = envelope.extensions?.position;
  const details: ErrorDetails = {
    code: envelope.code,
    status,
    ...(typeof envelope.extensions?.sqlState === 'string'
      ? { sqlState: envelope.extensions.sqlState }
      : {}),
    ...(typeof position?.line === 'number' && typeof position.column === 'number'
      ? { position: { line: position.line, column: position.column } }
      : {}),
    ...(typeof envelope.hint === 'string' ? { hint: envelope.hint } : {}),
    ...(typeof envelope.extensions?.statement === 'number'
      ? { statement: envelope.extensions.statement }
      : {}),
    ...(typeof envelope.extensions?.reason === 'string'
      ? { reason: envelope.extensions.reason }
      : {}),
  };
  if (typeof envelope.type === 'string')
    return new (queryErrorClass(envelope.type))(message, details);
  return new ServerError(message, details);
}
