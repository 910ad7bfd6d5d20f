-- one std::int64; params: none
select coalesce(json_agg("q4"."~json"), '[]'::json)::text as "result"
from lateral (
  select (
    select count("ag1"."id")
    from (
      select "q3"."id" as "id", "q3"."__type__" as "__type__", "q3"."~json" as "~json"
      from lateral (
        select "User2"."id" as "id", "User2"."__type__" as "__type__", json_build_object('id', "User2"."id") as "~json"
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
        ) as "User2"
        where "User2"."age" > (20::bigint)
      ) as "q3"
    ) as "ag1"
  ) as "v", to_json((
    select count("ag1"."id")
    from (
      select "q3"."id" as "id", "q3"."__type__" as "__type__", "q3"."~json" as "~json"
      from lateral (
        select "User2"."id" as "id", "User2"."__type__" as "__type__", json_build_object('id', "User2"."id") as "~json"
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
        ) as "User2"
        where "User2"."age" > (20::bigint)
      ) as "q3"
    ) as "ag1"
  )) as "~json"
) as "q4"
