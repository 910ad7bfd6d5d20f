-- many default::A; params: none
select coalesce(json_agg("q5"."~json"), '[]'::json)::text as "result"
from lateral (
  select "A1"."id" as "id", "A1"."__type__" as "__type__", (
    select to_json("~row".*)
    from (
      select "A1"."name" as "name", (
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
      ) as "back"
    ) as "~row"
  ) as "~json"
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
