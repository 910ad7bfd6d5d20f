-- atMostOne default::Issue; params: none
with "update_src1" as materialized (
  select "Issue2"."id" as "id", 'default::Issue' as "__type__", 10::bigint as "c0"
  from "default"."Issue" as "Issue2"
  where "Issue2"."number" = ('1'::text)
),
"update3" as (
  update "default"."Issue" as "t"
  set "time_estimate" = "s"."c0"
  from "update_src1" as "s"
  where "t"."id" = "s"."id"
  returning "t".*
)
select coalesce(json_agg("q7"."~json"), '[]'::json)::text as "result"
from (
  select
) as "one"
  left join lateral (
  select "w4"."id" as "id", 'default::Issue' as "__type__", json_build_object('name', to_json("w4"."name"), 'time_estimate', to_json("w4"."time_estimate"), 'owner', (
    select json_agg("e6"."~json")
    from (
      select "User5"."id" as "id", "User5"."__type__" as "__type__", json_build_object('name', to_json("User5"."name")) as "~json"
      from (
        (
          select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", "level" as "level", 'default::Admin' as "__type__"
          from "default"."Admin" as "Admin"
        )
        union all
        (
          select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", null::bigint as "level", 'default::User' as "__type__"
          from "default"."User" as "User"
        )
      ) as "User5"
      where "User5"."id" = "w4"."owner"
    ) as "e6"
  )) as "~json"
  from "update3" as "w4"
) as "q7" on true
where "q7"."id" is not null
