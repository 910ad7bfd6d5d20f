-- step: alter property default::AllScalars.a_int16: type std::int16 → std::int32
alter table "default"."AllScalars" alter column "a_int16" type integer using "a_int16"::integer;

-- step: alter property default::AllScalars.a_float32: type std::float32 → std::float64
alter table "default"."AllScalars" alter column "a_float32" type double precision using "a_float32"::double precision;

-- step: create property default::Arrays.flags (array<std::bool>, required)
alter table "default"."Arrays" add column "flags" boolean[] not null default ARRAY[true, false]::boolean[];

-- step: alter property default::Arrays.numbers
alter table "default"."Arrays.numbers" alter column "value" type bigint using "value"::bigint;

-- step: alter property default::Defaults.d_int64: default 0::bigint
alter table "default"."Defaults" alter column "d_int64" set default 0::bigint;
