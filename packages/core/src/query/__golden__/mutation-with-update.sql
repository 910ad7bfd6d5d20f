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
select coalesce('[' || (string_agg(coalesce("q8"."~text", 'null'), ', ') || ']'), '[]') as "result"
from (
  select
) as "one"
  left join lateral (
    select "w5"."id" as "id", 'default::Issue' as "__type__", ('{"name":' || (coalesce(to_json("w5"."name")::text, 'null') || ',"time_estimate":')) || ((coalesce("w5"."time_estimate"::text, 'null') || ',"owner":') || (coalesce((
      select '[' || (string_agg(coalesce("e7"."~text", 'null'), ', ') || ']')
      from (
        select "User6"."id" as "id", "User6"."__type__" as "__type__", '{"name":' || (coalesce(to_json("User6"."name")::text, 'null') || '}') as "~text", "w5"."owner@note" as "note"
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
        ) as "User6"
        where "User6"."id" = "w5"."owner"
      ) as "e7"
    ), 'null') || '}')) as "~text"
    from "update3" as "w5"
  ) as "q8" on true
where "q8"."id" is not null
