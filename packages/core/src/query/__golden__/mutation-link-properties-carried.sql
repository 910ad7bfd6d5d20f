-- one default::User; params: none
with "insert_src1" as materialized (
  select "svc_meta"."uuid_generate_v7"() as "id", 'Zed'::text as "c0"
),
"insert2" as (
  insert into "default"."User" ("id", "name")
  select "s"."id", "s"."c0"
  from "insert_src1" as "s"
  returning *
),
"pairs12" as materialized (
  select "o3"."id" as "source", "lv11"."id" as "target", 'default::User' as "~type", case when jsonb_typeof(("lv11"."~json"::jsonb) -> '@since') <> 'null' then (nullif(("lv11"."~json"::jsonb) -> '@since', 'null'::jsonb)::bigint)::bigint when (("lv11"."~json"::jsonb) -> '@since') is not null then null::bigint else null::bigint end as "since"
  from "insert2" as "o3"
    join "insert_src1" as "s4" on "s4"."id" = "o3"."id"
    join lateral (
      select "q10"."id" as "id", "q10"."__type__" as "__type__", "q10"."~json" as "~json", "q10"."~c0" as "~c0", row_number() over (order by "q10"."~ord") as "~ord"
      from lateral (
        select "q9"."id" as "id", "q9"."__type__" as "__type__", "q9"."~json" as "~json", "q6"."v" as "~c0", row_number() over (order by "q6"."~ord") as "~ord"
        from lateral (
          select "un5".*, row_number() over (order by "un5"."~u1", "un5"."~u2") as "~ord"
          from (
            (
              select "v" as "v", "~json" as "~json", 0 as "~u1", 0 as "~u2"
              from (
                select jsonb_build_array(to_json('Ann'::text)::jsonb, to_json(1::bigint)::jsonb) as "v", json_build_array(to_json('Ann'::text), to_json(1::bigint)) as "~json"
              ) as "b0"
            )
            union all
            (
              select "v" as "v", "~json" as "~json", 1 as "~u1", 0 as "~u2"
              from (
                select jsonb_build_array(to_json('Yury'::text)::jsonb, to_json(2::bigint)::jsonb) as "v", json_build_array(to_json('Yury'::text), to_json(2::bigint)) as "~json"
              ) as "b1"
            )
          ) as "un5"
        ) as "q6"
          join lateral (
            select "User7"."id" as "id", "User7"."__type__" as "__type__", json_build_object('@since', (
              select "e8"."~json"
              from (
                select nullif("q6"."v" -> 1, 'null'::jsonb)::bigint as "v", to_json(nullif("q6"."v" -> 1, 'null'::jsonb)::bigint) as "~json"
              ) as "e8"
            )) as "~json"
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
            where "User7"."name" = (("q6"."v" -> 0) #>> '{}')
          ) as "q9" on true
      ) as "q10"
    ) as "lv11" on true
  where "lv11"."id" is not null
),
"link13" as (
  insert into "default"."User.friends" ("source", "target", "since")
  select "p"."source", "p"."target", "p"."since"
  from "pairs12" as "p"
  where "p"."~type" = 'default::User'
  on conflict ("source", "target") do update set "since" = "excluded"."since"
)
select coalesce(json_agg(json_build_object('id', "w14"."id", 'name', to_json("w14"."name"), 'age', to_json("w14"."age"), 'best_friend', to_json("w14"."best_friend"), 'friends', coalesce((
  select json_agg(to_json("r"."v"))
  from (
    select "pr"."target" as "v"
    from "pairs12" as "pr"
    where "pr"."source" = "w14"."id"
  ) as "r"
), '[]'::json), 'todo', '[]'::json, 'nicknames', '[]'::json)), '[]'::json)::text as "result"
from "insert2" as "w14"
