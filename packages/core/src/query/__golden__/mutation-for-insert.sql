-- atLeastOne default::Status; params: none
with "insert_src4" as materialized (
  select "svc_meta"."uuid_generate_v7"() as "id", "q6"."v" as "~it0", "q6"."v" as "c0"
  from lateral (
    select "un5".*, row_number() over (order by "un5"."~u1", "un5"."~u2") as "~ord"
    from (
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
    ) as "un5"
  ) as "q6"
),
"insert7" as (
  insert into "default"."Status" ("id", "name")
  select "s"."id", "s"."c0"
  from "insert_src4" as "s"
  returning *
)
select coalesce(json_agg("q10"."~json" order by "q10"."~ord"), '[]'::json)::text as "result"
from lateral (
  select "w9"."id" as "id", 'default::Status' as "__type__", json_build_object('id', "w9"."id", 'name', to_json("w9"."name")) as "~json", "q3"."v" as "~c0", row_number() over (order by "q3"."~ord") as "~ord"
  from lateral (
    select "q2"."v" as "v", "q2"."~json" as "~json", row_number() over (order by "q2"."~ord") as "~ord"
    from lateral (
      select "un1".*, row_number() over (order by "un1"."~u1", "un1"."~u2") as "~ord"
      from (
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
      ) as "un1"
    ) as "q2"
  ) as "q3"
    join "insert_src4" as "ws8" on "ws8"."~it0" is not distinct from "q3"."v"
    join "insert7" as "w9" on "w9"."id" = "ws8"."id"
) as "q10"
