/**
 * @svc/client: EdgeQL queries against a svc server over HTTP, results decoded by the types the
 * server describes, errors as classes. No runtime dependencies; any runtime with `fetch`.
 *
 * @example
 * import { createClient } from '@svc/client';
 * const client = createClient({ url: 'http://127.0.0.1:5656' });
 * const user = await client.querySingle<{ name: string }>(
 *   'select User { name } filter .id = <uuid>$id',
 *   { id },
 * );
 */
export * from './auth';
export {
  createClient,
  type Client,
  type ClientOptions,
  type Executor,
  type Variables,
} from './client';
export {
  decode,
  encode,
  type Cardinality,
  type DecodeOptions,
  type PointerDescriptor,
  type QueryDescription,
  type TypeDescriptor,
} from './codec';
export * from './errors';
export { Range } from './range';
export {
  defaultBackoff,
  type BatchStatement,
  type IsolationLevel,
  type RetryOptions,
  type TransactionOptions,
} from './transaction';
export {
  DateDuration,
  Duration,
  LocalDate,
  LocalDateTime,
  LocalTime,
  RelativeDuration,
} from './temporal';
