-- many default::C; params: none
select coalesce(json_agg("q11"."~json"), '[]'::json)::text as "result"
from lateral (
  select "C1"."id" as "id", 'default::C' as "__type__", json_build_object('cname', to_json("C1"."cname"), 'things', (
    select coalesce(json_agg("e10"."~json"), '[]'::json)
    from (
      select "B3"."id" as "id", "B3"."__type__" as "__type__", json_build_object('label', to_json("B3"."label"), 'name', case when "B3"."__type__" in ('default::A', 'default::SubA') then (
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
      ) else null::json end, 'title', case when "B3"."__type__" in ('default::B') then (
        select "e7"."~json"
        from (
          select "B6"."title" as "v", to_json("B6"."title") as "~json"
          from "default"."B" as "B6"
          where ("B6"."id" = "B3"."id") and ("B6"."title" is not null)
        ) as "e7"
      ) else null::json end, '__type__', (
        select json_agg("e9"."~json")
        from (
          select "ty8"."id" as "id", 'schema::ObjectType' as "__type__", json_build_object('name', to_json("ty8"."name")) as "~json"
          from (
            values ('285fd67e-032a-59de-bcef-687e8b5effa4'::uuid, 'default::A', false), ('35fbdc43-21ea-50ce-9b53-08a525a47e1e'::uuid, 'default::B', false), ('3976d5dd-aff5-58e1-8cb0-ed4f7032a5d7'::uuid, 'default::C', false), ('265e37ab-78c0-56fc-aa98-3d72d1821ffe'::uuid, 'default::D', false), ('b03d0e57-e09b-5d1f-802b-6d8d098a0f59'::uuid, 'default::SubA', false), ('339d3629-9b82-56b2-bd48-a04e14c01bd2'::uuid, 'schema::ObjectType', false), ('f7e37277-021b-51af-aa0b-09b0a2bea073'::uuid, 'std::BaseObject', true), ('d6d62b31-ecd6-5856-8888-ca1f73216c7b'::uuid, 'std::Object', true)
          ) as "ty8"("id", "name", "abstract")
          where "ty8"."name" = "B3"."__type__"
        ) as "e9"
      )) as "~json"
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
    ) as "e10"
  ), 'one', to_json("C1"."one")) as "~json"
  from "default"."C" as "C1"
  where "C1"."cname" = ('c1'::text)
) as "q11"
