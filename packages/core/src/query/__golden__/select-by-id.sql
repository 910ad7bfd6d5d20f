-- atMostOne default::User; params: $id: std::uuid
select coalesce(json_agg("q2"."~json"), '[]'::json)::text as "result"
from lateral (
  select "User1"."id" as "id", "User1"."__type__" as "__type__", (
    select to_json("~row".*)
    from (
      select "User1"."name" as "name", "User1"."age" as "age", "User1"."best_friend" as "best_friend"
    ) as "~row"
  ) as "~json"
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
