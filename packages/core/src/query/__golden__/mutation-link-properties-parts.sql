-- one default::User; params: none
with "insert_src1" as materialized (
  select "svc_meta"."uuid_generate_v7"() as "id", 'Zed'::text as "c0", (
    select "ov4"."id"
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
        where "User2"."name" = ('Ann'::text)
        limit 1::bigint
      ) as "q3"
    ) as "ov4"
    limit 1
  ) as "c1"
),
"insert5" as (
  insert into "default"."User" ("id", "name", "best_friend")
  select "s"."id", "s"."c0", "s"."c1"
  from "insert_src1" as "s"
  returning *
),
"pairs18" as materialized (
  (
    (
      select "o6"."id" as "source", "q9"."id" as "target", 'default::User' as "~type", 1::bigint as "since", 0 as "~part"
      from "insert5" as "o6"
        join "insert_src1" as "s7" on "s7"."id" = "o6"."id"
        join lateral (
          select "User8"."id" as "id", "User8"."__type__" as "__type__", json_build_object('id', "User8"."id") as "~json"
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
          ) as "User8"
          where "User8"."name" = ('Ann'::text)
        ) as "q9" on true
      where "q9"."id" is not null
    )
    union all
    (
      select "o10"."id" as "source", "q13"."id" as "target", 'default::User' as "~type", 2::bigint as "since", 1 as "~part"
      from "insert5" as "o10"
        join "insert_src1" as "s11" on "s11"."id" = "o10"."id"
        join lateral (
          select "User12"."id" as "id", "User12"."__type__" as "__type__", json_build_object('id', "User12"."id") as "~json"
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
          ) as "User12"
          where "User12"."name" = ('Yury'::text)
        ) as "q13" on true
      where "q13"."id" is not null
    )
  )
  union all
  (
    select "o14"."id" as "source", "q17"."id" as "target", 'default::User' as "~type", null::bigint as "since", 2 as "~part"
    from "insert5" as "o14"
      join "insert_src1" as "s15" on "s15"."id" = "o14"."id"
      join lateral (
        select "User16"."id" as "id", "User16"."__type__" as "__type__", json_build_object('id', "User16"."id") as "~json"
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
        ) as "User16"
        where "User16"."name" = ('Elvis'::text)
      ) as "q17" on true
    where "q17"."id" is not null
  )
),
"link19" as (
  insert into "default"."User.friends" ("source", "target", "since")
  select distinct on ("p"."source", "p"."target") "p"."source", "p"."target", "p"."since"
  from "pairs18" as "p"
  where "p"."~type" = 'default::User'
  order by "p"."source", "p"."target", "p"."~part" desc
  on conflict ("source", "target") do update set "since" = "excluded"."since"
)
select coalesce('[' || (string_agg((('{"id":' || (coalesce(to_json("w20"."id")::text, 'null') || ',"name":')) || ((coalesce(to_json("w20"."name")::text, 'null') || ',"age":') || (coalesce(to_json("w20"."age")::text, 'null') || ',"best_friend":'))) || (((coalesce(to_json("w20"."best_friend")::text, 'null') || ',"friends":') || (coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    select "pr"."target" as "v"
    from "pairs18" as "pr"
    where "pr"."source" = "w20"."id"
  ) as "r"
))::text, 'null') || ',"todo":')) || ((coalesce(to_json('[]'::json)::text, 'null') || ',"nicknames":') || (coalesce(to_json('[]'::json)::text, 'null') || '}'))), ', ') || ']'), '[]') as "result"
from "insert5" as "w20"
