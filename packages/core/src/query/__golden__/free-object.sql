-- one std::FreeObject; params: none
select coalesce(json_agg("q5"."~json"), '[]'::json)::text as "result"
from lateral (
  select (
    select to_json("~row".*)
    from (
      select 1::bigint as "a", (
        select coalesce(json_agg("e2"."~json"), '[]'::json)
        from (
          select "User1"."name" as "v", to_json("User1"."name") as "~json"
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
        ) as "e2"
      ) as "users"
    ) as "~row"
  )::jsonb as "v", (
    select to_json("~row".*)
    from (
      select 1::bigint as "a", (
        select coalesce(json_agg("e4"."~json"), '[]'::json)
        from (
          select "User3"."name" as "v", to_json("User3"."name") as "~json"
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
          ) as "User3"
        ) as "e4"
      ) as "users"
    ) as "~row"
  ) as "~json"
) as "q5"
