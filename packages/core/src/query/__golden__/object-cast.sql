-- one default::User; params: $id: std::uuid
select coalesce('[' || (string_agg(coalesce("q3"."~text", 'null'), ', ') || ']'), '[]') as "result"
from lateral (
  select "User2"."id" as "id", "User2"."__type__" as "__type__", '{"name":' || (coalesce(to_json("User2"."name")::text, 'null') || '}') as "~text"
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
  where "User2"."id" = (case when ((($1::jsonb) #>> '{}')::uuid) is null then null::uuid else (
    select coalesce("oc1"."id", "svc_meta"."raise"("oc1"."id", '21000', 'no default::User with id ' || (((($1::jsonb) #>> '{}')::uuid)::text)))
    from (
      select
    ) as "one"
      left join (
        (
          select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", "level" as "level", 'default::Admin' as "__type__"
          from "default"."Admin" as "Admin"
        )
        union all
        (
          select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", null::bigint as "level", 'default::User' as "__type__"
          from "default"."User" as "User"
        )
      ) as "oc1" on "oc1"."id" = ((($1::jsonb) #>> '{}')::uuid)
  ) end)
) as "q3"
