-- many default::D; params: none
select coalesce('[' || (string_agg(coalesce("q6"."~text", 'null'), ', ') || ']'), '[]') as "result"
from lateral (
  select "D1"."id" as "id", 'default::D' as "__type__", (('{"id":' || coalesce('"' || (("D1"."id"::text) || '"'), 'null')) || (',"dname":' || coalesce(to_json("D1"."dname")::text, 'null'))) || ((',"pick":' || coalesce((
    select '[' || (string_agg(coalesce("e3"."~text", 'null'), ', ') || ']')
    from (
      select "A2"."id" as "id", "A2"."__type__" as "__type__", case when "A2"."id" is null then (null::json)::text else ('{"id":' || (coalesce('"' || (("A2"."id"::text) || '"'), 'null') || ',"name":')) || ((coalesce(to_json("A2"."name")::text, 'null') || ',"label":') || (coalesce(to_json("A2"."label")::text, 'null') || '}')) end as "~text"
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
  ), 'null')) || (',"other":' || (coalesce((
    select '[' || (string_agg(coalesce("e5"."~text", 'null'), ', ') || ']')
    from (
      select "B4"."id" as "id", "B4"."__type__" as "__type__", case when "B4"."id" is null then (null::json)::text else ('{"id":' || coalesce('"' || (("B4"."id"::text) || '"'), 'null')) || (',"label":' || (coalesce(to_json("B4"."label")::text, 'null') || '}')) end as "~text"
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
  ), 'null') || '}'))) as "~text"
  from "default"."D" as "D1"
) as "q6"
