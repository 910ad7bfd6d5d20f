-- step: drop property default::Author.website
alter table "default"."Author" drop column "website";

-- step: create property default::Author.handle (std::str, required)
alter table "default"."Author" add column "handle" text not null default 'anonymous'::text;

-- step: create property default::Comment.edited (std::bool)
alter table "default"."Comment" add column "edited" boolean default false;

-- step: create property default::Comment.reactions (std::str, multi)
create table "default"."Comment.reactions" ("source" uuid not null, "value" text not null);
alter table "default"."Comment.reactions" add constraint "Comment.reactions.source.fk" foreign key ("source") references "default"."Comment" ("id") on delete cascade;
create index "Comment.reactions.source.index" on "default"."Comment.reactions" ("source");

-- step: alter property default::Tag.color: default '#cccccc'::text, required
alter table "default"."Tag" alter column "color" set default '#cccccc'::text;
update "default"."Tag" set "color" = '#cccccc'::text where "color" is null;
alter table "default"."Tag" alter column "color" set not null;

-- step: create property default::Tag.description (std::str)
alter table "default"."Tag" add column "description" text;

-- step: create index on (str_lower(.name)) on default::Tag
create index "Tag.expr.deb87fc2.index" on "default"."Tag" ((lower("name")));

-- check (data-loss) default::Author.website: dropping default::Author.website would delete its stored values
select 'default::Author.website' as "subject", count(*) as "values" from "default"."Author" where "website" is not null having count(*) > 0;
