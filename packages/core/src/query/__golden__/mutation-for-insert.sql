-- atLeastOne default::Status; params: none
with "insert_src3" as materialized (
  select "svc_meta"."uuid_generate_v7"() as "id", "q5"."v" as "~it0", "q5"."v" as "c0"
  from lateral (
    select "un4".*, row_number() over (order by "un4"."~u1", "un4"."~u2") as "~ord"
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
    ) as "un4"
  ) as "q5"
),
"insert6" as (
  insert into "default"."Status" ("id", "name")
  select "s"."id", "s"."c0"
  from "insert_src3" as "s"
  returning *
)
select coalesce(json_agg("q9"."~json" order by "q9"."~ord"), '[]'::json)::text as "result"
from lateral (
  select "w8"."id" as "id", 'default::Status' as "__type__", json_build_object('id', "w8"."id", 'name', to_json("w8"."name")) as "~json", "q2"."v" as "~c0", row_number() over (order by "q2"."~ord") as "~ord"
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
    join "insert_src3" as "ws7" on "ws7"."~it0" is not distinct from "q2"."v"
    join "insert6" as "w8" on "w8"."id" = "ws7"."id"
) as "q9"
