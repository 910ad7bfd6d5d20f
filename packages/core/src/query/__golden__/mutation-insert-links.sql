-- one default::User; params: $name: std::str
with "insert_src1" as materialized (
  select "svc_meta"."uuid_generate_v7"() as "id", ($1::jsonb) #>> '{}' as "c0", (
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
        where "User2"."name" = ('Elvis'::text)
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
"pairs12" as materialized (
  select "o6"."id" as "source", "q11"."id" as "target", 'default::User' as "~type", 2001::bigint as "since"
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
      where "User8"."name" = any(ARRAY(
        select "s10"."v"
        from (
          select "q9"."v" as "v", "q9"."~json" as "~json", "q9"."~u1" as "~o0", "q9"."~u2" as "~o1"
          from lateral (
            (
              select "v" as "v", "~json" as "~json", 0 as "~u1", 0 as "~u2"
              from (
                select 'Yury'::text as "v", to_json('Yury'::text) as "~json"
              ) as "b0"
            )
            union all
            (
              select "v" as "v", "~json" as "~json", 1 as "~u1", 0 as "~u2"
              from (
                select 'Ann'::text as "v", to_json('Ann'::text) as "~json"
              ) as "b1"
            )
          ) as "q9"
        ) as "s10"
      ))
    ) as "q11" on true
  where "q11"."id" is not null
),
"link13" as (
  insert into "default"."User.friends" ("source", "target", "since")
  select "p"."source", "p"."target", "p"."since"
  from "pairs12" as "p"
  where "p"."~type" = 'default::User'
  on conflict ("source", "target") do update set "since" = "excluded"."since"
),
"pairs17" as materialized (
  select "o14"."id" as "source", "q16"."v" as "value", 'default::User' as "~type"
  from "insert5" as "o14"
    join "insert_src1" as "s15" on "s15"."id" = "o14"."id"
    join lateral (
      (
        select "v" as "v", "~json" as "~json", 0 as "~u1", 0 as "~u2"
        from (
          select 'z'::text as "v", to_json('z'::text) as "~json"
        ) as "b0"
      )
      union all
      (
        select "v" as "v", "~json" as "~json", 1 as "~u1", 0 as "~u2"
        from (
          select 'zz'::text as "v", to_json('zz'::text) as "~json"
        ) as "b1"
      )
    ) as "q16" on true
  where "q16"."v" is not null
),
"link18" as (
  insert into "default"."User.nicknames" ("source", "value")
  select "p"."source", "p"."value"
  from "pairs17" as "p"
  where "p"."~type" = 'default::User'
)
select coalesce('[' || (string_agg((('{"id":' || (coalesce(to_json("w19"."id")::text, 'null') || ',"name":')) || ((coalesce(to_json("w19"."name")::text, 'null') || ',"age":') || (coalesce(to_json("w19"."age")::text, 'null') || ',"best_friend":'))) || (((coalesce(to_json("w19"."best_friend")::text, 'null') || ',"friends":') || (coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    select "pr"."target" as "v"
    from "pairs12" as "pr"
    where "pr"."source" = "w19"."id"
  ) as "r"
))::text, 'null') || ',"todo":')) || ((coalesce(to_json('[]'::json)::text, 'null') || ',"nicknames":') || (coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    select "pr"."value" as "v"
    from "pairs17" as "pr"
    where "pr"."source" = "w19"."id"
  ) as "r"
))::text, 'null') || '}'))), ', ') || ']'), '[]') as "result"
from "insert5" as "w19"
