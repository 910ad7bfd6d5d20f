-- many default::User; params: none
select coalesce(json_agg("q6"."~json" order by "q6"."~o0"), '[]'::json)::text as "result"
from lateral (
  select "User5"."id" as "id", "User5"."__type__" as "__type__", "aj4"."j" -> (("f3"."~ord" - 1)::integer) as "~json", "f3"."~ord" as "~o0"
  from lateral (
    select "User1"."id" as "id", "User1"."__type__" as "__type__", '{"name":' || (coalesce(to_json("User1"."name")::text, 'null') || '}') as "~text"
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
    ) as "User1"
    where "User1"."name" = ('Elvis'::text)
  ) as "q2"
    join lateral (
      select case when ("q2"."~text"::json) is null then null else json_build_array("q2"."~text"::json) end as "j"
    ) as "aj4" on true
    join lateral unnest(case when "q2"."id" is null then null else ARRAY["q2"."id"]::uuid[] end) with ordinality as "f3"("value", "~ord") on true
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
    ) as "User5" on "User5"."id" = "f3"."value"
) as "q6"
