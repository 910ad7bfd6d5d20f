-- step: create scalar default::Coordinate (std::float64)
create schema if not exists "default";
create domain "default"."Coordinate" as double precision constraint "Coordinate.min_value" check (VALUE >= (((-180)::bigint)::double precision)) constraint "Coordinate.max_value" check (VALUE <= ((180::bigint)::double precision));

-- step: create type default::Measurement
create table "default"."Measurement" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "taken_at" timestamptz not null default clock_timestamp(), "values" double precision[] not null, "sensor" jsonb not null, "place" uuid);

-- step: create type default::Place
create table "default"."Place" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "location" jsonb not null, "aliases" text[], "tags" text[] not null default ARRAY[]::text[], "bbox" jsonb, "origin" jsonb not null default jsonb_build_array(to_json('gps'::text)::jsonb, to_json(0::bigint)::jsonb));

-- step: create type default::Route
create table "default"."Route" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "waypoints" jsonb not null, "distances_m" double precision[] not null default ARRAY[]::double precision[], "elevations" integer[], "coordinates" "default"."Coordinate"[]);

-- step: create link default::Measurement.place -> default::Place
alter table "default"."Measurement" add constraint "Measurement.place.fk" foreign key ("place") references "default"."Place" ("id") on delete set null;
create index "Measurement.place.index" on "default"."Measurement" ("place");

-- step: create property default::Measurement.readings (std::float64, multi)
create table "default"."Measurement.readings" ("source" uuid not null, "value" double precision not null);
alter table "default"."Measurement.readings" add constraint "Measurement.readings.source.fk" foreign key ("source") references "default"."Measurement" ("id") on delete cascade;
create index "Measurement.readings.source.index" on "default"."Measurement.readings" ("source");

-- step: create link default::Route.stops -> default::Place (multi)
create table "default"."Route.stops" ("source" uuid not null, "target" uuid not null, "position" integer, constraint "Route.stops.pkey" primary key ("source", "target"));
alter table "default"."Route.stops" add constraint "Route.stops.source.fk" foreign key ("source") references "default"."Route" ("id") on delete cascade;
alter table "default"."Route.stops" add constraint "Route.stops.target.fk" foreign key ("target") references "default"."Place" ("id") on delete cascade;
create index "Route.stops.target.index" on "default"."Route.stops" ("target");

-- step: create constraint std::expression on (len(.distances_m) <= 1000) on default::Route
alter table "default"."Route" add constraint "Route.expression.b2fa3071" check ((cardinality("distances_m")::bigint) <= (1000::bigint));

-- step: create index on (.name) on default::Place
create index "Place.name.index" on "default"."Place" ("name");
