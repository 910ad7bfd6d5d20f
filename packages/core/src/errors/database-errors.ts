/**
 * errors/database-errors: an error PostgreSQL (or PGlite) raised while running a compiled query,
 * as the query language's user sees it.
 *
 * Input: the value `pg` or PGlite threw, and the vocabulary of the schema the statement was
 * compiled against (what PostgreSQL's constraint, table and column names stand for in EdgeQL).
 * Output: an `SvcError`: a query error class from the ONE SQLSTATE table (`query-errors.ts`,
 * exact code first, then its two-character class), with PostgreSQL's SQLSTATE in
 * `extensions.sqlState`.
 * Invariants: messages speak EdgeQL (`std::int64`, never `bigint`: docs/http.md; the
 * schema constraint's own message, never an index name); no SQL text, table, column or
 * PostgreSQL function name reaches the user; a SQLSTATE the table does not know is a 500
 * INTERNAL_ERROR without internals, holding the original as `cause` for the log.
 */
import { commonError } from './codes';
import {
  CardinalityViolationError,
  ConstraintViolationError,
  ForeignKeyViolationError,
  MissingRequiredError,
  queryErrorClassForSqlState,
} from './query-errors';
import { SvcError } from './svc-error';

/** The fields of a PostgreSQL error that the mapping reads (`pg` and PGlite name them alike). */
export interface DatabaseErrorFields {
  readonly code: string;
  readonly message: string;
  readonly schema?: string;
  readonly table?: string;
  readonly column?: string;
  readonly constraint?: string;
  /** The type (a domain, for a domain CHECK) PostgreSQL names. */
  readonly dataType?: string;
}

/** What PostgreSQL's names stand for in the schema the query was compiled against. */
export interface ErrorVocabulary {
  /**
   * The message of the schema constraint behind a unique index or CHECK PostgreSQL named, as the
   * constraint's `errmessage` (or std's) renders it: `name violates exclusivity constraint`.
   */
  constraintMessage(fields: DatabaseErrorFields): string | undefined;
  /** The pointer a NOT NULL column stores: `property 'name' of object type 'default::User'`. */
  requiredPointer(fields: DatabaseErrorFields): string | undefined;
  /** The link a foreign key stores: `link 'author' of object type 'default::Post'`, and its target. */
  foreignKey(fields: DatabaseErrorFields): { link: string; target: string } | undefined;
  /** PostgreSQL's type names in a message, rewritten to EdgeQL's. */
  renameTypes(message: string): string;
}

/** A vocabulary that knows no schema: generic messages, type names left as they are. */
export const NO_VOCABULARY: ErrorVocabulary = {
  constraintMessage: () => undefined,
  requiredPointer: () => undefined,
  foreignKey: () => undefined,
  renameTypes: (message) => message,
};

/** PostgreSQL errors that mean the database is going away or full, not that the query is wrong. */
const UNAVAILABLE = /^(08|57P0[1-3]|53300)/;

/** The `code`, `message` and names of a PostgreSQL error, or undefined for anything else. */
export function databaseErrorFields(err: unknown): DatabaseErrorFields | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as Record<string, unknown>;
  if (typeof e.code !== 'string' || !/^[0-9A-Z]{5}$/.test(e.code)) return undefined;
  const text = (key: string) => (typeof e[key] === 'string' ? (e[key] as string) : undefined);
  return {
    code: e.code,
    message: text('message') ?? '',
    schema: text('schema'),
    table: text('table'),
    column: text('column'),
    constraint: text('constraint'),
    dataType: text('dataType'),
  };
}

/**
 * The error a user sees for what the database threw while running a compiled query.
 *
 * @example
 * try { await db.query(sql, params); }
 * catch (err) { throw fromDatabaseError(err, vocabulary); }
 * // 23505 on "User.name.exclusive" → ConstraintViolationError 'name violates exclusivity constraint'
 */
export function fromDatabaseError(
  err: unknown,
  vocabulary: ErrorVocabulary = NO_VOCABULARY,
): SvcError {
  if (err instanceof SvcError) return err;
  const fields = databaseErrorFields(err);
  if (!fields) return internal(err);
  if (UNAVAILABLE.test(fields.code)) {
    return commonError('SERVICE_UNAVAILABLE', 'the database is not available; try again', {
      cause: err,
    });
  }
  const Class = queryErrorClassForSqlState(fields.code);
  if (!Class) return internal(err);
  const options = { sqlState: fields.code, cause: err };
  switch (fields.code) {
    case '23505':
    case '23P01':
      return new ConstraintViolationError(
        vocabulary.constraintMessage(fields) ??
          // No constraint named: the compiled statement's own check (an exclusive value taken
          // before the statement, raised by svc_meta.raise with its own message).
          (fields.constraint ? 'a value violates an exclusivity constraint' : fields.message),
        options,
      );
    case '23514':
      return new ConstraintViolationError(
        vocabulary.constraintMessage(fields) ??
          // No constraint named: a check of the compiled query itself (`assert_distinct`,
          // raised by svc_meta.raise with its own message), not a schema constraint.
          (fields.constraint ? 'a value violates a constraint' : fields.message),
        options,
      );
    case '23502': {
      const pointer = vocabulary.requiredPointer(fields);
      return new MissingRequiredError(
        pointer ? `missing value for required ${pointer}` : 'missing value for a required property',
        options,
      );
    }
    case '23503':
      return new ForeignKeyViolationError(foreignKeyMessage(fields, vocabulary), options);
    case '21000':
      return new CardinalityViolationError(
        // PostgreSQL's own text names a subquery; the compiler's runtime checks say what they check.
        fields.message.startsWith('more than one row returned by a subquery')
          ? 'more than one element returned by an expression where only a single one is allowed'
          : vocabulary.renameTypes(fields.message),
        options,
      );
    case '40001':
      return new Class(
        'the transaction could not be serialised with a concurrent one; retry it',
        options,
      );
    case '40P01':
      return new Class(
        'a deadlock between concurrent queries was detected; retry the query',
        options,
      );
    case '57014':
      return new Class('the query was cancelled: it ran out of time', options);
    default:
      break;
  }
  switch (fields.code.slice(0, 2)) {
    case '22':
      return new Class(vocabulary.renameTypes(fields.message), options);
    case '23':
      return new Class('the query violates an integrity constraint', options);
    case '40':
      return new Class('the transaction was rolled back; retry it', options);
    default:
      return new Class(vocabulary.renameTypes(fields.message), options);
  }
}

function foreignKeyMessage(fields: DatabaseErrorFields, vocabulary: ErrorVocabulary): string {
  const fk = vocabulary.foreignKey(fields);
  // PostgreSQL raises 23503 from the referencing side ("insert or update on table ...") or from
  // the referenced side ("update or delete on table ...").
  const fromTarget = fields.message.startsWith('update or delete');
  if (!fk) {
    return fromTarget
      ? 'the object is still the target of a link, whose policy prohibits its deletion'
      : 'a link refers to an object that does not exist';
  }
  return fromTarget
    ? `deletion of an object of type '${fk.target}' is prohibited: ${fk.link} still refers to it`
    : `${fk.link} refers to an object of type '${fk.target}' that does not exist`;
}

function internal(err: unknown): SvcError {
  return commonError('INTERNAL_ERROR', 'an unexpected error occurred', { cause: err });
}
