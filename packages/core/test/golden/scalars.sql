-- step: create type default::AllScalars
create schema if not exists "default";
create table "default"."AllScalars" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "a_str" text, "a_bool" boolean, "a_int16" smallint, "a_int32" integer, "a_int64" bigint, "a_float32" real, "a_float64" double precision, "a_bigint" "svc_meta"."bigint", "a_decimal" numeric, "a_uuid" uuid, "a_json" jsonb, "a_bytes" bytea, "a_datetime" timestamptz, "a_duration" interval, "a_local_datetime" timestamp, "a_local_date" date, "a_local_time" time, "a_relative_duration" interval, "a_date_duration" interval);

-- step: create type default::Arrays
create table "default"."Arrays" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "words" text[], "counts" bigint[] not null default ARRAY[1, 2, 3], "empty" text[] not null default ARRAY[]::text[], "moments" timestamptz[], "joined" text[] not null default ARRAY['a'] || ARRAY['b', 'c']);

-- step: create type default::Defaults
create table "default"."Defaults" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "d_str" text not null default 'it''s "quoted"', "d_bool" boolean not null default true, "d_int16" smallint not null default 7::smallint, "d_int32" integer not null default 2147483647, "d_int64" bigint not null default -9007199254740993, "d_float32" real not null default 1.5::double precision, "d_float64" double precision not null default (-2.5e-3)::double precision, "d_bigint" "svc_meta"."bigint" not null default 123456789012345678901234567890::numeric, "d_decimal" numeric not null default 12.50::numeric, "d_uuid" uuid not null default gen_random_uuid(), "d_json" jsonb not null default '{"a": [1, 2]}'::jsonb, "d_bytes" bytea not null default '\x00ff616263'::bytea, "d_datetime" timestamptz not null default '2024-01-01T00:00:00Z'::timestamptz, "d_duration" interval not null default '1 hour'::interval, "d_local_date" date not null default '2024-02-29'::date, "d_local_time" time not null default '12:30:00'::time, "d_arith" bigint not null default ((6::bigint) * (7::bigint)) + (1::bigint), "d_ratio" double precision not null default (1::double precision) / 3, "d_floor" bigint not null default floor(((-7)::numeric) / 2)::bigint, "d_mod" bigint not null default ((((-7)::bigint) % (3::bigint)) + (3::bigint)) % (3::bigint), "d_power" double precision not null default power(2::double precision, 10::double precision), "d_concat" text not null default ('a' || 'b') || (42::text), "d_if" text not null default case when 3 > 2 then 'big' else 'small' end, "d_coalesce" text not null default coalesce(null::text, 'fallback'));

-- step: create property default::Arrays.tags (std::str, multi)
create table "default"."Arrays.tags" ("source" uuid not null, "value" text not null);
alter table "default"."Arrays.tags" add constraint "Arrays.tags.source.fk" foreign key ("source") references "default"."Arrays" ("id") on delete cascade;
create index "Arrays.tags.source.index" on "default"."Arrays.tags" ("source");

-- step: create property default::Arrays.numbers (std::int32, multi)
create table "default"."Arrays.numbers" ("source" uuid not null, "value" integer not null);
alter table "default"."Arrays.numbers" add constraint "Arrays.numbers.source.fk" foreign key ("source") references "default"."Arrays" ("id") on delete cascade;
create index "Arrays.numbers.source.index" on "default"."Arrays.numbers" ("source");
