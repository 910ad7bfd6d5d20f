-- atMostOne default::User; params: $id: std::uuid
select coalesce('[' || (string_agg(coalesce("q2"."~text", 'null'), ', ') || ']'), '[]') as "result"
from lateral (
  select "User1"."id" as "id", "User1"."__type__" as "__type__", ('{"name":' || (coalesce(to_json("User1"."name")::text, 'null') || ',"age":')) || ((coalesce("User1"."age"::text, 'null') || ',"best_friend":') || (coalesce('"' || (("User1"."best_friend"::text) || '"'), 'null') || '}')) as "~text"
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
  where "User1"."id" = ((($1::jsonb) #>> '{}')::uuid)
) as "q2"
