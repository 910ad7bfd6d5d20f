-- many default::User; params: $offset: std::int64, $limit: std::int64
select coalesce('[' || (string_agg(coalesce("q2"."~text", 'null'), ', ') || ']'), '[]') as "result"
from lateral (
  select "User1"."id" as "id", "User1"."__type__" as "__type__", ('{"name":' || coalesce(to_json("User1"."name")::text, 'null')) || (',"age":' || (coalesce("User1"."age"::text, 'null') || '}')) as "~text", "User1"."name" as "~o0", "User1"."age" as "~o1"
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
  order by "User1"."name" desc, "User1"."age" asc nulls first
  limit (($2::jsonb) #>> '{}')::bigint
  offset (($1::jsonb) #>> '{}')::bigint
) as "q2"
