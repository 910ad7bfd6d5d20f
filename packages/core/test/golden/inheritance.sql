-- step: create type default::Account
create schema if not exists "default";
create table "default"."Account" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "email" text not null);

-- step: create type default::Article
create table "default"."Article" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "created_at" timestamptz not null default clock_timestamp(), "modified_at" timestamptz, "published" boolean not null default false, "owner" uuid, "body" text not null, "summary" text);

-- step: create type default::FeaturedArticle
create table "default"."FeaturedArticle" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "created_at" timestamptz not null default clock_timestamp(), "modified_at" timestamptz, "published" boolean not null default false, "owner" uuid, "body" text not null, "summary" text, "rank" smallint not null default (0::bigint)::smallint);

-- step: create type default::Folder
create table "default"."Folder" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "parent" uuid);

-- step: create type default::Gallery
create table "default"."Gallery" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "created_at" timestamptz not null default clock_timestamp(), "modified_at" timestamptz, "published" boolean not null default false);

-- step: create type default::Image
create table "default"."Image" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "owner" uuid, "width" integer not null, "height" integer not null);

-- step: create type default::Video
create table "default"."Video" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "created_at" timestamptz not null default clock_timestamp(), "modified_at" timestamptz, "published" boolean not null default false, "owner" uuid, "url" text not null, "duration_seconds" integer not null);

-- step: create link default::Article.owner -> default::Account
alter table "default"."Article" add constraint "Article.owner.fk" foreign key ("owner") references "default"."Account" ("id") on delete set null;
create index "Article.owner.index" on "default"."Article" ("owner");

-- step: create link default::FeaturedArticle.owner -> default::Account
alter table "default"."FeaturedArticle" add constraint "FeaturedArticle.owner.fk" foreign key ("owner") references "default"."Account" ("id") on delete set null;
create index "FeaturedArticle.owner.index" on "default"."FeaturedArticle" ("owner");

-- step: create link default::Folder.parent -> default::Folder
alter table "default"."Folder" add constraint "Folder.parent.fk" foreign key ("parent") references "default"."Folder" ("id") on delete no action;
create index "Folder.parent.index" on "default"."Folder" ("parent");

-- step: create link default::Folder.items -> default::Named (multi)
create table "default"."Folder.items" ("source" uuid not null, "target" uuid not null, constraint "Folder.items.pkey" primary key ("source", "target"));
alter table "default"."Folder.items" add constraint "Folder.items.source.fk" foreign key ("source") references "default"."Folder" ("id") on delete cascade;
create index "Folder.items.target.index" on "default"."Folder.items" ("target");

-- step: create link default::Gallery.images -> default::Image (multi)
create table "default"."Gallery.images" ("source" uuid not null, "target" uuid not null, constraint "Gallery.images.pkey" primary key ("source", "target"));
alter table "default"."Gallery.images" add constraint "Gallery.images.source.fk" foreign key ("source") references "default"."Gallery" ("id") on delete cascade;
alter table "default"."Gallery.images" add constraint "Gallery.images.target.fk" foreign key ("target") references "default"."Image" ("id") on delete no action;
create index "Gallery.images.target.index" on "default"."Gallery.images" ("target");

-- step: create link default::Image.owner -> default::Account
alter table "default"."Image" add constraint "Image.owner.fk" foreign key ("owner") references "default"."Account" ("id") on delete set null;
create index "Image.owner.index" on "default"."Image" ("owner");

-- step: create link default::Video.owner -> default::Account
alter table "default"."Video" add constraint "Video.owner.fk" foreign key ("owner") references "default"."Account" ("id") on delete set null;
create index "Video.owner.index" on "default"."Video" ("owner");

-- step: create constraint std::expression on (.published or not exists .modified_at or .modified_at >= .created_at) on default::Article
alter table "default"."Article" add constraint "Article.expression.b519b16b" check (case when (("published" or (not ("modified_at" is not null))) is null) or (("modified_at" >= "created_at") is null) then null::boolean else ("published" or (not ("modified_at" is not null))) or ("modified_at" >= "created_at") end);

