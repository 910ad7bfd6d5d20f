-- step: drop view of default::Named (recreated)
drop view "default"."Named";

-- step: drop view of default::Publishable (recreated)
drop view "default"."Publishable";

-- step: drop view of default::Timestamped (recreated)
drop view "default"."Timestamped";

-- step: drop integrity trigger default::Folder.items.target on default::Folder.items
drop trigger if exists "default::Folder.items.target" on "default"."Folder.items";
drop function if exists "default"."default::Folder.items.target"();

-- step: create type default::Podcast
create table "default"."Podcast" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "slug" text, "created_at" timestamptz not null default clock_timestamp(), "modified_at" timestamptz, "published" boolean not null default false, "audio_url" text not null);

-- step: create property default::Account.slug (std::str)
alter table "default"."Account" add column "slug" text;

-- step: create property default::Article.slug (std::str)
alter table "default"."Article" add column "slug" text;

-- step: create property default::Article.label (std::str)
alter table "default"."Article" add column "label" text;

-- step: create property default::Article.tags (std::str, multi)
create table "default"."Article.tags" ("source" uuid not null, "value" text not null);
alter table "default"."Article.tags" add constraint "Article.tags.source.fk" foreign key ("source") references "default"."Article" ("id") on delete cascade;
create index "Article.tags.source.index" on "default"."Article.tags" ("source");

-- step: create property default::FeaturedArticle.slug (std::str)
alter table "default"."FeaturedArticle" add column "slug" text;

-- step: create property default::FeaturedArticle.label (std::str)
alter table "default"."FeaturedArticle" add column "label" text;

-- step: create property default::FeaturedArticle.tags (std::str, multi)
create table "default"."FeaturedArticle.tags" ("source" uuid not null, "value" text not null);
alter table "default"."FeaturedArticle.tags" add constraint "FeaturedArticle.tags.source.fk" foreign key ("source") references "default"."FeaturedArticle" ("id") on delete cascade;
create index "FeaturedArticle.tags.source.index" on "default"."FeaturedArticle.tags" ("source");

-- step: create property default::Folder.slug (std::str)
alter table "default"."Folder" add column "slug" text;

-- step: create property default::Gallery.slug (std::str)
alter table "default"."Gallery" add column "slug" text;

-- step: create property default::Image.slug (std::str)
alter table "default"."Image" add column "slug" text;

-- step: create property default::Image.label (std::str)
alter table "default"."Image" add column "label" text;

-- step: create property default::Image.tags (std::str, multi)
create table "default"."Image.tags" ("source" uuid not null, "value" text not null);
alter table "default"."Image.tags" add constraint "Image.tags.source.fk" foreign key ("source") references "default"."Image" ("id") on delete cascade;
create index "Image.tags.source.index" on "default"."Image.tags" ("source");

-- step: create property default::Video.slug (std::str)
alter table "default"."Video" add column "slug" text;

-- step: create constraint std::expression on (.published or not exists .modified_at or .modified_at >= .created_at) on default::Podcast
alter table "default"."Podcast" add constraint "Podcast.expression.b519b16b" check (case when (("published" or (not ("modified_at" is not null))) is null) or (("modified_at" >= "created_at") is null) then null::boolean else ("published" or (not ("modified_at" is not null))) or ("modified_at" >= "created_at") end);

-- step: create index on (.name) on default::Podcast
create index "Podcast.name.index" on "default"."Podcast" ("name");

-- step: create view of default::Named over default::Account, default::Article, default::FeaturedArticle, default::Folder, default::Gallery, default::Image, default::Podcast, default::Video
create view "default"."Named" as select "id", "name", "slug", 'default::Account'::text as "__type__" from "default"."Account" union all select "id", "name", "slug", 'default::Article'::text as "__type__" from "default"."Article" union all select "id", "name", "slug", 'default::FeaturedArticle'::text as "__type__" from "default"."FeaturedArticle" union all select "id", "name", "slug", 'default::Folder'::text as "__type__" from "default"."Folder" union all select "id", "name", "slug", 'default::Gallery'::text as "__type__" from "default"."Gallery" union all select "id", "name", "slug", 'default::Image'::text as "__type__" from "default"."Image" union all select "id", "name", "slug", 'default::Podcast'::text as "__type__" from "default"."Podcast" union all select "id", "name", "slug", 'default::Video'::text as "__type__" from "default"."Video";

