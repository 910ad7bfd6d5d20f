-- many default::C; params: none
select coalesce('[' || (string_agg(coalesce("q13"."~text", 'null'), ', ') || ']'), '[]') as "result"
from lateral (
  select "C1"."id" as "id", 'default::C' as "__type__", '{"things":' || (coalesce((
    select coalesce('[' || (string_agg(coalesce("e12"."~text", 'null'), ', ') || ']'), '[]')
    from (
      select "B3"."id" as "id", "B3"."__type__" as "__type__", (('{"id":' || coalesce('"' || (("B3"."id"::text) || '"'), 'null')) || (',"name":' || (coalesce(to_json(case when "B3"."__type__" in ('default::A', 'default::SubA') then (
        select "e5"."~json"
        from (
          select "A4"."name" as "v", to_json("A4"."name") as "~json"
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
          ) as "A4"
          where "A4"."id" = "B3"."id"
        ) as "e5"
      ) else null::json end)::text, 'null') || ',"label":'))) || ((coalesce(to_json(case when "B3"."__type__" in ('default::A', 'default::SubA') then (
        select "e7"."~json"
        from (
          select "A6"."label" as "v", to_json("A6"."label") as "~json"
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
          ) as "A6"
          where ("A6"."id" = "B3"."id") and ("A6"."label" is not null)
        ) as "e7"
      ) else null::json end)::text, 'null') || (',"extra":' || coalesce(to_json(case when "B3"."__type__" in ('default::SubA') then (
        select "e9"."~json"
        from (
          select "SubA8"."extra" as "v", to_json("SubA8"."extra") as "~json"
          from "default"."SubA" as "SubA8"
          where ("SubA8"."id" = "B3"."id") and ("SubA8"."extra" is not null)
        ) as "e9"
      ) else null::json end)::text, 'null'))) || (',"title":' || (coalesce(to_json(case when "B3"."__type__" in ('default::B') then (
        select "e11"."~json"
        from (
          select "B10"."title" as "v", to_json("B10"."title") as "~json"
          from "default"."B" as "B10"
          where ("B10"."id" = "B3"."id") and ("B10"."title" is not null)
        ) as "e11"
      ) else null::json end)::text, 'null') || '}'))) as "~text"
      from "default"."C.things" as "j2"
        join (
          (
            (
              select "id" as "id", "name" as "name", "label" as "label", null::text as "title", null::bigint as "extra", 'default::A' as "__type__"
              from "default"."A" as "A"
            )
            union all
            (
              select "id" as "id", null::text as "name", "label" as "label", "title" as "title", null::bigint as "extra", 'default::B' as "__type__"
              from "default"."B" as "B"
            )
          )
          union all
          (
            select "id" as "id", "name" as "name", "label" as "label", null::text as "title", "extra" as "extra", 'default::SubA' as "__type__"
            from "default"."SubA" as "SubA"
          )
        ) as "B3" on "B3"."id" = "j2"."target"
      where "j2"."source" = "C1"."id"
    ) as "e12"
  ), 'null') || '}') as "~text"
  from "default"."C" as "C1"
) as "q13"
