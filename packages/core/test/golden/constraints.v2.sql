-- step: drop constraint default::within(1, 10) on default::Sample.score
alter table "default"."Sample" drop constraint "Sample.score.within";

-- step: drop constraint std::one_of('a', 'b', 'c') on default::Sample.kind
alter table "default"."Sample" drop constraint "Sample.kind.one_of";

-- step: drop constraint std::expression on (__subject__ >= 0 and __subject__ < 200) on default::Sample.age
alter table "default"."Sample" drop constraint "Sample.age.expression.7e1c8e39";

-- step: alter scalar default::Level (enum Bronze, Silver, Gold, Platinum)
alter domain "default"."Level" drop constraint "Level.enum";
alter domain "default"."Level" add constraint "Level.enum" check (VALUE in ('Bronze', 'Silver', 'Gold', 'Platinum'));

-- step: alter scalar default::Percent (std::int16)
alter table "default"."Sample" alter column "pcts" type smallint[] using "pcts"::smallint[];
alter domain "default"."Percent" drop constraint "Percent.max_value";
alter domain "default"."Percent" add constraint "Percent.max_value" check ((VALUE::bigint) <= (1000::bigint));
alter table "default"."Sample" alter column "pcts" type "default"."Percent"[] using "pcts"::"default"."Percent"[];

-- step: create property default::Sample.nickname (std::str)
alter table "default"."Sample" add column "nickname" text;

-- step: create constraint default::within(0, 100) on default::Sample.score
alter table "default"."Sample" add constraint "Sample.score.within" check (("score" >= (0::bigint)) and ("score" <= (100::bigint)));

-- step: create constraint std::max_len_value(32) on default::Sample.nickname
alter table "default"."Sample" add constraint "Sample.nickname.max_len_value" check ((char_length("nickname")::bigint) <= (32::bigint));

-- step: create constraint std::expression on (__subject__ >= 0 and __subject__ < 150) on default::Sample.age
alter table "default"."Sample" add constraint "Sample.age.expression.ddfcdb90" check ((("age"::bigint) >= (0::bigint)) and (("age"::bigint) < (150::bigint)));

-- check (violation) default::Sample.score: stored data breaks the new constraint default::within(0, 100) on default::Sample.score
select "id" from "default"."Sample" where not (("score" >= (0::bigint)) and ("score" <= (100::bigint))) order by "id" limit 20;

-- check (violation) default::Sample.age: stored data breaks the new constraint std::expression on (__subject__ >= 0 and __subject__ < 150) on default::Sample.age
select "id" from "default"."Sample" where not ((("age"::bigint) >= (0::bigint)) and (("age"::bigint) < (150::bigint))) order by "id" limit 20;

-- check (violation) default::Level: stored values break the new definition of default::Level
select 'default::Sample.level' as "subject", "level"::text as "value" from "default"."Sample" where not ("level" in ('Bronze', 'Silver', 'Gold', 'Platinum')) limit 20;

-- check (violation) default::Percent: stored values break the new definition of default::Percent
select 'default::Sample.pct' as "subject", "pct"::text as "value" from "default"."Sample" where not (("pct"::bigint) <= (1000::bigint)) limit 20;