-- step: create view of default::Publishable over default::Article, default::FeaturedArticle, default::Gallery, default::Podcast, default::Video
create view "default"."Publishable" as select "id", "name", "slug", "created_at", "modified_at", "published", 'default::Article'::text as "__type__" from "default"."Article" union all select "id", "name", "slug", "created_at", "modified_at", "published", 'default::FeaturedArticle'::text as "__type__" from "default"."FeaturedArticle" union all select "id", "name", "slug", "created_at", "modified_at", "published", 'default::Gallery'::text as "__type__" from "default"."Gallery" union all select "id", "name", "slug", "created_at", "modified_at", "published", 'default::Podcast'::text as "__type__" from "default"."Podcast" union all select "id", "name", "slug", "created_at", "modified_at", "published", 'default::Video'::text as "__type__" from "default"."Video";

-- step: create abstract type default::Taggable (view over default::Article, default::FeaturedArticle, default::Image)
create view "default"."Taggable" as select "id", "label", 'default::Article'::text as "__type__" from "default"."Article" union all select "id", "label", 'default::FeaturedArticle'::text as "__type__" from "default"."FeaturedArticle" union all select "id", "label", 'default::Image'::text as "__type__" from "default"."Image";

-- step: create view of default::Timestamped over default::Article, default::FeaturedArticle, default::Gallery, default::Podcast, default::Video
create view "default"."Timestamped" as select "id", "created_at", "modified_at", 'default::Article'::text as "__type__" from "default"."Article" union all select "id", "created_at", "modified_at", 'default::FeaturedArticle'::text as "__type__" from "default"."FeaturedArticle" union all select "id", "created_at", "modified_at", 'default::Gallery'::text as "__type__" from "default"."Gallery" union all select "id", "created_at", "modified_at", 'default::Podcast'::text as "__type__" from "default"."Podcast" union all select "id", "created_at", "modified_at", 'default::Video'::text as "__type__" from "default"."Video";

-- step: create integrity trigger default::Folder.items.target on default::Folder.items
create or replace function "default"."default::Folder.items.target"() returns trigger language plpgsql set search_path = pg_catalog as '#variable_conflict use_column
begin if new."target" is not null and not (exists (select 1 from "default"."Account" as t where t."id" = new."target") or exists (select 1 from "default"."Article" as t where t."id" = new."target") or exists (select 1 from "default"."FeaturedArticle" as t where t."id" = new."target") or exists (select 1 from "default"."Folder" as t where t."id" = new."target") or exists (select 1 from "default"."Gallery" as t where t."id" = new."target") or exists (select 1 from "default"."Image" as t where t."id" = new."target") or exists (select 1 from "default"."Podcast" as t where t."id" = new."target") or exists (select 1 from "default"."Video" as t where t."id" = new."target")) then raise exception using errcode = ''23503'', message = ''link ''''items'''' of ''''default::Folder'''' does not point to an object of type ''''default::Named'''''' || '' ('' || new."target"::text || '')''; end if; return null; end';
create trigger "default::Folder.items.target" after insert or update of "target" on "default"."Folder.items" for each row execute function "default"."default::Folder.items.target"();

-- step: create integrity trigger default::Folder.items.on target delete.default::Podcast on default::Podcast
create or replace function "default"."default::Folder.items.on target delete.default::Podcast"() returns trigger language plpgsql set search_path = pg_catalog as '#variable_conflict use_column
begin if exists (select 1 from "default"."Folder.items" as s where s."target" = old."id" and exists (select 1 from "default"."Folder" as o where o."id" = s."source")) then raise exception using errcode = ''23503'', message = ''deletion of ''''default::Podcast'''' is prohibited by link target policy of ''''default::Folder.items'''''' || '' ('' || old."id"::text || '')''; end if; return null; end';
create trigger "default::Folder.items.on target delete.default::Podcast" after delete on "default"."Podcast" for each row execute function "default"."default::Folder.items.on target delete.default::Podcast"();

-- step: alter type default::Article

-- step: alter type default::FeaturedArticle

-- step: alter type default::Image

-- step: create property default::Named.slug
