-- step: create property default::Measurement.labels (array<std::str>)
alter table "default"."Measurement" add column "labels" text[];

-- step: alter property default::Route.elevations: type array<std::int32> → array<std::int64>
alter table "default"."Route" alter column "elevations" type bigint[] using "elevations"::bigint[];

-- step: create property default::Route.bounds (tuple<std::float64, std::float64>, required)
alter table "default"."Route" add column "bounds" jsonb not null default jsonb_build_array(to_json('0.0'::double precision)::jsonb, to_json('0.0'::double precision)::jsonb);

-- step: create index on (.taken_at) on default::Measurement
create index "Measurement.taken_at.index" on "default"."Measurement" ("taken_at");