-- step: create constraint std::expression on (.published or not exists .modified_at or .modified_at >= .created_at) on default::FeaturedArticle
alter table "default"."FeaturedArticle" add constraint "FeaturedArticle.expression.b519b16b" check (case when (("published" or (not ("modified_at" is not null))) is null) or (("modified_at" >= "created_at") is null) then null::boolean else ("published" or (not ("modified_at" is not null))) or ("modified_at" >= "created_at") end);

-- step: create constraint std::expression on (.published or not exists .modified_at or .modified_at >= .created_at) on default::Gallery
alter table "default"."Gallery" add constraint "Gallery.expression.b519b16b" check (case when (("published" or (not ("modified_at" is not null))) is null) or (("modified_at" >= "created_at") is null) then null::boolean else ("published" or (not ("modified_at" is not null))) or ("modified_at" >= "created_at") end);

-- step: create constraint std::min_value(0) on default::Video.duration_seconds
alter table "default"."Video" add constraint "Video.duration_seconds.min_value" check (("duration_seconds"::bigint) >= (0::bigint));

-- step: create constraint std::expression on (.published or not exists .modified_at or .modified_at >= .created_at) on default::Video
alter table "default"."Video" add constraint "Video.expression.b519b16b" check (case when (("published" or (not ("modified_at" is not null))) is null) or (("modified_at" >= "created_at") is null) then null::boolean else ("published" or (not ("modified_at" is not null))) or ("modified_at" >= "created_at") end);

-- step: create constraint std::exclusive on default::Account.email
create unique index "Account.email.exclusive" on "default"."Account" ("email");

-- step: create index on (.name) on default::Account
create index "Account.name.index" on "default"."Account" ("name");

-- step: create index on (.name) on default::Article
create index "Article.name.index" on "default"."Article" ("name");

-- step: create index on (.name) on default::FeaturedArticle
create index "FeaturedArticle.name.index" on "default"."FeaturedArticle" ("name");

-- step: create index on (.name) on default::Folder
create index "Folder.name.index" on "default"."Folder" ("name");

-- step: create index on (.name) on default::Gallery
create index "Gallery.name.index" on "default"."Gallery" ("name");

-- step: create index on (.name) on default::Image
create index "Image.name.index" on "default"."Image" ("name");

-- step: create index on (.name) on default::Video
create index "Video.name.index" on "default"."Video" ("name");

-- step: create abstract type default::Named (view over default::Account, default::Article, default::FeaturedArticle, default::Folder, default::Gallery, default::Image, default::Video)
create view "default"."Named" as select "id", "name", 'default::Account'::text as "__type__" from "default"."Account" union all select "id", "name", 'default::Article'::text as "__type__" from "default"."Article" union all select "id", "name", 'default::FeaturedArticle'::text as "__type__" from "default"."FeaturedArticle" union all select "id", "name", 'default::Folder'::text as "__type__" from "default"."Folder" union all select "id", "name", 'default::Gallery'::text as "__type__" from "default"."Gallery" union all select "id", "name", 'default::Image'::text as "__type__" from "default"."Image" union all select "id", "name", 'default::Video'::text as "__type__" from "default"."Video";

-- step: create abstract type default::Owned (view over default::Article, default::FeaturedArticle, default::Image, default::Video)
create view "default"."Owned" as select "id", "owner", 'default::Article'::text as "__type__" from "default"."Article" union all select "id", "owner", 'default::FeaturedArticle'::text as "__type__" from "default"."FeaturedArticle" union all select "id", "owner", 'default::Image'::text as "__type__" from "default"."Image" union all select "id", "owner", 'default::Video'::text as "__type__" from "default"."Video";

