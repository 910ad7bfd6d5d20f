-- one std::int64; params: none
select coalesce(json_agg(to_json((
  select count("q2"."id")
  from lateral (
    select "User1"."id" as "id", "User1"."__type__" as "__type__", json_build_object('id', "User1"."id") as "~json"
    from (
      (
        select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", "level" as "level", 'default::Admin' as "__type__"
        from "default"."Admin"
      )
      union all
      (
        select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", null::bigint as "level", 'default::User' as "__type__"
        from "default"."User"
      )
    ) as "User1"
    where "User1"."age" > (20::bigint)
  ) as "q2"
  where "q2"."id" is not null
))), '[]'::json)::text as "result"
