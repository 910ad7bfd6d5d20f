-- many default::User; params: $name: std::str
select coalesce(json_agg("q2"."~json" order by "q2"."~o0" asc), '[]'::json)::text as "result"
from lateral (
  select "User1"."id" as "id", "User1"."__type__" as "__type__", (
    select to_json("~row".*)
    from (
      select "User1"."name" as "name", "User1"."age" as "age"
    ) as "~row"
  ) as "~json", "User1"."name" as "~o0"
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
