-- many default::User; params: none
select coalesce('[' || (string_agg(coalesce("q6"."~text", 'null'), ', ') || ']'), '[]') as "result"
from lateral (
  select "q3"."id" as "id", "q3"."__type__" as "__type__", '{"name":' || (coalesce(to_json((
    select "e5"."~json"
    from (
      select "User4"."name" as "v", to_json("User4"."name") as "~json"
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
      ) as "User4"
      where "User4"."id" = "q3"."id"
    ) as "e5"
  ))::text, 'null') || '}') as "~text"
  from lateral (
    select "q2"."id" as "id", "q2"."__type__" as "__type__", "q2"."~json" as "~json"
    from lateral (
      select "User1"."id" as "id", "User1"."__type__" as "__type__", json_build_object('id', "User1"."id") as "~json"
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
      where "User1"."age" > (26::bigint)
    ) as "q2"
  ) as "q3"
) as "q6"
