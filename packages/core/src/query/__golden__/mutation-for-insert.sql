-- atLeastOne default::Status; params: none
with "insert_src2" as materialized (
  select "svc_meta"."uuid_generate_v7"() as "id", "q3"."v" as "~it0", "q3"."v" as "c0"
  from lateral (
    (
      select "v" as "v", "~json" as "~json", 0 as "~u1", 0 as "~u2"
      from (
        select 'One'::text as "v", to_json('One'::text) as "~json"
      ) as "b0"
    )
    union all
    (
      select "v" as "v", "~json" as "~json", 1 as "~u1", 0 as "~u2"
      from (
        select 'Two'::text as "v", to_json('Two'::text) as "~json"
      ) as "b1"
    )
  ) as "q3"
),
"insert4" as (
  insert into "default"."Status" ("id", "name")
  select "s"."id", "s"."c0"
  from "insert_src2" as "s"
  returning *
)
select coalesce('[' || (string_agg(coalesce("q7"."~text", 'null'), ', ' order by "q7"."~o0", "q7"."~o1") || ']'), '[]') as "result"
from lateral (
  select "w6"."id" as "id", 'default::Status' as "__type__", ('{"id":' || coalesce(to_json("w6"."id")::text, 'null')) || (',"name":' || (coalesce(to_json("w6"."name")::text, 'null') || '}')) as "~text", "q1"."v" as "~c0", "q1"."~u1" as "~o0", "q1"."~u2" as "~o1"
  from lateral (
    (
      select "v" as "v", "~json" as "~json", 0 as "~u1", 0 as "~u2"
      from (
        select 'One'::text as "v", to_json('One'::text) as "~json"
      ) as "b0"
    )
    union all
    (
      select "v" as "v", "~json" as "~json", 1 as "~u1", 0 as "~u2"
      from (
        select 'Two'::text as "v", to_json('Two'::text) as "~json"
      ) as "b1"
    )
  ) as "q1"
    join "insert_src2" as "ws5" on "ws5"."~it0" is not distinct from "q1"."v"
    join "insert4" as "w6" on "w6"."id" = "ws5"."id"
) as "q7"
