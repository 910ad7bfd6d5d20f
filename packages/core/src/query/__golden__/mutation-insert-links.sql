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
"pairs13" as materialized (
  select "o6"."id" as "source", "q12"."id" as "target", 'default::User' as "~type", 2001::bigint as "since"
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
        select "s11"."v"
        from (
          select "q10"."v" as "v", "q10"."~json" as "~json", row_number() over (order by "q10"."~ord") as "~ord"
          from lateral (
            select "un9".*, row_number() over (order by "un9"."~u1", "un9"."~u2") as "~ord"
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
            ) as "un9"
          ) as "q10"
        ) as "s11"
      ))
    ) as "q12" on true
  where "q12"."id" is not null
),
"link14" as (
  insert into "default"."User.friends" ("source", "target", "since")
  select "p"."source", "p"."target", "p"."since"
  from "pairs13" as "p"
  where "p"."~type" = 'default::User'
  on conflict ("source", "target") do update set "since" = "excluded"."since"
),
"pairs19" as materialized (
  select "o15"."id" as "source", "q18"."v" as "value", 'default::User' as "~type"
  from "insert5" as "o15"
    join "insert_src1" as "s16" on "s16"."id" = "o15"."id"
    join lateral (
      select "un17".*, row_number() over (order by "un17"."~u1", "un17"."~u2") as "~ord"
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
      ) as "un17"
    ) as "q18" on true
  where "q18"."v" is not null
),
"link20" as (
  insert into "default"."User.nicknames" ("source", "value")
  select "p"."source", "p"."value"
  from "pairs19" as "p"
  where "p"."~type" = 'default::User'
)
select coalesce(json_agg(json_build_object('id', "w21"."id", 'name', to_json("w21"."name"), 'age', to_json("w21"."age"), 'best_friend', to_json("w21"."best_friend"), 'friends', coalesce((
  select json_agg(to_json("r"."v"))
  from (
    select "pr"."target" as "v"
    from "pairs13" as "pr"
    where "pr"."source" = "w21"."id"
  ) as "r"
), '[]'::json), 'todo', '[]'::json, 'nicknames', coalesce((
  select json_agg(to_json("r"."v"))
  from (
    select "pr"."value" as "v"
    from "pairs19" as "pr"
    where "pr"."source" = "w21"."id"
  ) as "r"
), '[]'::json))), '[]'::json)::text as "result"
from "insert5" as "w21"
