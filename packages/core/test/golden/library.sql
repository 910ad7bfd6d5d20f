-- step: create type default::Book
create schema if not exists "default";
create table "default"."Book" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "title" text not null, "isbn" text not null, "published_year" smallint not null, "copies" bigint not null default case when ((1::bigint) < (1::bigint)) is null then null::bigint when (1::bigint) < (1::bigint) then 1::bigint else case when ((1::bigint) > (100::bigint)) is null then null::bigint when (1::bigint) > (100::bigint) then 100::bigint else 1::bigint end end);

-- step: create type default::Loan
create table "default"."Loan" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "book" uuid not null, "member" uuid not null, "loaned_at" timestamptz not null default clock_timestamp(), "days" bigint not null default 14::bigint, "returned_at" timestamptz);

-- step: create type default::Member
create table "default"."Member" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "card_number" text not null, "name" text not null, "max_loans" bigint not null default floor(((14::bigint)::numeric) / ((2::bigint)::numeric))::bigint);

-- step: create type default::Writer
create table "default"."Writer" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "born" smallint);

-- step: create link default::Book.authors -> default::Writer (multi)
create table "default"."Book.authors" ("source" uuid not null, "target" uuid not null, constraint "Book.authors.pkey" primary key ("source", "target"));
alter table "default"."Book.authors" add constraint "Book.authors.source.fk" foreign key ("source") references "default"."Book" ("id") on delete cascade;
alter table "default"."Book.authors" add constraint "Book.authors.target.fk" foreign key ("target") references "default"."Writer" ("id") on delete no action;
create index "Book.authors.target.index" on "default"."Book.authors" ("target");

-- step: create link default::Loan.book -> default::Book (required)
alter table "default"."Loan" add constraint "Loan.book.fk" foreign key ("book") references "default"."Book" ("id") on delete no action;
create index "Loan.book.index" on "default"."Loan" ("book");

-- step: create link default::Loan.member -> default::Member (required)
alter table "default"."Loan" add constraint "Loan.member.fk" foreign key ("member") references "default"."Member" ("id") on delete cascade;
create index "Loan.member.index" on "default"."Loan" ("member");

-- step: create constraint std::expression on (__subject__ = clamp(__subject__, 0, 100)) on default::Book.copies
alter table "default"."Book" add constraint "Book.copies.expression.cd32e60f" check ("copies" = (case when ("copies" < (0::bigint)) is null then null::bigint when "copies" < (0::bigint) then 0::bigint else case when ("copies" > (100::bigint)) is null then null::bigint when "copies" > (100::bigint) then 100::bigint else "copies" end end));

-- step: create constraint std::exclusive on (normalize(__subject__)) on default::Book.isbn
create unique index "Book.isbn.exclusive.36008d18" on "default"."Book" ((lower(btrim("isbn"))));

-- step: create index on (normalize(.title)) on default::Book
create index "Book.expr.03c80330.index" on "default"."Book" ((lower(btrim("title"))));

-- step: create constraint std::exclusive on default::Member.card_number
create unique index "Member.card_number.exclusive" on "default"."Member" ("card_number");

-- step: create function default::clamp(std::int64, std::int64, std::int64)

-- step: create function default::default_loan_days()

-- step: create function default::normalize(std::str)
