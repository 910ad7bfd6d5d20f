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
select coalesce(json_agg(json_build_object('id', "w5"."id", 'name', "w5"."name", 'owner', "w5"."owner", 'body', "w5"."body", 'number', "w5"."number", 'status', "w5"."status", 'watchers', coalesce((
  select json_agg(to_json("r"."v"))
  from (
    select "jr"."target" as "v"
    from (
      select "source", "target"
      from "default"."Issue.watchers"
    ) as "jr"
    where "jr"."source" = "w5"."id"
  ) as "r"
), '[]'::json), 'time_estimate', "w5"."time_estimate", 'tags', "w5"."tags", 'due_date', (to_json("w5"."due_date" at time zone 'UTC') #>> '{}') || '+00:00', 'related_to', coalesce((
  select json_agg(to_json("r"."v"))
  from (
    select "jr"."target" as "v"
    from (
      select "source", "target"
      from "default"."Issue.related_to"
    ) as "jr"
    where "jr"."source" = "w5"."id"
  ) as "r"
), '[]'::json))), '[]'::json)::text as "result"
from "delete4" as "w5"
