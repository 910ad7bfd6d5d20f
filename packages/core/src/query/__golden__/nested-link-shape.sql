-- many default::Issue; params: none
select coalesce(json_agg("q8"."~json" order by "q8"."~o0" asc), '[]'::json)::text as "result"
from lateral (
  select "Issue1"."id" as "id", 'default::Issue' as "__type__", (
    select to_json("~row".*)
    from (
      select "Issue1"."name" as "name", (
        select json_agg("e3"."~json")
        from (
          select "User2"."id" as "id", "User2"."__type__" as "__type__", (
            select to_json("~row".*)
            from (
              select "User2"."name" as "name", "Issue1"."owner@note" as "@note"
            ) as "~row"
          ) as "~json", "Issue1"."owner@note" as "note"
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
          where "User2"."id" = "Issue1"."owner"
        ) as "e3"
      ) as "owner", (
        select coalesce(json_agg("e7"."~json" order by "e7"."~o0" asc), '[]'::json)
        from (
          select "q6"."id" as "id", "q6"."__type__" as "__type__", "q6"."~json" as "~json", "q6"."~o0" as "~o0"
          from lateral (
            select "User5"."id" as "id", "User5"."__type__" as "__type__", (
              select to_json("~row".*)
              from (
                select "User5"."name" as "name"
              ) as "~row"
            ) as "~json", "User5"."name" as "~o0"
            from "default"."Issue.watchers" as "j4"
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
              ) as "User5" on "User5"."id" = "j4"."target"
            where "j4"."source" = "Issue1"."id"
            order by "User5"."name" asc
            limit 2::bigint
          ) as "q6"
        ) as "e7"
      ) as "watchers"
    ) as "~row"
  ) as "~json", "Issue1"."number" as "~o0"
  from "default"."Issue" as "Issue1"
) as "q8"
