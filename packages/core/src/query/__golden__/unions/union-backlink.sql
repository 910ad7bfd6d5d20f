-- many default::A; params: none
select coalesce('[' || (string_agg(coalesce("q5"."~text", 'null'), ', ') || ']'), '[]') as "result"
from lateral (
  select "A1"."id" as "id", "A1"."__type__" as "__type__", ('{"name":' || coalesce(to_json("A1"."name")::text, 'null')) || (',"back":' || (coalesce(to_json((
    select coalesce(json_agg("e4"."~json"), '[]'::json)
    from (
      select "C3"."cname" as "v", to_json("C3"."cname") as "~json"
      from lateral (
        select "id" as "id"
        from "default"."C"
        where "one" = "A1"."id"
      ) as "bl2"
        join "default"."C" as "C3" on "C3"."id" = "bl2"."id"
    ) as "e4"
  ))::text, 'null') || '}')) as "~text"
  from (
    (
      select "id" as "id", "name" as "name", "label" as "label", null::bigint as "extra", 'default::A' as "__type__"
      from "default"."A" as "A"
    )
    union all
    (
      select "id" as "id", "name" as "name", "label" as "label", "extra" as "extra", 'default::SubA' as "__type__"
      from "default"."SubA" as "SubA"
    )
  ) as "A1"
) as "q5"
