/**
 * schema/bootstrap: the SQL every svc database needs before any schema is applied.
 *
 * Output: idempotent statements (safe to run on every start) that work on PostgreSQL 15+ and
 * PGlite without extensions:
 * - `svc_meta.uuid_generate_v7()`: a UUIDv7 (48-bit Unix milliseconds, then random bits), built
 *   from `gen_random_uuid()` (core since PostgreSQL 13) with text functions only (no `bytea`
 *   functions, which CockroachDB and YugabyteDB differ on; docs/scaling.md);
 * - `svc_meta."bigint"`: the storage of `std::bigint`, numeric with no fractional digits;
 * - a text DOMAIN per std enum (`svc_meta."Endian"`, model/schema STD_ENUMS);
 * - `svc_meta.json_slice(j, a, b)`: Gel's `j[a:b]` of a JSON array or string (null bounds are
 *   open, negative ones count from the end, both clamped); an expression index may use it, so
 *   it is immutable; another kind of JSON value raises 22023 (`InvalidValueError`).
 * - the functions std's SQL forms call (std/bootstrap: output formats, checked parsers, raise).
 * Every function pins `search_path` to `pg_catalog`, so no session setting changes what it does.
 * Functions are `create or replace`, so an upgraded svc replaces the ones an older one made the
 * next time the bootstrap runs; domains are made only when `svc_meta` lacks them (`unlessType`,
 * run by storage/migrate `runBootstrap`, which the migrator calls under its migration lock).
 */
import { STD_ENUMS } from '../model/schema';
import { STD_BOOTSTRAP_SQL } from '../std/bootstrap';
import { quoteLiteral } from '../sql/codegen/quote';
import type { BootstrapStatement } from '../storage/migrate';

/**
 * `svc_meta."Endian"`: a std enum's DOMAIN (text limited to its values), made once: the runner
 * (storage/migrate `runBootstrap`) asks `pg_type` and sends the plain `CREATE DOMAIN` only when
 * the type is missing, so no `DO` block is needed (Citus, CockroachDB and YugabyteDB differ on
 * those; docs/scaling.md).
 */
const stdEnumDomain = (name: string, values: readonly string[]): BootstrapStatement => {
  const short = name.slice(name.lastIndexOf(':') + 1);
  return {
    unlessType: short,
    sql: `create domain "svc_meta"."${short}" as text check (VALUE in (${values.map(quoteLiteral).join(', ')}))`,
  };
};

/**
 * A UUIDv7 as text: the 12 hex digits of the Unix time in milliseconds (big-endian, so ids sort by
 * time across milliseconds), the version digit `7`, then `gen_random_uuid()`'s text after its
 * version digit with the hyphens dropped (its variant digit, 8 to b, stays where RFC 9562 puts it):
 * 32 hex digits, a form every engine's uuid input reads. Costs about what the former `bytea`
 * version did (docs/scaling.md, "Cheap wins"). `create or replace`: a database an older svc
 * bootstrapped gets this one the next time the bootstrap runs.
 */
const UUID_GENERATE_V7_SQL = `create or replace function "svc_meta"."uuid_generate_v7"() returns uuid language sql volatile set search_path = pg_catalog as $$ select (lpad(to_hex(floor(extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0') || '7' || replace(substr(gen_random_uuid()::text, 16), '-', ''))::uuid $$`;

export const STORAGE_BOOTSTRAP_SQL: readonly BootstrapStatement[] = [
  'create schema if not exists "svc_meta"',
  UUID_GENERATE_V7_SQL,
  `create or replace function "svc_meta"."json_slice"(j jsonb, a bigint, b bigint) returns jsonb language plpgsql immutable set search_path = pg_catalog as $$ declare len bigint; lo bigint; hi bigint; begin if j is null then return null; end if; if jsonb_typeof(j) = 'array' then len := jsonb_array_length(j); elsif jsonb_typeof(j) = 'string' then len := char_length(j #>> '{}'); else raise exception using errcode = '22023', message = 'cannot slice JSON ' || jsonb_typeof(j); end if; lo := case when a is null then 0 when a < 0 then greatest(len + a, 0) else least(a, len) end; hi := case when b is null then len when b < 0 then greatest(len + b, 0) else least(b, len) end; if jsonb_typeof(j) = 'array' then return coalesce((select jsonb_agg(e.value order by e.n) from jsonb_array_elements(j) with ordinality as e(value, n) where e.n > lo and e.n <= hi), '[]'::jsonb); end if; return to_jsonb(substr(j #>> '{}', (lo + 1)::integer, greatest(hi - lo, 0)::integer)); end $$`,
  {
    unlessType: 'bigint',
    sql: 'create domain "svc_meta"."bigint" as numeric constraint "bigint.integral" check (scale(VALUE) = 0)',
  },
  ...Object.entries(STD_ENUMS).map(([name, values]) => stdEnumDomain(name, values)),
  ...STD_BOOTSTRAP_SQL,
];
