-- step: create type default::Hashtag
create schema if not exists "default";
create table "default"."Hashtag" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "tag" text not null);

-- step: create type default::Person
create table "default"."Person" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "username" text not null, "display_name" text not null, "bio" text, "avatar_url" text, "joined_at" timestamptz not null default clock_timestamp(), "verified" boolean not null default false);

-- step: create type default::Status
create table "default"."Status" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "text" text not null, "author" uuid not null, "posted_at" timestamptz not null default clock_timestamp(), "reply_to" uuid);

-- step: create link default::Hashtag.statuses -> default::Status (multi)
create table "default"."Hashtag.statuses" ("source" uuid not null, "target" uuid not null, constraint "Hashtag.statuses.pkey" primary key ("source", "target"));
alter table "default"."Hashtag.statuses" add constraint "Hashtag.statuses.source.fk" foreign key ("source") references "default"."Hashtag" ("id") on delete cascade;
alter table "default"."Hashtag.statuses" add constraint "Hashtag.statuses.target.fk" foreign key ("target") references "default"."Status" ("id") on delete cascade;
create index "Hashtag.statuses.target.index" on "default"."Hashtag.statuses" ("target");

-- step: create link default::Person.follows -> default::Person (multi)
create table "default"."Person.follows" ("source" uuid not null, "target" uuid not null, "since" timestamptz, "muted" boolean, constraint "Person.follows.pkey" primary key ("source", "target"));
alter table "default"."Person.follows" add constraint "Person.follows.source.fk" foreign key ("source") references "default"."Person" ("id") on delete cascade;
alter table "default"."Person.follows" add constraint "Person.follows.target.fk" foreign key ("target") references "default"."Person" ("id") on delete cascade;
create index "Person.follows.target.index" on "default"."Person.follows" ("target");

-- step: create link default::Person.blocks -> default::Person (multi)
create table "default"."Person.blocks" ("source" uuid not null, "target" uuid not null, constraint "Person.blocks.pkey" primary key ("source", "target"));
alter table "default"."Person.blocks" add constraint "Person.blocks.source.fk" foreign key ("source") references "default"."Person" ("id") on delete cascade;
alter table "default"."Person.blocks" add constraint "Person.blocks.target.fk" foreign key ("target") references "default"."Person" ("id") on delete cascade;
create index "Person.blocks.target.index" on "default"."Person.blocks" ("target");

-- step: create link default::Status.author -> default::Person (required)
alter table "default"."Status" add constraint "Status.author.fk" foreign key ("author") references "default"."Person" ("id") on delete cascade;
create index "Status.author.index" on "default"."Status" ("author");

-- step: create link default::Status.reply_to -> default::Status
alter table "default"."Status" add constraint "Status.reply_to.fk" foreign key ("reply_to") references "default"."Status" ("id") on delete set null;
create index "Status.reply_to.index" on "default"."Status" ("reply_to");

-- step: create link default::Status.liked_by -> default::Person (multi)
create table "default"."Status.liked_by" ("source" uuid not null, "target" uuid not null, "liked_at" timestamptz, constraint "Status.liked_by.pkey" primary key ("source", "target"));
alter table "default"."Status.liked_by" add constraint "Status.liked_by.source.fk" foreign key ("source") references "default"."Status" ("id") on delete cascade;
alter table "default"."Status.liked_by" add constraint "Status.liked_by.target.fk" foreign key ("target") references "default"."Person" ("id") on delete cascade;
create index "Status.liked_by.target.index" on "default"."Status.liked_by" ("target");

-- step: create link default::Status.mentions -> default::Person (multi)
create table "default"."Status.mentions" ("source" uuid not null, "target" uuid not null, constraint "Status.mentions.pkey" primary key ("source", "target"));
alter table "default"."Status.mentions" add constraint "Status.mentions.source.fk" foreign key ("source") references "default"."Status" ("id") on delete cascade;
alter table "default"."Status.mentions" add constraint "Status.mentions.target.fk" foreign key ("target") references "default"."Person" ("id") on delete cascade;
create index "Status.mentions.target.index" on "default"."Status.mentions" ("target");

-- step: create constraint std::regexp('^[a-z0-9_]{3,30}$') on default::Person.username
alter table "default"."Person" add constraint "Person.username.regexp" check ("username" ~ ('^[a-z0-9_]{3,30}$'::text));

-- step: create constraint std::max_len_value(500) on default::Person.bio
alter table "default"."Person" add constraint "Person.bio.max_len_value" check ((char_length("bio")::bigint) <= (500::bigint));

-- step: create constraint std::expression on (.username != str_lower(.display_name) or len(.display_name) > 0) on default::Person
alter table "default"."Person" add constraint "Person.expression.d61cc790" check (("username" <> lower("display_name")) or ((char_length("display_name")::bigint) > (0::bigint)));

-- step: create constraint std::max_len_value(280) on default::Status.text
alter table "default"."Status" add constraint "Status.text.max_len_value" check ((char_length("text")::bigint) <= (280::bigint));

-- step: create constraint std::exclusive on (str_lower(__subject__)) on default::Hashtag.tag
create unique index "Hashtag.tag.exclusive.f4ce9c50" on "default"."Hashtag" ((lower("tag")));

-- step: create constraint std::exclusive on default::Person.username
create unique index "Person.username.exclusive" on "default"."Person" ("username");

-- step: create index on ((.author, .posted_at)) on default::Status
create index "Status.author,posted_at.index" on "default"."Status" ("author", "posted_at");
