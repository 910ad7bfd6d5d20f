import { commonError } from './codes';
import { SvcError, defineErrorCodes, type SourcePosition } from './svc-error';

/** The two envelope codes query errors render with (docs/http.md, "Query error classes"). */
const queryErrorCodes = defineErrorCodes('query', { QUERY_ERROR: 400, CONSTRAINT_VIOLATION: 409 });
/**
 * The codes a query error class may render with: the two above, and the common `ACCESS_DENIED`
 * (403) an access policy's refusal renders with (docs/http.md).
 */
const QUERY_ERROR_STATUSES = {
  ...queryErrorCodes.statuses,
  ACCESS_DENIED: commonError.statuses.ACCESS_DENIED,
} as const;
type QueryErrorCode = keyof typeof QUERY_ERROR_STATUSES;

/**
 * The query-language error classes, named as Gel names them because users see the names
 * (`type` in the envelope, SDK error classes). One row per class: its parent, the envelope code
 * it renders with (inherited when absent; its status is the code's, above), the SQLSTATE it
 * stands for when PostgreSQL raised it, and `alsoFrom`: further SQLSTATEs, exact (`23505`) or a
 * two-character class (`22`), that PostgreSQL raises for it. This is the ONE many-to-one table
 * from PostgreSQL back to the query language (`queryErrorClassForSqlState`): the exact code
 * first, then its class; a SQLSTATE in neither is an internal error.
 * The classes below are built from this table; add a row, never a hand-written class.
 */
const QUERY_ERROR_TABLE = {
  QueryError: { parent: null, code: 'QUERY_ERROR' },
  InvalidSyntaxError: { parent: 'QueryError' },
  EdgeQLSyntaxError: { parent: 'InvalidSyntaxError', sqlState: '42601' },
  SchemaSyntaxError: { parent: 'InvalidSyntaxError' },
  InvalidTypeError: { parent: 'QueryError' },
  InvalidTargetError: { parent: 'InvalidTypeError' },
  /** A value of the wrong type written to a property (`set { name := <int64>{} }`). */
  InvalidPropertyTargetError: { parent: 'InvalidTargetError' },
  /**
   * An object of the wrong type written to a link (`set { status := <Object>{} }`); at run time,
   * an update through a parent type writing an object a subtype's narrowed link target refuses
   * (SQLSTATE 42809 wrong_object_type, as Gel raises it).
   */
  InvalidLinkTargetError: { parent: 'InvalidTargetError', sqlState: '42809' },
  InvalidReferenceError: { parent: 'QueryError' },
  UnknownModuleError: { parent: 'InvalidReferenceError' },
  UnknownParameterError: { parent: 'InvalidReferenceError' },
  SchemaError: { parent: 'QueryError' },
  SchemaDefinitionError: { parent: 'QueryError' },
  InvalidDefinitionError: { parent: 'SchemaDefinitionError' },
  InvalidPropertyDefinitionError: { parent: 'InvalidDefinitionError' },
  InvalidLinkDefinitionError: { parent: 'InvalidDefinitionError' },
  InvalidConstraintDefinitionError: { parent: 'InvalidDefinitionError' },
  InvalidFunctionDefinitionError: { parent: 'InvalidDefinitionError' },
  DuplicateDefinitionError: { parent: 'SchemaDefinitionError' },
  QueryCardinalityError: { parent: 'QueryError' },
  ResultCardinalityMismatchError: { parent: 'QueryError' },
  /** A variable or global whose value does not fit its declared type. */
  QueryArgumentError: { parent: 'QueryError' },
  /** `cardinality: "one"` (an SDK's `queryRequiredSingle`) and the result was empty. */
  NoDataError: { parent: 'QueryError' },
  ExecutionError: { parent: 'QueryError' },
  // 54000 (program_limit_exceeded: `array_fill(1, -1)`, a too long value) is Gel's InvalidValueError.
  InvalidValueError: { parent: 'ExecutionError', sqlState: '22000', alsoFrom: ['22', '54000'] },
  /** `assert()` found its condition false (Gel's class for it; raised as SQLSTATE P0004). */
  QueryAssertionError: { parent: 'InvalidValueError', sqlState: 'P0004' },
  DivisionByZeroError: { parent: 'InvalidValueError', sqlState: '22012' },
  // 22015 interval_field_overflow (`<duration>'13074457345618258602us'`): Gel's class for it.
  NumericOutOfRangeError: { parent: 'InvalidValueError', sqlState: '22003', alsoFrom: ['22015'] },
  /**
   * An insert or update refused by an access policy (Gel's class, a kind of InvalidValueError):
   * raised by the compiled query's check with SQLSTATE 42501 (insufficient_privilege), 403.
   */
  AccessPolicyError: { parent: 'InvalidValueError', code: 'ACCESS_DENIED', sqlState: '42501' },
  IntegrityError: { parent: 'ExecutionError', sqlState: '23000', alsoFrom: ['23'] },
  ConstraintViolationError: {
    parent: 'IntegrityError',
    code: 'CONSTRAINT_VIOLATION',
    sqlState: '23514',
    // unique_violation (exclusive), exclusion_violation
    alsoFrom: ['23505', '23P01'],
  },
  CardinalityViolationError: { parent: 'IntegrityError', sqlState: '21000', alsoFrom: ['21'] },
  MissingRequiredError: { parent: 'IntegrityError', sqlState: '23502' },
  ForeignKeyViolationError: { parent: 'IntegrityError', sqlState: '23503' },
  /** 25006: a write in a read-only transaction (as Gel's TransactionError). */
  TransactionError: { parent: 'ExecutionError', alsoFrom: ['40', '25006'] },
  TransactionSerializationError: { parent: 'TransactionError', sqlState: '40001' },
  TransactionDeadlockError: { parent: 'TransactionError', sqlState: '40P01' },
  QueryTimeoutError: { parent: 'ExecutionError', sqlState: '57014' },
  MigrationError: { parent: 'QueryError' },
  DataLossError: { parent: 'MigrationError' },
  /** Valid EdgeQL or SDL that svc does not run yet (SDL triggers and access rewrites). */
  // 42883 / 42804 / 42P18: PostgreSQL refused the compiled SQL's types (no such operator or
  // function for them): a combination of types svc does not compile yet, not an internal error.
  UnsupportedFeatureError: {
    parent: 'QueryError',
    sqlState: '0A000',
    alsoFrom: ['42883', '42804', '42P18'],
  },
} as const satisfies Record<
  string,
  { parent: string | null; code?: QueryErrorCode; sqlState?: string; alsoFrom?: readonly string[] }
