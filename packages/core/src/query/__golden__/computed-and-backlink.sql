-- many default::User; params: none
select coalesce('[' || (string_agg(coalesce("q10"."~text", 'null'), ', ') || ']'), '[]') as "result"
from lateral (
  select "User1"."id" as "id", "User1"."__type__" as "__type__", ('{"name":' || (coalesce(to_json("User1"."name")::text, 'null') || ',"n":')) || ((coalesce(to_json((
    select "e5"."~json"
    from (
      select (
        select count("ag2"."id")
        from (
          select "User4"."id" as "id", "User4"."__type__" as "__type__", json_build_object('id', "User4"."id") as "~json", "j3"."since" as "since"
          from (
            (
              select "source" as "source", "target" as "target", "since" as "since"
              from "default"."Admin.friends" as "Admin.friends"
            )
            union all
            (
              select "source" as "source", "target" as "target", "since" as "since"
              from "default"."User.friends" as "User.friends"
            )
          ) as "j3"
            join (
              (
                select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", "level" as "level", 'default::Admin' as "__type__"
                from "default"."Admin" as "Admin"
              )
              union all
              (
                select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", null::bigint as "level", 'default::User' as "__type__"
                from "default"."User" as "User"
              )
            ) as "User4" on "User4"."id" = "j3"."target"
          where "j3"."source" = "User1"."id"
        ) as "ag2"
      ) as "v", to_json((
        select count("ag2"."id")
        from (
          select "User4"."id" as "id", "User4"."__type__" as "__type__", json_build_object('id', "User4"."id") as "~json", "j3"."since" as "since"
          from (
            (
              select "source" as "source", "target" as "target", "since" as "since"
              from "default"."Admin.friends" as "Admin.friends"
            )
            union all
            (
              select "source" as "source", "target" as "target", "since" as "since"
              from "default"."User.friends" as "User.friends"
            )
          ) as "j3"
            join (
              (
                select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", "level" as "level", 'default::Admin' as "__type__"
                from "default"."Admin" as "Admin"
              )
              union all
              (
                select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", null::bigint as "level", 'default::User' as "__type__"
                from "default"."User" as "User"
              )
            ) as "User4" on "User4"."id" = "j3"."target"
          where "j3"."source" = "User1"."id"
        ) as "ag2"
      )) as "~json"
    ) as "e5"
  ))::text, 'null') || ',"issues":') || (coalesce((
    select coalesce('[' || (string_agg(coalesce("e9"."~text", 'null'), ', ') || ']'), '[]')
    from (
      select "Issue8"."id" as "id", 'default::Issue' as "__type__", '{"name":' || (coalesce(to_json("Issue8"."name")::text, 'null') || '}') as "~text", "bl6"."note" as "note"
      from lateral (
        (
          (
            select "id" as "id", "owner@note" as "note"
            from "default"."Comment"
            where "owner" = "User1"."id"
          )
          union all
          (
            select "id" as "id", "owner@note" as "note"
            from "default"."Issue"
            where "owner" = "User1"."id"
          )
        )
        union all
        (
          select "id" as "id", "owner@note" as "note"
          from "default"."LogEntry"
          where "owner" = "User1"."id"
        )
      ) as "bl6"
        join (
          (
            (
              select "id" as "id", "owner" as "owner", "owner@note" as "owner@note", "body" as "body", "issue" as "issue", "parent" as "parent", null::text as "name", null::text as "number", null::uuid as "status", null::bigint as "time_estimate", null::text[] as "tags", null::timestamptz as "due_date", null::bigint as "spent_time", 'default::Comment' as "__type__"
              from "default"."Comment" as "Comment"
            )
            union all
            (
              select "id" as "id", "owner" as "owner", "owner@note" as "owner@note", "body" as "body", null::uuid as "issue", null::uuid as "parent", "name" as "name", "number" as "number", "status" as "status", "time_estimate" as "time_estimate", "tags" as "tags", "due_date" as "due_date", null::bigint as "spent_time", 'default::Issue' as "__type__"
              from "default"."Issue" as "Issue"
            )
          )
          union all
          (
            select "id" as "id", "owner" as "owner", "owner@note" as "owner@note", "body" as "body", null::uuid as "issue", null::uuid as "parent", null::text as "name", null::text as "number", null::uuid as "status", null::bigint as "time_estimate", null::text[] as "tags", null::timestamptz as "due_date", "spent_time" as "spent_time", 'default::LogEntry' as "__type__"
            from "default"."LogEntry" as "LogEntry"
          )
        ) as "Owned7" on "Owned7"."id" = "bl6"."id"
        join "default"."Issue" as "Issue8" on "Issue8"."id" = "Owned7"."id"
    ) as "e9"
  ), 'null') || '}')) as "~text"
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
  ) as "User1"
) as "q10"
