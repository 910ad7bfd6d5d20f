-- many default::D; params: none
select coalesce(json_agg("q6"."~json"), '[]'::json)::text as "result"
from lateral (
  select "D1"."id" as "id", 'default::D' as "__type__", (
    select to_json("~row".*)
    from (
      select "D1"."id" as "id", "D1"."dname" as "dname", (
        select json_agg("e3"."~json")
        from (
          select "A2"."id" as "id", "A2"."__type__" as "__type__", case when "A2"."id" is null then null::json else (
            select to_json("~row".*)
            from (
              select "A2"."id" as "id", "A2"."name" as "name", "A2"."label" as "label"
            ) as "~row"
          ) end as "~json"
          from (
            select
          ) as "one"
            left join (
              (
                select "id" as "id", "name" as "name", "label" as "label", null::bigint as "extra", 'default::A' as "__type__"
                from "default"."A" as "A"
              )
              union all
              (
                select "id" as "id", "name" as "name", "label" as "label", "extra" as "extra", 'default::SubA' as "__type__"
                from "default"."SubA" as "SubA"
              )
            ) as "A2" on "A2"."id" = "D1"."pick"
          where "A2"."id" is not null
        ) as "e3"
      ) as "pick", (
        select json_agg("e5"."~json")
        from (
          select "B4"."id" as "id", "B4"."__type__" as "__type__", case when "B4"."id" is null then null::json else (
            select to_json("~row".*)
            from (
              select "B4"."id" as "id", "B4"."label" as "label"
            ) as "~row"
          ) end as "~json"
          from (
            select
          ) as "one"
            left join (
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
            ) as "B4" on "B4"."id" = "D1"."other"
          where "B4"."id" is not null
        ) as "e5"
      ) as "other"
    ) as "~row"
  ) as "~json"
  from "default"."D" as "D1"
) as "q6"
