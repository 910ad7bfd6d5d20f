-- one std::FreeObject; params: none
select coalesce('[' || (string_agg(coalesce("q5"."~text", 'null'), ', ') || ']'), '[]') as "result"
from lateral (
  select (('{"a":' || coalesce((1::bigint)::text, 'null')) || (',"users":' || (coalesce(to_json((
    select coalesce(json_agg("e2"."~json"), '[]'::json)
    from (
      select "User1"."name" as "v", to_json("User1"."name") as "~json"
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
    ) as "e2"
  ))::text, 'null') || '}')))::jsonb as "v", ('{"a":' || coalesce((1::bigint)::text, 'null')) || (',"users":' || (coalesce(to_json((
    select coalesce(json_agg("e4"."~json"), '[]'::json)
    from (
      select "User3"."name" as "v", to_json("User3"."name") as "~json"
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
      ) as "User3"
    ) as "e4"
  ))::text, 'null') || '}')) as "~text"
) as "q5"
