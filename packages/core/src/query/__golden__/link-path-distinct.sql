-- many std::str; params: none
select coalesce(json_agg("q5"."~json"), '[]'::json)::text as "result"
from lateral (
  select "User4"."name" as "v", to_json("User4"."name") as "~json"
  from lateral (
    select distinct on ("User2"."id") "User2"."id" as "id", "User2"."__type__" as "__type__", json_build_object('id', "User2"."id") as "~json", "Issue1"."owner@note" as "note"
    from "default"."Issue" as "Issue1"
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
      ) as "User2" on "User2"."id" = "Issue1"."owner"
    order by "User2"."id"
  ) as "q3"
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
    ) as "User4" on "User4"."id" = "q3"."id"
) as "q5"
