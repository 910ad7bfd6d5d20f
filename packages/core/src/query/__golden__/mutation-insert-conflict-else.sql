-- one default::Issue; params: $number: std::str
with "insert_src1" as materialized (
  select "svc_meta"."uuid_generate_v7"() as "id", 'Dup'::text as "c0", 'b'::text as "c1", ($1::jsonb) #>> '{}' as "c2", "q3"."id" as "c3", "q5"."id" as "c4"
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
    join lateral (
      select "Status4"."id" as "id", 'default::Status' as "__type__", json_build_object('id', "Status4"."id") as "~json"
      from "default"."Status" as "Status4"
      where "Status4"."name" = ('Open'::text)
      limit 1::bigint
    ) as "q5" on true
),
"insert7" as (
  insert into "default"."Issue" ("id", "name", "body", "number", "owner", "status")
  select "s"."id", "s"."c0", "s"."c1", "s"."c2", "s"."c3", "s"."c4"
  from "insert_src1" as "s"
  where not exists (
    select 1
    from "default"."Issue" as "x6"
    where "x6"."number" = "s"."c2"
  )
  returning *
),
"update_src10" as materialized (
  select "q14"."id" as "id", "q14"."__type__" as "__type__", 'reopened'::text as "c0"
  from "insert_src1" as "cs11"
    join "default"."Issue" as "cx12" on ("cx12"."number" = "cs11"."c2") and (not exists (
    select 1
    from "insert7" as "n"
    where "n"."id" = "cx12"."id"
  ))
    join lateral (
      select "cx12"."id" as "id", 'default::Issue' as "__type__", json_build_object('id', "cx12"."id") as "~json"
    ) as "q14" on true
  where not (not exists (
    select 1
    from "default"."Issue" as "x13"
    where "x13"."number" = (($1::jsonb) #>> '{}')
  ))
),
"update15" as (
  update "default"."Issue" as "t"
  set "body" = "s"."c0"
  from "update_src10" as "s"
  where "t"."id" = "s"."id"
  returning "t".*
)
select coalesce(json_agg("q18"."~json"), '[]'::json)::text as "result"
from lateral (
  select "u17"."id" as "id", "u17"."__type__" as "__type__", json_build_object('name', to_json("u17"."name"), 'body', to_json("u17"."body")) as "~json"
  from lateral (
    (
      select "w"."id" as "id", "w"."name" as "name", "w"."owner" as "owner", "w"."owner@note" as "owner@note", "w"."body" as "body", "w"."number" as "number", "w"."status" as "status", "w"."time_estimate" as "time_estimate", "w"."tags" as "tags", "w"."due_date" as "due_date", 'default::Issue' as "__type__"
      from "insert7" as "w"
    )
    union all
    (
      select "w16"."id" as "id", "w16"."name" as "name", "w16"."owner" as "owner", "w16"."owner@note" as "owner@note", "w16"."body" as "body", "w16"."number" as "number", "w16"."status" as "status", "w16"."time_estimate" as "time_estimate", "w16"."tags" as "tags", "w16"."due_date" as "due_date", 'default::Issue' as "__type__"
      from "insert_src1" as "cs8"
        join "default"."Issue" as "cx9" on ("cx9"."number" = "cs8"."c2") and (not exists (
        select 1
        from "insert7" as "n"
        where "n"."id" = "cx9"."id"
      ))
        join "update15" as "w16" on true
    )
  ) as "u17"
) as "q18"
