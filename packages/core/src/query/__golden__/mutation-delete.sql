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
select coalesce('[' || (string_agg(((('{"id":' || coalesce(to_json("w5"."id")::text, 'null')) || (',"name":' || (coalesce(to_json("w5"."name")::text, 'null') || ',"owner":'))) || ((coalesce(to_json("w5"."owner")::text, 'null') || (',"body":' || coalesce(to_json("w5"."body")::text, 'null'))) || (',"number":' || (coalesce(to_json("w5"."number")::text, 'null') || ',"status":')))) || (((coalesce(to_json("w5"."status")::text, 'null') || (',"watchers":' || coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    select "jr"."target" as "v"
    from (
      select "source", "target"
      from "default"."Issue.watchers"
    ) as "jr"
    where "jr"."source" = "w5"."id"
  ) as "r"
))::text, 'null'))) || (',"time_estimate":' || (coalesce(to_json("w5"."time_estimate")::text, 'null') || ',"tags":'))) || ((coalesce(to_json("w5"."tags")::text, 'null') || (',"due_date":' || coalesce(to_json((to_json("w5"."due_date" at time zone 'UTC') #>> '{}') || '+00:00')::text, 'null'))) || (',"related_to":' || (coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    select "jr"."target" as "v"
    from (
      select "source", "target"
      from "default"."Issue.related_to"
    ) as "jr"
    where "jr"."source" = "w5"."id"
  ) as "r"
))::text, 'null') || '}')))), ', ') || ']'), '[]') as "result"
from "delete4" as "w5"
