-- one default::Issue; params: $number: std::str
with "insert_src1" as materialized (
  select "svc_meta"."uuid_generate_v7"() as "id", 'Dup'::text as "c0", 'b'::text as "c1", ($1::jsonb) #>> '{}' as "c2", (
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
  ) as "c3", (
    select "ov7"."id"
    from (
      select "q6"."id" as "id", "q6"."__type__" as "__type__", "q6"."~json" as "~json"
      from lateral (
        select "Status5"."id" as "id", 'default::Status' as "__type__", json_build_object('id', "Status5"."id") as "~json"
        from "default"."Status" as "Status5"
        where "Status5"."name" = ('Open'::text)
        limit 1::bigint
      ) as "q6"
    ) as "ov7"
    limit 1
  ) as "c4"
),
"insert9" as (
  insert into "default"."Issue" ("id", "name", "body", "number", "owner", "status")
  select "s"."id", "s"."c0", "s"."c1", case when exists (
    select 1
    from "default"."Issue" as "ex10"
    where ("ex10"."number" = "s"."c2") and ("ex10"."id" <> "s"."id")
  ) then "svc_meta"."raise"(case when "s"."c2" is null then null::text end, '23505', 'number violates exclusivity constraint') else "s"."c2" end, "s"."c3", "s"."c4"
  from "insert_src1" as "s"
  where not exists (
    select 1
    from "default"."Issue" as "x8"
    where "x8"."number" = "s"."c2"
  )
  returning *
),
"update_src13" as materialized (
  select "q17"."id" as "id", "q17"."__type__" as "__type__", 'reopened'::text as "c0"
  from "insert_src1" as "cs14"
    join "default"."Issue" as "cx15" on ("cx15"."number" = "cs14"."c2") and (not exists (
    select 1
    from "insert9" as "n"
    where "n"."id" = "cx15"."id"
  ))
    join lateral (
      select "cx15"."id" as "id", 'default::Issue' as "__type__", json_build_object('id', "cx15"."id") as "~json"
    ) as "q17" on true
  where not (not exists (
    select 1
    from "default"."Issue" as "x16"
    where "x16"."number" = (($1::jsonb) #>> '{}')
  ))
),
"update18" as (
  update "default"."Issue" as "t"
  set "body" = "s"."c0"
  from "update_src13" as "s"
  where "t"."id" = "s"."id"
  returning "t".*
)
select coalesce('[' || (string_agg(coalesce("q21"."~text", 'null'), ', ') || ']'), '[]') as "result"
from lateral (
  select "u20"."id" as "id", "u20"."__type__" as "__type__", ('{"name":' || coalesce(to_json("u20"."name")::text, 'null')) || (',"body":' || (coalesce(to_json("u20"."body")::text, 'null') || '}')) as "~text"
  from lateral (
    (
      select "w"."id" as "id", "w"."name" as "name", "w"."owner" as "owner", "w"."owner@note" as "owner@note", "w"."body" as "body", "w"."number" as "number", "w"."status" as "status", "w"."time_estimate" as "time_estimate", "w"."tags" as "tags", "w"."due_date" as "due_date", 'default::Issue' as "__type__"
      from "insert9" as "w"
    )
    union all
    (
      select "w19"."id" as "id", "w19"."name" as "name", "w19"."owner" as "owner", "w19"."owner@note" as "owner@note", "w19"."body" as "body", "w19"."number" as "number", "w19"."status" as "status", "w19"."time_estimate" as "time_estimate", "w19"."tags" as "tags", "w19"."due_date" as "due_date", 'default::Issue' as "__type__"
      from "insert_src1" as "cs11"
        join "default"."Issue" as "cx12" on ("cx12"."number" = "cs11"."c2") and (not exists (
        select 1
        from "insert9" as "n"
        where "n"."id" = "cx12"."id"
      ))
        join "update18" as "w19" on true
    )
  ) as "u20"
) as "q21"
