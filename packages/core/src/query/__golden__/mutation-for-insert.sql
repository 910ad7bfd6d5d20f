-- atLeastOne default::Status; params: none
with "insert_src4" as materialized (
  select "svc_meta"."uuid_generate_v7"() as "id", "q7"."v" as "~it0", "q7"."~dup" as "~dup0", "q7"."v" as "c0"
  from lateral (
    select "it6".*, row_number() over (partition by "it6"."v"::text) as "~dup"
    from (
      select "q5"."v" as "v", "q5"."~json" as "~json", "q5"."~u1" as "~o0", "q5"."~u2" as "~o1"
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
      ) as "q5"
    ) as "it6"
  ) as "q7"
),
"insert8" as (
  insert into "default"."Status" ("id", "name")
  select "s"."id", "s"."c0"
  from "insert_src4" as "s"
  returning *
)
select coalesce('[' || (string_agg(coalesce("q11"."~text", 'null'), ', ' order by "q11"."~o0", "q11"."~o1") || ']'), '[]') as "result"
from lateral (
  select "w10"."id" as "id", 'default::Status' as "__type__", ('{"id":' || coalesce(to_json("w10"."id")::text, 'null')) || (',"name":' || (coalesce(to_json("w10"."name")::text, 'null') || '}')) as "~text", "q3"."v" as "~c0", "q3"."~o0" as "~o0", "q3"."~o1" as "~o1"
  from lateral (
    select "it2".*, row_number() over (partition by "it2"."v"::text) as "~dup"
    from (
      select "q1"."v" as "v", "q1"."~json" as "~json", "q1"."~u1" as "~o0", "q1"."~u2" as "~o1"
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
    ) as "it2"
  ) as "q3"
    join "insert_src4" as "ws9" on ("ws9"."~it0" is not distinct from "q3"."v") and ("ws9"."~dup0" = "q3"."~dup")
    join "insert8" as "w10" on "w10"."id" = "ws9"."id"
) as "q11"
