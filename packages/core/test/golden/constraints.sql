-- step: create scalar default::Code (std::str)
create schema if not exists "default";
create domain "default"."Code" as text constraint "Code.regexp" check (VALUE ~ ('^[A-Z]{3}$'::text));

-- step: create scalar default::Level (enum Bronze, Silver, Gold)
create domain "default"."Level" as text constraint "Level.enum" check (VALUE in ('Bronze', 'Silver', 'Gold'));

-- step: create scalar default::Percent (std::int16)
create domain "default"."Percent" as smallint constraint "Percent.min_value" check ((VALUE::bigint) >= (0::bigint)) constraint "Percent.max_value" check ((VALUE::bigint) <= (100::bigint));

-- step: create type default::Sample
create table "default"."Sample" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "amount" bigint not null, "score" bigint, "ratio" double precision, "pct" "default"."Percent", "code" "default"."Code", "level" "default"."Level", "kind" text, "age" smallint, "email" text, "pcts" "default"."Percent"[], "starts_at" timestamptz, "ends_at" timestamptz, "deleted" boolean, "external_id" text);

-- step: create property default::Sample.codes (default::Code, multi)
create table "default"."Sample.codes" ("source" uuid not null, "value" "default"."Code" not null);
alter table "default"."Sample.codes" add constraint "Sample.codes.source.fk" foreign key ("source") references "default"."Sample" ("id") on delete cascade;
create index "Sample.codes.source.index" on "default"."Sample.codes" ("source");

-- step: create property default::Sample.notes (std::str, multi)
create table "default"."Sample.notes" ("source" uuid not null, "value" text not null);
alter table "default"."Sample.notes" add constraint "Sample.notes.source.fk" foreign key ("source") references "default"."Sample" ("id") on delete cascade;
create index "Sample.notes.source.index" on "default"."Sample.notes" ("source");

-- step: create constraint std::min_len_value(1) on default::Sample.name
alter table "default"."Sample" add constraint "Sample.name.min_len_value" check ((char_length("name")::bigint) >= (1::bigint));

-- step: create constraint std::max_len_value(64) on default::Sample.name
alter table "default"."Sample" add constraint "Sample.name.max_len_value" check ((char_length("name")::bigint) <= (64::bigint));

-- step: create constraint default::positive on default::Sample.amount
alter table "default"."Sample" add constraint "Sample.amount.positive" check ("amount" > (0::bigint));

-- step: create constraint default::within(1, 10) on default::Sample.score
alter table "default"."Sample" add constraint "Sample.score.within" check (("score" >= (1::bigint)) and ("score" <= (10::bigint)));

-- step: create constraint std::min_ex_value(0) on default::Sample.ratio
alter table "default"."Sample" add constraint "Sample.ratio.min_ex_value" check ("ratio" > ((0::bigint)::double precision));

-- step: create constraint std::max_ex_value(1) on default::Sample.ratio
alter table "default"."Sample" add constraint "Sample.ratio.max_ex_value" check ("ratio" < ((1::bigint)::double precision));

-- step: create constraint std::one_of('a', 'b', 'c') on default::Sample.kind
alter table "default"."Sample" add constraint "Sample.kind.one_of" check ("kind" in ('a'::text, 'b'::text, 'c'::text));

-- step: create constraint std::expression on (__subject__ >= 0 and __subject__ < 200) on default::Sample.age
alter table "default"."Sample" add constraint "Sample.age.expression.7e1c8e39" check ((("age"::bigint) >= (0::bigint)) and (("age"::bigint) < (200::bigint)));

-- step: create constraint std::max_len_value(140) on default::Sample.notes
alter table "default"."Sample.notes" add constraint "Sample.notes.max_len_value" check ((char_length("value")::bigint) <= (140::bigint));

-- step: create constraint std::expression on (.ends_at > .starts_at) on default::Sample
alter table "default"."Sample" add constraint "Sample.expression.32b4a8a8" check ("ends_at" > "starts_at");

-- step: create constraint std::exclusive on default::Sample.name
create unique index "Sample.name.exclusive" on "default"."Sample" ("name");

-- step: create constraint std::exclusive on (str_lower(__subject__)) on default::Sample.email
create unique index "Sample.email.exclusive.f4ce9c50" on "default"."Sample" ((lower("email")));

-- step: create constraint std::exclusive on ((.code, .level)) on default::Sample
create unique index "Sample.exclusive.152c2de3" on "default"."Sample" ("code", "level");

-- step: create constraint std::exclusive on (.external_id) on default::Sample
create unique index "Sample.exclusive.5a8cd491" on "default"."Sample" ("external_id") where not coalesce("deleted", false);

-- step: create abstract constraint default::positive

-- step: create abstract constraint default::within
