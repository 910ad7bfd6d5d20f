-- one default::User; params: none
with "insert_src1" as materialized (
  select "svc_meta"."uuid_generate_v7"() as "id", 'Zed'::text as "c0", "q3"."id" as "c1"
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
),
"insert4" as (
  insert into "default"."User" ("id", "name", "best_friend")
  select "s"."id", "s"."c0", "s"."c1"
  from "insert_src1" as "s"
  returning *
),
"pairs17" as materialized (
  (
    (
      select "o5"."id" as "source", "q8"."id" as "target", 'default::User' as "~type", 1::bigint as "since", 0 as "~part"
      from "insert4" as "o5"
        join "insert_src1" as "s6" on "s6"."id" = "o5"."id"
        join lateral (
          select "User7"."id" as "id", "User7"."__type__" as "__type__", json_build_object('id', "User7"."id") as "~json"
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
          ) as "User7"
          where "User7"."name" = ('Ann'::text)
        ) as "q8" on true
      where "q8"."id" is not null
    )
    union all
    (
      select "o9"."id" as "source", "q12"."id" as "target", 'default::User' as "~type", 2::bigint as "since", 1 as "~part"
      from "insert4" as "o9"
        join "insert_src1" as "s10" on "s10"."id" = "o9"."id"
        join lateral (
          select "User11"."id" as "id", "User11"."__type__" as "__type__", json_build_object('id', "User11"."id") as "~json"
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
          ) as "User11"
          where "User11"."name" = ('Yury'::text)
        ) as "q12" on true
      where "q12"."id" is not null
    )
  )
  union all
  (
    select "o13"."id" as "source", "q16"."id" as "target", 'default::User' as "~type", null::bigint as "since", 2 as "~part"
    from "insert4" as "o13"
      join "insert_src1" as "s14" on "s14"."id" = "o13"."id"
      join lateral (
        select "User15"."id" as "id", "User15"."__type__" as "__type__", json_build_object('id', "User15"."id") as "~json"
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
        ) as "User15"
        where "User15"."name" = ('Elvis'::text)
      ) as "q16" on true
    where "q16"."id" is not null
  )
),
"link18" as (
  insert into "default"."User.friends" ("source", "target", "since")
  select distinct on ("p"."source", "p"."target") "p"."source", "p"."target", "p"."since"
  from "pairs17" as "p"
  where "p"."~type" = 'default::User'
  order by "p"."source", "p"."target", "p"."~part" desc
  on conflict ("source", "target") do update set "since" = "excluded"."since"
)
select coalesce(json_agg(json_build_object('id', "w19"."id", 'name', to_json("w19"."name"), 'age', to_json("w19"."age"), 'best_friend', to_json("w19"."best_friend"), 'friends', coalesce((
  select json_agg(to_json("r"."v"))
  from (
    select "pr"."target" as "v"
    from "pairs17" as "pr"
    where "pr"."source" = "w19"."id"
  ) as "r"
), '[]'::json), 'todo', '[]'::json, 'nicknames', '[]'::json)), '[]'::json)::text as "result"
from "insert4" as "w19"
