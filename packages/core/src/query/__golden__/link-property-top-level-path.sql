-- many default::User; params: none
select coalesce('[' || (string_agg(coalesce("q4"."~text", 'null'), ', ' order by "q4"."~o0" asc) || ']'), '[]') as "result"
from lateral (
  select "User3"."id" as "id", "User3"."__type__" as "__type__", ('{"name":' || coalesce(to_json("User3"."name")::text, 'null')) || (',"@since":' || (coalesce("j2"."since"::text, 'null') || '}')) as "~text", "j2"."since" as "since", "User3"."name" as "~o0"
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
    join (
      (
        select "source" as "source", "target" as "target", "since" as "since"
        from "default"."Admin.friends" as "Admin.friends"
      )
      union all
      (
        select "source" as "source", "target" as "target", "since" as "since"
        from "default"."User.friends" as "User.friends"
      )
    ) as "j2" on "j2"."source" = "User1"."id"
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
    ) as "User3" on "User3"."id" = "j2"."target"
) as "q4"
