-- step: create type default::Note
create schema if not exists "default";
create table "default"."Note" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "title" text not null, "body" text, "owner" uuid not null, "shared" boolean not null default false);

-- step: create type default::Tenant
create table "default"."Tenant" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "plan" text not null default 'free'::text);

-- step: create type default::User
create table "default"."User" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "email" text not null, "tenant" uuid not null, "is_admin" boolean not null default false);

-- step: create link default::Note.owner -> default::User (required)
alter table "default"."Note" add constraint "Note.owner.fk" foreign key ("owner") references "default"."User" ("id") on delete cascade;
create index "Note.owner.index" on "default"."Note" ("owner");

-- step: create link default::User.tenant -> default::Tenant (required)
alter table "default"."User" add constraint "User.tenant.fk" foreign key ("tenant") references "default"."Tenant" ("id") on delete no action;
create index "User.tenant.index" on "default"."User" ("tenant");

-- step: create constraint std::exclusive on default::Tenant.name
create unique index "Tenant.name.exclusive" on "default"."Tenant" ("name");

-- step: create constraint std::exclusive on default::User.email
create unique index "User.email.exclusive" on "default"."User" ("email");

-- step: create access policy owner_all on default::Note (allow select, insert, update read, update write, delete)

-- step: create access policy shared_read on default::Note (allow select)

-- step: create access policy no_writes_when_read_only on default::Note (deny insert, update read, update write, delete)

-- step: create access policy same_tenant on default::User (allow select)

-- step: create access policy self_update on default::User (allow update read, update write)

-- step: create access policy admins_insert on default::User (allow insert)

-- step: create global default::current_tenant

-- step: create global default::current_user

-- step: create global default::read_only
