-- step: drop foreign key Event.venue.fk
alter table "default"."Event" drop constraint "Event.venue.fk";

-- step: drop foreign key Ticket.holder.fk
alter table "default"."Ticket" drop constraint "Ticket.holder.fk";

-- step: drop index Ticket.holder.index
drop index "default"."Ticket.holder.index";

-- step: create link default::Event.backup_venue -> default::Venue
alter table "default"."Event" add column "backup_venue" uuid;
alter table "default"."Event" add constraint "Event.backup_venue.fk" foreign key ("backup_venue") references "default"."Venue" ("id") on delete set null;
create index "Event.backup_venue.index" on "default"."Event" ("backup_venue");

-- step: alter link default::Event.speakers
alter table "default"."Event.speakers" add column "confirmed" boolean;

-- step: alter link default::Ticket.holder: single → multi (values move to Ticket.holder)
create table "default"."Ticket.holder" ("source" uuid not null, "target" uuid not null, constraint "Ticket.holder.pkey" primary key ("source", "target"));
insert into "default"."Ticket.holder" ("source", "target") select "id", "holder" from "default"."Ticket" where "holder" is not null;
alter table "default"."Ticket.holder" add constraint "Ticket.holder.source.fk" foreign key ("source") references "default"."Ticket" ("id") on delete cascade;
alter table "default"."Ticket.holder" add constraint "Ticket.holder.target.fk" foreign key ("target") references "default"."Attendee" ("id") on delete cascade;
create index "Ticket.holder.target.index" on "default"."Ticket.holder" ("target");
alter table "default"."Ticket" drop column "holder";

-- step: add foreign key Event.venue.fk
alter table "default"."Event" add constraint "Event.venue.fk" foreign key ("venue") references "default"."Venue" ("id") on delete no action deferrable initially deferred;
