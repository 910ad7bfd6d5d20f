-- step: create type default::Attendee
create schema if not exists "default";
create table "default"."Attendee" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "email" text not null, "name" text not null);

-- step: create type default::Event
create table "default"."Event" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "title" text not null, "starts_at" timestamptz not null, "venue" uuid not null, "organizer" uuid, "organizer@since" timestamptz);

-- step: create type default::Speaker
create table "default"."Speaker" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "bio" text);

-- step: create type default::Sponsor
create table "default"."Sponsor" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null);

-- step: create type default::Ticket
create table "default"."Ticket" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "code" text not null, "event" uuid not null, "holder" uuid, "price_cents" integer not null default 0::bigint, "issued_at" timestamptz not null default clock_timestamp());

-- step: create type default::Venue
create table "default"."Venue" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "capacity" integer not null);

-- step: create link default::Event.venue -> default::Venue (required)
alter table "default"."Event" add constraint "Event.venue.fk" foreign key ("venue") references "default"."Venue" ("id") on delete no action;
create index "Event.venue.index" on "default"."Event" ("venue");

-- step: create link default::Event.organizer -> default::Attendee
alter table "default"."Event" add constraint "Event.organizer.fk" foreign key ("organizer") references "default"."Attendee" ("id") on delete set null;
create index "Event.organizer.index" on "default"."Event" ("organizer");

-- step: create link default::Event.speakers -> default::Speaker (multi)
create table "default"."Event.speakers" ("source" uuid not null, "target" uuid not null, "role" text, "order" smallint default (0::bigint)::smallint, constraint "Event.speakers.pkey" primary key ("source", "target"));
alter table "default"."Event.speakers" add constraint "Event.speakers.source.fk" foreign key ("source") references "default"."Event" ("id") on delete cascade;
alter table "default"."Event.speakers" add constraint "Event.speakers.target.fk" foreign key ("target") references "default"."Speaker" ("id") on delete cascade;
create index "Event.speakers.target.index" on "default"."Event.speakers" ("target");

-- step: create link default::Event.sponsors -> default::Sponsor (multi)
create table "default"."Event.sponsors" ("source" uuid not null, "target" uuid not null, "tier" text, constraint "Event.sponsors.pkey" primary key ("source", "target"));
alter table "default"."Event.sponsors" add constraint "Event.sponsors.source.fk" foreign key ("source") references "default"."Event" ("id") on delete cascade;
alter table "default"."Event.sponsors" add constraint "Event.sponsors.target.fk" foreign key ("target") references "default"."Sponsor" ("id") on delete no action deferrable initially deferred;
create index "Event.sponsors.target.index" on "default"."Event.sponsors" ("target");

-- step: create link default::Ticket.event -> default::Event (required)
alter table "default"."Ticket" add constraint "Ticket.event.fk" foreign key ("event") references "default"."Event" ("id") on delete cascade;
create index "Ticket.event.index" on "default"."Ticket" ("event");

-- step: create link default::Ticket.holder -> default::Attendee
alter table "default"."Ticket" add constraint "Ticket.holder.fk" foreign key ("holder") references "default"."Attendee" ("id") on delete set null;
create index "Ticket.holder.index" on "default"."Ticket" ("holder");

-- step: create constraint std::min_value(1) on default::Venue.capacity
alter table "default"."Venue" add constraint "Venue.capacity.min_value" check (("capacity"::bigint) >= (1::bigint));

-- step: create constraint std::exclusive on default::Attendee.email
create unique index "Attendee.email.exclusive" on "default"."Attendee" ("email");

-- step: create constraint std::exclusive on default::Sponsor.name
create unique index "Sponsor.name.exclusive" on "default"."Sponsor" ("name");

-- step: create constraint std::exclusive on default::Ticket.code
create unique index "Ticket.code.exclusive" on "default"."Ticket" ("code");

-- step: create integrity trigger default::Event.sponsors.on source delete on default::Event.sponsors
create or replace function "default"."default::Event.sponsors.on source delete"() returns trigger language plpgsql set search_path = pg_catalog as '#variable_conflict use_column
begin if old."target" is not null and not exists (select 1 from "default"."Event" as s where s."id" = old."source") then delete from "default"."Sponsor" where "id" = old."target" and not exists (select 1 from "default"."Event.sponsors" as o where o."target" = old."target"); end if; return null; end';
create trigger "default::Event.sponsors.on source delete" after delete on "default"."Event.sponsors" for each row execute function "default"."default::Event.sponsors.on source delete"();
