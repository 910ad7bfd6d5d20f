/**
 * sql/codegen/bootstrap: the SQL every svc database needs before any schema is applied.
 *
 * Output: idempotent statements (safe to run on every start) that work on PostgreSQL 15+ and
 * PGlite without extensions:
 * - `svc_meta.uuid_generate_v7()`: a UUIDv7 (48-bit Unix milliseconds, then random bits), built
 *   from `gen_random_uuid()` (core since PostgreSQL 13) by overwriting the first 6 bytes with the
 *   time and setting the version nibble from 4 to 7;
 * - `svc_meta."bigint"`: the storage of `std::bigint`, numeric with no fractional digits;
 * - the functions std's SQL forms call (std/bootstrap: output formats, checked parsers, raise).
 */
import { STD_BOOTSTRAP_SQL } from '../../std/bootstrap';

export const STORAGE_BOOTSTRAP_SQL: readonly string[] = [
  'create schema if not exists "svc_meta"',
  `create or replace function "svc_meta"."uuid_generate_v7"() returns uuid language sql volatile as $$ select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid $$`,
  `do $$ begin if not exists (select 1 from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'svc_meta' and t.typname = 'bigint') then create domain "svc_meta"."bigint" as numeric constraint "bigint.integral" check (scale(VALUE) = 0); end if; end $$`,
  ...STD_BOOTSTRAP_SQL,
];
