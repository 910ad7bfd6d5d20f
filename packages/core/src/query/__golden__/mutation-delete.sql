-- atMostOne default::Issue; params: none
with "delete_src1" as materialized (
  select "Issue2"."id" as "id", 'default::Issue' as "__type__"
  from "default"."Issue" as "Issue2"
    join (
      (
        select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", "level" as "level", 'default::Admin' as "__type__"
        from "default"."Admin" as "Admin"
      )
      union all
      (
        select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", null::bigint as "level", 'default::User' as "__type__"
        from "default"."User" as "User"
      )
    ) as "User3" on "User3"."id" = "Issue2"."owner"
  where "User3"."name" = ('Elvis'::text)
  order by "Issue2"."number" desc nulls last
  limit 1::bigint
),
"delete4" as (
  delete from "default"."Issue" as "t"
  using "delete_src1" as "s"
  where "t"."id" = "s"."id"
  returning "t".*
)
select coalesce(json_agg((
  select to_json("~row".*)
  from (
    select "w5"."id" as "id", "w5"."name" as "name", "w5"."owner" as "owner", "w5"."body" as "body", "w5"."number" as "number", "w5"."status" as "status", coalesce((
      select json_agg(to_json("r"."v"))
      from (
        select "jr"."target" as "v"
        from (
          select "source", "target"
          from "default"."Issue.watchers"
        ) as "jr"
        where "jr"."source" = "w5"."id"
      ) as "r"
    ), '[]'::json) as "watchers", "w5"."time_estimate" as "time_estimate", "w5"."tags" as "tags", (to_json("w5"."due_date" at time zone 'UTC') #>> '{}') || '+00:00' as "due_date", coalesce((
      select json_agg(to_json("r"."v"))
      from (
        select "jr"."target" as "v"
        from (
          select "source", "target"
          from "default"."Issue.related_to"
        ) as "jr"
        where "jr"."source" = "w5"."id"
      ) as "r"
    ), '[]'::json) as "related_to"
  ) as "~row"
)), '[]'::json)::text as "result"
from "delete4" as "w5"
