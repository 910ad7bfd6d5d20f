-- step: create scalar default::PostStatus (enum Draft, Published, Archived)
create schema if not exists "default";
create domain "default"."PostStatus" as text constraint "PostStatus.enum" check (VALUE in ('Draft', 'Published', 'Archived'));

-- step: create scalar default::Slug (std::str)
create domain "default"."Slug" as text constraint "Slug.regexp" check (VALUE ~ ('^[a-z0-9]+(-[a-z0-9]+)*$'::text)) constraint "Slug.max_len_value" check ((char_length(VALUE)::bigint) <= (80::bigint));

-- step: create type default::Author
create table "default"."Author" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "created_at" timestamptz not null default clock_timestamp(), "updated_at" timestamptz, "email" text not null, "display_name" text not null, "bio" text, "website" text);

-- step: create type default::Comment
create table "default"."Comment" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "created_at" timestamptz not null default clock_timestamp(), "updated_at" timestamptz, "body" text not null, "post" uuid not null, "author" uuid, "reply_to" uuid);

-- step: create type default::Post
create table "default"."Post" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "created_at" timestamptz not null default clock_timestamp(), "updated_at" timestamptz, "title" text not null, "slug" "default"."Slug" not null, "body" text not null, "status" "default"."PostStatus" not null default ('Draft'::text)::"default"."PostStatus", "published_at" timestamptz, "author" uuid not null, "view_count" bigint not null default 0::bigint);

-- step: create type default::Tag
create table "default"."Tag" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "color" text default '#888888'::text);

-- step: create link default::Comment.post -> default::Post (required)
alter table "default"."Comment" add constraint "Comment.post.fk" foreign key ("post") references "default"."Post" ("id") on delete cascade;
create index "Comment.post.index" on "default"."Comment" ("post");

-- step: create link default::Comment.author -> default::Author
alter table "default"."Comment" add constraint "Comment.author.fk" foreign key ("author") references "default"."Author" ("id") on delete set null;
create index "Comment.author.index" on "default"."Comment" ("author");

-- step: create link default::Comment.reply_to -> default::Comment
alter table "default"."Comment" add constraint "Comment.reply_to.fk" foreign key ("reply_to") references "default"."Comment" ("id") on delete no action;
create index "Comment.reply_to.index" on "default"."Comment" ("reply_to");

-- step: create link default::Post.author -> default::Author (required)
alter table "default"."Post" add constraint "Post.author.fk" foreign key ("author") references "default"."Author" ("id") on delete cascade;
create index "Post.author.index" on "default"."Post" ("author");

-- step: create link default::Post.tags -> default::Tag (multi)
create table "default"."Post.tags" ("source" uuid not null, "target" uuid not null, constraint "Post.tags.pkey" primary key ("source", "target"));
alter table "default"."Post.tags" add constraint "Post.tags.source.fk" foreign key ("source") references "default"."Post" ("id") on delete cascade;
alter table "default"."Post.tags" add constraint "Post.tags.target.fk" foreign key ("target") references "default"."Tag" ("id") on delete no action;
create index "Post.tags.target.index" on "default"."Post.tags" ("target");

-- step: create constraint std::max_len_value(320) on default::Author.email
alter table "default"."Author" add constraint "Author.email.max_len_value" check ((char_length("email")::bigint) <= (320::bigint));

-- step: create constraint std::max_len_value(10000) on default::Comment.body
alter table "default"."Comment" add constraint "Comment.body.max_len_value" check ((char_length("body")::bigint) <= (10000::bigint));

-- step: create constraint std::min_len_value(1) on default::Post.title
alter table "default"."Post" add constraint "Post.title.min_len_value" check ((char_length("title")::bigint) >= (1::bigint));

-- step: create constraint std::max_len_value(200) on default::Post.title
alter table "default"."Post" add constraint "Post.title.max_len_value" check ((char_length("title")::bigint) <= (200::bigint));

-- step: create constraint std::min_value(0) on default::Post.view_count
alter table "default"."Post" add constraint "Post.view_count.min_value" check ("view_count" >= (0::bigint));

-- step: create constraint std::expression on (.status != <PostStatus>'Published' or exists .published_at) on default::Post
alter table "default"."Post" add constraint "Post.expression.9b48f26f" check (("status" <> (('Published'::text)::"default"."PostStatus")) or ("published_at" is not null));

-- step: create constraint std::exclusive on default::Author.email
create unique index "Author.email.exclusive" on "default"."Author" ("email");

-- step: create index on (str_lower(.display_name)) on default::Author
create index "Author.expr.3c6703d7.index" on "default"."Author" ((lower("display_name")));

-- step: create constraint std::exclusive on default::Post.slug
create unique index "Post.slug.exclusive" on "default"."Post" ("slug");

-- step: create index on (.published_at) on default::Post
create index "Post.published_at.index" on "default"."Post" ("published_at");

-- step: create index on ((.status, .published_at)) on default::Post
create index "Post.status,published_at.index" on "default"."Post" ("status", "published_at");

-- step: create constraint std::exclusive on default::Tag.name
create unique index "Tag.name.exclusive" on "default"."Tag" ("name");

-- step: create abstract type default::HasTimestamps (view over default::Author, default::Comment, default::Post)
create view "default"."HasTimestamps" as select "id", "created_at", "updated_at", 'default::Author'::text as "__type__" from "default"."Author" union all select "id", "created_at", "updated_at", 'default::Comment'::text as "__type__" from "default"."Comment" union all select "id", "created_at", "updated_at", 'default::Post'::text as "__type__" from "default"."Post";
