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
"pairs11" as materialized (
  select "o3"."id" as "source", "lv10"."id" as "target", 'default::User' as "~type", case when jsonb_typeof(("lv10"."~json"::jsonb) -> '@since') <> 'null' then (((("lv10"."~json"::jsonb) -> '@since') #>> '{}')::bigint)::bigint when (("lv10"."~json"::jsonb) -> '@since') is not null then null::bigint else null::bigint end as "since"
  from "insert2" as "o3"
    join "insert_src1" as "s4" on "s4"."id" = "o3"."id"
    join lateral (
      select "q9"."id" as "id", "q9"."__type__" as "__type__", "q9"."~text"::json as "~json", "q9"."~c0" as "~c0", "q9"."~o0" as "~o0", "q9"."~o1" as "~o1"
      from lateral (
        select "q8"."id" as "id", "q8"."__type__" as "__type__", "q8"."~text" as "~text", "q5"."v" as "~c0", "q5"."~u1" as "~o0", "q5"."~u2" as "~o1"
        from lateral (
          (
            select "v" as "v", "~json" as "~json", 0 as "~u1", 0 as "~u2"
            from (
              select jsonb_build_array(to_json('Ann'::text)::jsonb, to_json(1::bigint)::jsonb) as "v", json_build_array('Ann'::text, 1::bigint) as "~json"
            ) as "b0"
          )
          union all
          (
            select "v" as "v", "~json" as "~json", 1 as "~u1", 0 as "~u2"
            from (
              select jsonb_build_array(to_json('Yury'::text)::jsonb, to_json(2::bigint)::jsonb) as "v", json_build_array('Yury'::text, 2::bigint) as "~json"
            ) as "b1"
          )
        ) as "q5"
          join lateral (
            select "User6"."id" as "id", "User6"."__type__" as "__type__", '{"@since":' || (coalesce(to_json((
              select "e7"."~json"
              from (
                select (("q5"."v" -> 1) #>> '{}')::bigint as "v", to_json((("q5"."v" -> 1) #>> '{}')::bigint) as "~json"
              ) as "e7"
            ))::text, 'null') || '}') as "~text"
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
            ) as "User6"
            where "User6"."name" = (("q5"."v" -> 0) #>> '{}')
          ) as "q8" on true
      ) as "q9"
    ) as "lv10" on true
  where "lv10"."id" is not null
),
"link12" as (
  insert into "default"."User.friends" ("source", "target", "since")
  select "p"."source", "p"."target", "p"."since"
  from "pairs11" as "p"
  where "p"."~type" = 'default::User'
  on conflict ("source", "target") do update set "since" = "excluded"."since"
)
select coalesce('[' || (string_agg((('{"id":' || (coalesce(to_json("w13"."id")::text, 'null') || ',"name":')) || ((coalesce(to_json("w13"."name")::text, 'null') || ',"age":') || (coalesce(to_json("w13"."age")::text, 'null') || ',"best_friend":'))) || (((coalesce(to_json("w13"."best_friend")::text, 'null') || ',"friends":') || (coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    select "pr"."target" as "v"
    from "pairs11" as "pr"
    where "pr"."source" = "w13"."id"
  ) as "r"
))::text, 'null') || ',"todo":')) || ((coalesce(to_json('[]'::json)::text, 'null') || ',"nicknames":') || (coalesce(to_json('[]'::json)::text, 'null') || '}'))), ', ') || ']'), '[]') as "result"
from "insert2" as "w13"
