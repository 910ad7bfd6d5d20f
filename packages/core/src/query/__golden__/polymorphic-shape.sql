-- many default::Named; params: none
select coalesce('[' || (string_agg(coalesce("q6"."~text", 'null'), ', ') || ']'), '[]') as "result"
from lateral (
  select "Named1"."id" as "id", "Named1"."__type__" as "__type__", ('{"name":' || (coalesce(to_json("Named1"."name")::text, 'null') || ',"number":')) || ((coalesce(to_json(case when "Named1"."__type__" in ('default::Issue') then (
    select "e3"."~json"
    from (
      select "Issue2"."number" as "v", to_json("Issue2"."number") as "~json"
      from "default"."Issue" as "Issue2"
      where "Issue2"."id" = "Named1"."id"
    ) as "e3"
  ) else null::json end)::text, 'null') || ',"age":') || (coalesce(to_json(case when "Named1"."__type__" in ('default::Admin', 'default::User') then (
    select "e5"."~json"
    from (
      select "User4"."age" as "v", to_json("User4"."age") as "~json"
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
      ) as "User4"
      where ("User4"."id" = "Named1"."id") and ("User4"."age" is not null)
    ) as "e5"
  ) else null::json end)::text, 'null') || '}')) as "~text"
  from (
    (
      (
        (
          select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", "level" as "level", null::uuid as "owner", null::text as "owner@note", null::text as "body", null::text as "number", null::uuid as "status", null::bigint as "time_estimate", null::text[] as "tags", null::timestamptz as "due_date", 'default::Admin' as "__type__"
          from "default"."Admin" as "Admin"
        )
        union all
        (
          select "id" as "id", "name" as "name", null::bigint as "age", null::uuid as "best_friend", null::bigint as "level", "owner" as "owner", "owner@note" as "owner@note", "body" as "body", "number" as "number", "status" as "status", "time_estimate" as "time_estimate", "tags" as "tags", "due_date" as "due_date", 'default::Issue' as "__type__"
          from "default"."Issue" as "Issue"
        )
      )
      union all
      (
        select "id" as "id", "name" as "name", null::bigint as "age", null::uuid as "best_friend", null::bigint as "level", null::uuid as "owner", null::text as "owner@note", null::text as "body", null::text as "number", null::uuid as "status", null::bigint as "time_estimate", null::text[] as "tags", null::timestamptz as "due_date", 'default::Status' as "__type__"
        from "default"."Status" as "Status"
      )
    )
    union all
    (
      select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", null::bigint as "level", null::uuid as "owner", null::text as "owner@note", null::text as "body", null::text as "number", null::uuid as "status", null::bigint as "time_estimate", null::text[] as "tags", null::timestamptz as "due_date", 'default::User' as "__type__"
      from "default"."User" as "User"
    )
  ) as "Named1"
) as "q6"