>;

export type QueryErrorName = keyof typeof QUERY_ERROR_TABLE;

export interface QueryErrorOptions {
  readonly hint?: string;
  /** Overrides the class's own SQLSTATE, e.g. the one PostgreSQL reported. */
  readonly sqlState?: string;
  readonly position?: SourcePosition;
  readonly cause?: unknown;
}

/** Base of every query-language error; `type` is the concrete class name. */
export class QueryError extends SvcError {
  constructor(message: string, options: QueryErrorOptions = {}) {
    const row = lookup(new.target.name as QueryErrorName);
    super(row.code, row.status, message, {
      type: new.target.name,
      hint: options.hint,
      sqlState: options.sqlState ?? row.sqlState,
      position: options.position,
      cause: options.cause,
    });
  }
}

export type QueryErrorClass = new (message: string, options?: QueryErrorOptions) => QueryError;

interface ResolvedRow {
  code: QueryErrorCode;
  status: number;
  sqlState: string | undefined;
}

/** The code comes from the nearest ancestor that sets one, its status from the code; sqlState is the class's own. */
function lookup(name: QueryErrorName): ResolvedRow {
  const own = QUERY_ERROR_TABLE[name] as { sqlState?: string };
  let code: QueryErrorCode | undefined;
  let cursor: QueryErrorName | null = name;
  while (cursor && code === undefined) {
    const row: { parent: QueryErrorName | null; code?: QueryErrorCode } = QUERY_ERROR_TABLE[cursor];
    code = row.code;
    cursor = row.parent;
  }
  const resolved = code ?? 'QUERY_ERROR';
  return { code: resolved, status: QUERY_ERROR_STATUSES[resolved], sqlState: own.sqlState };
}

