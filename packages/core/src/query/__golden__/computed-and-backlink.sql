-- many default::User; params: none
select coalesce(json_agg(json_build_object('name', to_json("User1"."name"), 'n', (
  select "e4"."~json"
  from (
    select (
      select count("User3"."id")
      from (
        (
          select "source" as "source", "target" as "target", "since" as "since"
          from "default"."Admin.friends"
        )
        union all
        (
          select "source" as "source", "target" as "target", "since" as "since"
          from "default"."User.friends"
        )
      ) as "j2"
        join (
        (
          select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", "level" as "level", 'default::Admin' as "__type__"
          from "default"."Admin"
        )
        union all
        (
          select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", null::bigint as "level", 'default::User' as "__type__"
          from "default"."User"
        )
      ) as "User3" on "User3"."id" = "j2"."target"
      where ("j2"."source" = "User1"."id") and ("User3"."id" is not null)
    ) as "v", to_json((
      select count("User3"."id")
      from (
        (
          select "source" as "source", "target" as "target", "since" as "since"
          from "default"."Admin.friends"
        )
        union all
        (
          select "source" as "source", "target" as "target", "since" as "since"
          from "default"."User.friends"
        )
      ) as "j2"
        join (
        (
          select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", "level" as "level", 'default::Admin' as "__type__"
          from "default"."Admin"
        )
        union all
        (
          select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", null::bigint as "level", 'default::User' as "__type__"
          from "default"."User"
        )
      ) as "User3" on "User3"."id" = "j2"."target"
      where ("j2"."source" = "User1"."id") and ("User3"."id" is not null)
    )) as "~json"
  ) as "e4"
), 'issues', (
  select coalesce(json_agg("e8"."~json"), '[]'::json)
  from (
    select "Issue7"."id" as "id", 'default::Issue' as "__type__", json_build_object('name', to_json("Issue7"."name")) as "~json"
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
    ) as "bl5"
      join (
      (
        (
          select "id" as "id", "owner" as "owner", "owner@note" as "owner@note", "body" as "body", "issue" as "issue", "parent" as "parent", null::text as "name", null::text as "number", null::uuid as "status", null::bigint as "time_estimate", null::text[] as "tags", null::timestamptz as "due_date", null::bigint as "spent_time", 'default::Comment' as "__type__"
          from "default"."Comment"
        )
        union all
        (
          select "id" as "id", "owner" as "owner", "owner@note" as "owner@note", "body" as "body", null::uuid as "issue", null::uuid as "parent", "name" as "name", "number" as "number", "status" as "status", "time_estimate" as "time_estimate", "tags" as "tags", "due_date" as "due_date", null::bigint as "spent_time", 'default::Issue' as "__type__"
          from "default"."Issue"
        )
      )
      union all
      (
        select "id" as "id", "owner" as "owner", "owner@note" as "owner@note", "body" as "body", null::uuid as "issue", null::uuid as "parent", null::text as "name", null::text as "number", null::uuid as "status", null::bigint as "time_estimate", null::text[] as "tags", null::timestamptz as "due_date", "spent_time" as "spent_time", 'default::LogEntry' as "__type__"
        from "default"."LogEntry"
      )
    ) as "Owned6" on "Owned6"."id" = "bl5"."id"
      join "default"."Issue" as "Issue7" on "Issue7"."id" = "Owned6"."id"
  ) as "e8"
))), '[]'::json)::text as "result"
from (
  (
    select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", "level" as "level", 'default::Admin' as "__type__"
    from "default"."Admin"
  )
  union all
  (
    select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", null::bigint as "level", 'default::User' as "__type__"
    from "default"."User"
  )
) as "User1"