-- step: create abstract type default::Publishable (view over default::Article, default::FeaturedArticle, default::Gallery, default::Video)
create view "default"."Publishable" as select "id", "name", "created_at", "modified_at", "published", 'default::Article'::text as "__type__" from "default"."Article" union all select "id", "name", "created_at", "modified_at", "published", 'default::FeaturedArticle'::text as "__type__" from "default"."FeaturedArticle" union all select "id", "name", "created_at", "modified_at", "published", 'default::Gallery'::text as "__type__" from "default"."Gallery" union all select "id", "name", "created_at", "modified_at", "published", 'default::Video'::text as "__type__" from "default"."Video";

-- step: create abstract type default::Timestamped (view over default::Article, default::FeaturedArticle, default::Gallery, default::Video)
create view "default"."Timestamped" as select "id", "created_at", "modified_at", 'default::Article'::text as "__type__" from "default"."Article" union all select "id", "created_at", "modified_at", 'default::FeaturedArticle'::text as "__type__" from "default"."FeaturedArticle" union all select "id", "created_at", "modified_at", 'default::Gallery'::text as "__type__" from "default"."Gallery" union all select "id", "created_at", "modified_at", 'default::Video'::text as "__type__" from "default"."Video";

-- step: create integrity trigger default::Folder.items.on target delete.default::Account on default::Account
create or replace function "default"."default::Folder.items.on target delete.default::Account"() returns trigger language plpgsql set search_path = pg_catalog as '#variable_conflict use_column
begin if exists (select 1 from "default"."Folder.items" as s where s."target" = old."id" and exists (select 1 from "default"."Folder" as o where o."id" = s."source")) then raise exception using errcode = ''23503'', message = ''deletion of ''''default::Account'''' is prohibited by link target policy of ''''default::Folder.items'''''' || '' ('' || old."id"::text || '')''; end if; return null; end';
create trigger "default::Folder.items.on target delete.default::Account" after delete on "default"."Account" for each row execute function "default"."default::Folder.items.on target delete.default::Account"();

-- step: create integrity trigger default::Folder.items.on target delete.default::Article on default::Article
create or replace function "default"."default::Folder.items.on target delete.default::Article"() returns trigger language plpgsql set search_path = pg_catalog as '#variable_conflict use_column
begin if exists (select 1 from "default"."Folder.items" as s where s."target" = old."id" and exists (select 1 from "default"."Folder" as o where o."id" = s."source")) then raise exception using errcode = ''23503'', message = ''deletion of ''''default::Article'''' is prohibited by link target policy of ''''default::Folder.items'''''' || '' ('' || old."id"::text || '')''; end if; return null; end';
create trigger "default::Folder.items.on target delete.default::Article" after delete on "default"."Article" for each row execute function "default"."default::Folder.items.on target delete.default::Article"();

-- step: create integrity trigger default::Folder.items.on target delete.default::FeaturedArticle on default::FeaturedArticle
create or replace function "default"."default::Folder.items.on target delete.default::FeaturedArticle"() returns trigger language plpgsql set search_path = pg_catalog as '#variable_conflict use_column
begin if exists (select 1 from "default"."Folder.items" as s where s."target" = old."id" and exists (select 1 from "default"."Folder" as o where o."id" = s."source")) then raise exception using errcode = ''23503'', message = ''deletion of ''''default::FeaturedArticle'''' is prohibited by link target policy of ''''default::Folder.items'''''' || '' ('' || old."id"::text || '')''; end if; return null; end';
create trigger "default::Folder.items.on target delete.default::FeaturedArticle" after delete on "default"."FeaturedArticle" for each row execute function "default"."default::Folder.items.on target delete.default::FeaturedArticle"();

-- step: create integrity trigger default::Folder.items.on target delete.default::Folder on default::Folder
create or replace function "default"."default::Folder.items.on target delete.default::Folder"() returns trigger language plpgsql set search_path = pg_catalog as '#variable_conflict use_column
begin if exists (select 1 from "default"."Folder.items" as s where s."target" = old."id" and exists (select 1 from "default"."Folder" as o where o."id" = s."source")) then raise exception using errcode = ''23503'', message = ''deletion of ''''default::Folder'''' is prohibited by link target policy of ''''default::Folder.items'''''' || '' ('' || old."id"::text || '')''; end if; return null; end';
create trigger "default::Folder.items.on target delete.default::Folder" after delete on "default"."Folder" for each row execute function "default"."default::Folder.items.on target delete.default::Folder"();

-- step: create integrity trigger default::Folder.items.target on default::Folder.items
create or replace function "default"."default::Folder.items.target"() returns trigger language plpgsql set search_path = pg_catalog as '#variable_conflict use_column
begin if new."target" is not null and not (exists (select 1 from "default"."Account" as t where t."id" = new."target") or exists (select 1 from "default"."Article" as t where t."id" = new."target") or exists (select 1 from "default"."FeaturedArticle" as t where t."id" = new."target") or exists (select 1 from "default"."Folder" as t where t."id" = new."target") or exists (select 1 from "default"."Gallery" as t where t."id" = new."target") or exists (select 1 from "default"."Image" as t where t."id" = new."target") or exists (select 1 from "default"."Video" as t where t."id" = new."target")) then raise exception using errcode = ''23503'', message = ''link ''''items'''' of ''''default::Folder'''' does not point to an object of type ''''default::Named'''''' || '' ('' || new."target"::text || '')''; end if; return null; end';
create trigger "default::Folder.items.target" after insert or update of "target" on "default"."Folder.items" for each row execute function "default"."default::Folder.items.target"();

-- step: create integrity trigger default::Folder.items.on target delete.default::Gallery on default::Gallery
create or replace function "default"."default::Folder.items.on target delete.default::Gallery"() returns trigger language plpgsql set search_path = pg_catalog as '#variable_conflict use_column
begin if exists (select 1 from "default"."Folder.items" as s where s."target" = old."id" and exists (select 1 from "default"."Folder" as o where o."id" = s."source")) then raise exception using errcode = ''23503'', message = ''deletion of ''''default::Gallery'''' is prohibited by link target policy of ''''default::Folder.items'''''' || '' ('' || old."id"::text || '')''; end if; return null; end';
create trigger "default::Folder.items.on target delete.default::Gallery" after delete on "default"."Gallery" for each row execute function "default"."default::Folder.items.on target delete.default::Gallery"();

-- step: create integrity trigger default::Folder.items.on target delete.default::Image on default::Image
create or replace function "default"."default::Folder.items.on target delete.default::Image"() returns trigger language plpgsql set search_path = pg_catalog as '#variable_conflict use_column
begin if exists (select 1 from "default"."Folder.items" as s where s."target" = old."id" and exists (select 1 from "default"."Folder" as o where o."id" = s."source")) then raise exception using errcode = ''23503'', message = ''deletion of ''''default::Image'''' is prohibited by link target policy of ''''default::Folder.items'''''' || '' ('' || old."id"::text || '')''; end if; return null; end';
create trigger "default::Folder.items.on target delete.default::Image" after delete on "default"."Image" for each row execute function "default"."default::Folder.items.on target delete.default::Image"();

-- step: create integrity trigger default::Folder.items.on target delete.default::Video on default::Video
create or replace function "default"."default::Folder.items.on target delete.default::Video"() returns trigger language plpgsql set search_path = pg_catalog as '#variable_conflict use_column
begin if exists (select 1 from "default"."Folder.items" as s where s."target" = old."id" and exists (select 1 from "default"."Folder" as o where o."id" = s."source")) then raise exception using errcode = ''23503'', message = ''deletion of ''''default::Video'''' is prohibited by link target policy of ''''default::Folder.items'''''' || '' ('' || old."id"::text || '')''; end if; return null; end';
create trigger "default::Folder.items.on target delete.default::Video" after delete on "default"."Video" for each row execute function "default"."default::Folder.items.on target delete.default::Video"();