const classes = new Map<QueryErrorName, QueryErrorClass>([['QueryError', QueryError]]);
function build(name: QueryErrorName): QueryErrorClass {
  const existing = classes.get(name);
  if (existing) return existing;
  const parentName = QUERY_ERROR_TABLE[name].parent ?? 'QueryError';
  const Parent = build(parentName as QueryErrorName);
  const cls = { [name]: class extends Parent {} }[name] as QueryErrorClass;
  classes.set(name, cls);
  return cls;
}
for (const name of Object.keys(QUERY_ERROR_TABLE) as QueryErrorName[]) build(name);

/** The class for a name in the table. */
export function queryErrorClass(name: QueryErrorName): QueryErrorClass {
  return classes.get(name) as QueryErrorClass;
}

/**
 * SQLSTATE (exact, or a two-character class) → class, from the table's `sqlState` and `alsoFrom`.
 * A code may be claimed once: two rows claiming one fails at import.
 */
export const QUERY_ERROR_BY_SQLSTATE: ReadonlyMap<string, QueryErrorClass> = (() => {
  const map = new Map<string, QueryErrorClass>();
  for (const name of Object.keys(QUERY_ERROR_TABLE) as QueryErrorName[]) {
    const row = QUERY_ERROR_TABLE[name] as { sqlState?: string; alsoFrom?: readonly string[] };
    for (const state of [...(row.sqlState ? [row.sqlState] : []), ...(row.alsoFrom ?? [])]) {
      if (map.has(state))
        throw new Error(`SQLSTATE ${state} is claimed by two query error classes`);
      map.set(state, queryErrorClass(name));
    }
  }
  return map;
})();

/**
 * The class PostgreSQL's SQLSTATE stands for: the exact code, else its two-character class
 * (`22P02` → InvalidValueError through `22`), else undefined (an internal error).
 */
export function queryErrorClassForSqlState(sqlState: string): QueryErrorClass | undefined {
  return QUERY_ERROR_BY_SQLSTATE.get(sqlState) ?? QUERY_ERROR_BY_SQLSTATE.get(sqlState.slice(0, 2));
}

export const InvalidSyntaxError = queryErrorClass('InvalidSyntaxError');
export const EdgeQLSyntaxError = queryErrorClass('EdgeQLSyntaxError');
export const SchemaSyntaxError = queryErrorClass('SchemaSyntaxError');
export const InvalidTypeError = queryErrorClass('InvalidTypeError');
export const InvalidTargetError = queryErrorClass('InvalidTargetError');
export const InvalidPropertyTargetError = queryErrorClass('InvalidPropertyTargetError');
export const InvalidLinkTargetError = queryErrorClass('InvalidLinkTargetError');
export const InvalidReferenceError = queryErrorClass('InvalidReferenceError');
export const UnknownModuleError = queryErrorClass('UnknownModuleError');
export const UnknownParameterError = queryErrorClass('UnknownParameterError');
export const SchemaError = queryErrorClass('SchemaError');
export const SchemaDefinitionError = queryErrorClass('SchemaDefinitionError');
export const InvalidDefinitionError = queryErrorClass('InvalidDefinitionError');
export const InvalidPropertyDefinitionError = queryErrorClass('InvalidPropertyDefinitionError');
export const InvalidLinkDefinitionError = queryErrorClass('InvalidLinkDefinitionError');
export const InvalidConstraintDefinitionError = queryErrorClass('InvalidConstraintDefinitionError');
export const InvalidFunctionDefinitionError = queryErrorClass('InvalidFunctionDefinitionError');
export const DuplicateDefinitionError = queryErrorClass('DuplicateDefinitionError');
export const QueryCardinalityError = queryErrorClass('QueryCardinalityError');
export const ResultCardinalityMismatchError = queryErrorClass('ResultCardinalityMismatchError');
export const QueryArgumentError = queryErrorClass('QueryArgumentError');
export const NoDataError = queryErrorClass('NoDataError');
export const UnsupportedFeatureError = queryErrorClass('UnsupportedFeatureError');
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
export const MigrationError = queryErrorClass('MigrationError');
export const DataLossError = queryErrorClass('DataLossError');
