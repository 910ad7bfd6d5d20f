-- one default::User; params: $name: std::str
with "insert_src1" as materialized (
  select "svc_meta"."uuid_generate_v7"() as "id", ($1::jsonb) #>> '{}' as "c0", "q3"."id" as "c1"
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
),
"insert4" as (
  insert into "default"."User" ("id", "name", "best_friend")
  select "s"."id", "s"."c0", "s"."c1"
  from "insert_src1" as "s"
  returning *
),
"pairs12" as materialized (
  select "o5"."id" as "source", "q11"."id" as "target", 'default::User' as "~type", 2001::bigint as "since"
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
      where "User7"."name" = any(ARRAY(
        select "s10"."v"
        from (
          select "q9"."v" as "v", "q9"."~json" as "~json", row_number() over (order by "q9"."~ord") as "~ord"
          from lateral (
            select "un8".*, row_number() over (order by "un8"."~u1", "un8"."~u2") as "~ord"
            from (
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
            ) as "un8"
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
"pairs18" as materialized (
  select "o14"."id" as "source", "q17"."v" as "value", 'default::User' as "~type"
  from "insert4" as "o14"
    join "insert_src1" as "s15" on "s15"."id" = "o14"."id"
    join lateral (
      select "un16".*, row_number() over (order by "un16"."~u1", "un16"."~u2") as "~ord"
      from (
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
      ) as "un16"
    ) as "q17" on true
  where "q17"."v" is not null
),
"link19" as (
  insert into "default"."User.nicknames" ("source", "value")
  select "p"."source", "p"."value"
  from "pairs18" as "p"
  where "p"."~type" = 'default::User'
)
select coalesce(json_agg(json_build_object('id', "w20"."id", 'name', to_json("w20"."name"), 'age', to_json("w20"."age"), 'best_friend', to_json("w20"."best_friend"), 'friends', coalesce((
  select json_agg(to_json("r"."v"))
  from (
    select "pr"."target" as "v"
    from "pairs12" as "pr"
    where "pr"."source" = "w20"."id"
  ) as "r"
), '[]'::json), 'todo', '[]'::json, 'nicknames', coalesce((
  select json_agg(to_json("r"."v"))
  from (
    select "pr"."value" as "v"
    from "pairs18" as "pr"
    where "pr"."source" = "w20"."id"
  ) as "r"
), '[]'::json))), '[]'::json)::text as "result"
from "insert4" as "w20"
