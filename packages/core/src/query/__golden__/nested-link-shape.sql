-- many default::Issue; params: none
select coalesce('[' || (string_agg(coalesce("q8"."~text", 'null'), ', ' order by "q8"."~o0" asc) || ']'), '[]') as "result"
from lateral (
  select "Issue1"."id" as "id", 'default::Issue' as "__type__", ('{"name":' || (coalesce(to_json("Issue1"."name")::text, 'null') || ',"owner":')) || ((coalesce((
    select '[' || (string_agg(coalesce("e3"."~text", 'null'), ', ') || ']')
    from (
      select "User2"."id" as "id", "User2"."__type__" as "__type__", ('{"name":' || coalesce(to_json("User2"."name")::text, 'null')) || (',"@note":' || (coalesce(to_json("Issue1"."owner@note")::text, 'null') || '}')) as "~text", "Issue1"."owner@note" as "note"
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
  ), 'null') || ',"watchers":') || (coalesce((
    select coalesce('[' || (string_agg(coalesce("e7"."~text", 'null'), ', ' order by "e7"."~o0" asc) || ']'), '[]')
    from (
      select "q6"."id" as "id", "q6"."__type__" as "__type__", "q6"."~text" as "~text", "q6"."~o0" as "~o0"
      from lateral (
        select "User5"."id" as "id", "User5"."__type__" as "__type__", '{"name":' || (coalesce(to_json("User5"."name")::text, 'null') || '}') as "~text", "User5"."name" as "~o0"
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
  ), 'null') || '}')) as "~text", "Issue1"."number" as "~o0"
  from "default"."Issue" as "Issue1"
) as "q8"
