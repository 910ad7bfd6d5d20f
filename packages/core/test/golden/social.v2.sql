-- step: create property default::Person.location (std::str)
alter table "default"."Person" add column "location" text;

-- step: create link default::Person.mutes -> default::Person (multi)
create table "default"."Person.mutes" ("source" uuid not null, "target" uuid not null, constraint "Person.mutes.pkey" primary key ("source", "target"));
alter table "default"."Person.mutes" add constraint "Person.mutes.source.fk" foreign key ("source") references "default"."Person" ("id") on delete cascade;
alter table "default"."Person.mutes" add constraint "Person.mutes.target.fk" foreign key ("target") references "default"."Person" ("id") on delete cascade;
create index "Person.mutes.target.index" on "default"."Person.mutes" ("target");

-- step: create property default::Status.language (std::str, required)
alter table "default"."Status" add column "language" text not null default 'en'::text;

-- step: create index on (.posted_at) on default::Status
create index "Status.posted_at.index" on "default"."Status" ("posted_at");
