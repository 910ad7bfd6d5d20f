-- step: create type default::Milestone
create table "default"."Milestone" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "title" text not null, "due_on" date, "project" uuid not null);

-- step: create property default::Issue.due_on (cal::local_date)
alter table "default"."Issue" add column "due_on" date;

-- step: create link default::Issue.milestone -> default::Milestone
alter table "default"."Issue" add column "milestone" uuid;
alter table "default"."Issue" add constraint "Issue.milestone.fk" foreign key ("milestone") references "default"."Milestone" ("id") on delete set null;
create index "Issue.milestone.index" on "default"."Issue" ("milestone");

-- step: alter property default::Member.full_name: default ''::text, required
alter table "default"."Member" alter column "full_name" set default ''::text;
update "default"."Member" set "full_name" = ''::text where "full_name" is null;
alter table "default"."Member" alter column "full_name" set not null;

-- step: create property default::Member.email (std::str)
alter table "default"."Member" add column "email" text;

-- step: alter link default::Project.members
alter table "default"."Project.members" alter column "role" set default 'reporter'::text;

-- step: create link default::Milestone.project -> default::Project (required)
alter table "default"."Milestone" add constraint "Milestone.project.fk" foreign key ("project") references "default"."Project" ("id") on delete cascade;
create index "Milestone.project.index" on "default"."Milestone" ("project");

-- step: create index on ((.priority, .opened_at)) on default::Issue
create index "Issue.priority,opened_at.index" on "default"."Issue" ("priority", "opened_at");

-- step: create constraint std::exclusive on ((.project, .title)) on default::Milestone
create unique index "Milestone.exclusive.7597dc9a" on "default"."Milestone" ("project", "title");
