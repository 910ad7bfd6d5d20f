-- step: create scalar default::IssueNumber (std::sequence)
create schema if not exists "default";
create sequence "default"."IssueNumber.seq" as bigint;
create domain "default"."IssueNumber" as bigint default nextval('"default"."IssueNumber.seq"'::regclass);

-- step: create scalar default::Priority (enum Low, Medium, High, Urgent)
create domain "default"."Priority" as text constraint "Priority.enum" check (VALUE in ('Low', 'Medium', 'High', 'Urgent'));

-- step: create type default::Issue
create table "default"."Issue" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "number" "default"."IssueNumber" not null, "title" text not null, "body" text, "priority" "default"."Priority" not null default ('Medium'::text)::"default"."Priority", "opened_at" timestamptz not null default clock_timestamp(), "closed_at" timestamptz, "estimate_hours" real, "project" uuid not null, "assignee" uuid, "reporter" uuid not null);

-- step: create type default::IssueComment
create table "default"."IssueComment" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "body" text not null, "created_at" timestamptz not null default clock_timestamp(), "issue" uuid not null, "author" uuid);

-- step: create type default::Label
create table "default"."Label" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "project" uuid not null);

-- step: create type default::Member
create table "default"."Member" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "login" text not null, "full_name" text, "active" boolean not null default true);

-- step: create type default::Project
create table "default"."Project" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "key" text not null, "name" text not null, "description" text, "archived" boolean not null default false);

-- step: create link default::Issue.project -> default::Project (required)
alter table "default"."Issue" add constraint "Issue.project.fk" foreign key ("project") references "default"."Project" ("id") on delete cascade;
create index "Issue.project.index" on "default"."Issue" ("project");

-- step: create link default::Issue.assignee -> default::Member
alter table "default"."Issue" add constraint "Issue.assignee.fk" foreign key ("assignee") references "default"."Member" ("id") on delete set null;
create index "Issue.assignee.index" on "default"."Issue" ("assignee");

-- step: create link default::Issue.reporter -> default::Member (required)
alter table "default"."Issue" add constraint "Issue.reporter.fk" foreign key ("reporter") references "default"."Member" ("id") on delete no action;
create index "Issue.reporter.index" on "default"."Issue" ("reporter");

-- step: create link default::Issue.labels -> default::Label (multi)
create table "default"."Issue.labels" ("source" uuid not null, "target" uuid not null, constraint "Issue.labels.pkey" primary key ("source", "target"));
alter table "default"."Issue.labels" add constraint "Issue.labels.source.fk" foreign key ("source") references "default"."Issue" ("id") on delete cascade;
alter table "default"."Issue.labels" add constraint "Issue.labels.target.fk" foreign key ("target") references "default"."Label" ("id") on delete no action;
create index "Issue.labels.target.index" on "default"."Issue.labels" ("target");

-- step: create link default::Issue.blocked_by -> default::Issue (multi)
create table "default"."Issue.blocked_by" ("source" uuid not null, "target" uuid not null, constraint "Issue.blocked_by.pkey" primary key ("source", "target"));
alter table "default"."Issue.blocked_by" add constraint "Issue.blocked_by.source.fk" foreign key ("source") references "default"."Issue" ("id") on delete cascade;
alter table "default"."Issue.blocked_by" add constraint "Issue.blocked_by.target.fk" foreign key ("target") references "default"."Issue" ("id") on delete cascade;
create index "Issue.blocked_by.target.index" on "default"."Issue.blocked_by" ("target");

-- step: create link default::IssueComment.issue -> default::Issue (required)
alter table "default"."IssueComment" add constraint "IssueComment.issue.fk" foreign key ("issue") references "default"."Issue" ("id") on delete cascade;
create index "IssueComment.issue.index" on "default"."IssueComment" ("issue");

-- step: create link default::IssueComment.author -> default::Member
alter table "default"."IssueComment" add constraint "IssueComment.author.fk" foreign key ("author") references "default"."Member" ("id") on delete set null;
create index "IssueComment.author.index" on "default"."IssueComment" ("author");

-- step: create link default::Label.project -> default::Project (required)
alter table "default"."Label" add constraint "Label.project.fk" foreign key ("project") references "default"."Project" ("id") on delete cascade;
create index "Label.project.index" on "default"."Label" ("project");

-- step: create link default::Project.members -> default::Member (multi)
create table "default"."Project.members" ("source" uuid not null, "target" uuid not null, "role" text default 'developer'::text, "joined" timestamptz, constraint "Project.members.pkey" primary key ("source", "target"));
alter table "default"."Project.members" add constraint "Project.members.source.fk" foreign key ("source") references "default"."Project" ("id") on delete cascade;
alter table "default"."Project.members" add constraint "Project.members.target.fk" foreign key ("target") references "default"."Member" ("id") on delete no action;
create index "Project.members.target.index" on "default"."Project.members" ("target");

-- step: create constraint std::max_len_value(255) on default::Issue.title
alter table "default"."Issue" add constraint "Issue.title.max_len_value" check ((char_length("title")::bigint) <= (255::bigint));

-- step: create constraint std::min_value(0) on default::Issue.estimate_hours
alter table "default"."Issue" add constraint "Issue.estimate_hours.min_value" check (("estimate_hours"::double precision) >= ((0::bigint)::double precision));

-- step: create constraint std::expression on (not exists .closed_at or .closed_at >= .opened_at) on default::Issue
alter table "default"."Issue" add constraint "Issue.expression.51c3edd4" check (case when ((not ("closed_at" is not null)) is null) or (("closed_at" >= "opened_at") is null) then null::boolean else (not ("closed_at" is not null)) or ("closed_at" >= "opened_at") end);

-- step: create constraint std::regexp('^[A-Z][A-Z0-9]{1,9}$') on default::Project.key
alter table "default"."Project" add constraint "Project.key.regexp" check ("key" ~ ('^[A-Z][A-Z0-9]{1,9}$'::text));

-- step: create constraint std::exclusive on default::Issue.number
create unique index "Issue.number.exclusive" on "default"."Issue" ("number");

-- step: create index on (.opened_at) on default::Issue
create index "Issue.opened_at.index" on "default"."Issue" ("opened_at");

-- step: create constraint std::exclusive on ((.project, .name)) on default::Label
create unique index "Label.exclusive.280c7b5b" on "default"."Label" ("project", "name");

-- step: create constraint std::exclusive on default::Member.login
create unique index "Member.login.exclusive" on "default"."Member" ("login");

-- step: create constraint std::exclusive on default::Project.key
create unique index "Project.key.exclusive" on "default"."Project" ("key");
