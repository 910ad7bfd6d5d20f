-- many default::User; params: $name: std::str
select coalesce('[' || (string_agg(coalesce("q2"."~text", 'null'), ', ' order by "q2"."~o0" asc) || ']'), '[]') as "result"
from lateral (
  select "User1"."id" as "id", "User1"."__type__" as "__type__", ('{"name":' || coalesce(to_json("User1"."name")::text, 'null')) || (',"age":' || (coalesce("User1"."age"::text, 'null') || '}')) as "~text", "User1"."name" as "~o0"
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
  where "User1"."name" = (($1::jsonb) #>> '{}')
) as "q2"
