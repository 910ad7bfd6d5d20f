-- one default::C; params: none
with "insert_src1" as materialized (
  select "svc_meta"."uuid_generate_v7"() as "id", 'x'::text as "c0", (
    select "ov4"."id"
    from (
      select "q3"."id" as "id", "q3"."__type__" as "__type__", "q3"."~json" as "~json"
      from lateral (
        select "A2"."id" as "id", "A2"."__type__" as "__type__", json_build_object('id', "A2"."id") as "~json"
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
        ) as "A2"
        limit 1::bigint
      ) as "q3"
    ) as "ov4"
    limit 1
  ) as "c1"
),
"insert5" as (
  insert into "default"."C" ("id", "cname", "one")
  select "s"."id", "s"."c0", "s"."c1"
  from "insert_src1" as "s"
  returning *
),
"pairs10" as materialized (
  select "o6"."id" as "source", "q9"."id" as "target", 'default::C' as "~type"
  from "insert5" as "o6"
    join "insert_src1" as "s7" on "s7"."id" = "o6"."id"
    join lateral (
      select "B8"."id" as "id", 'default::B' as "__type__", json_build_object('id', "B8"."id") as "~json"
      from "default"."B" as "B8"
    ) as "q9" on true
  where "q9"."id" is not null
),
"link11" as (
  insert into "default"."C.things" ("source", "target")
  select "p"."source", "p"."target"
  from "pairs10" as "p"
  where "p"."~type" = 'default::C'
  on conflict ("source", "target") do nothing
)
select coalesce('[' || (string_agg(((('{"id":' || coalesce(to_json("w12"."id")::text, 'null')) || (',"cname":' || coalesce(to_json("w12"."cname")::text, 'null'))) || ((',"things":' || coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    select "pr"."target" as "v"
    from "pairs10" as "pr"
    where "pr"."source" = "w12"."id"
  ) as "r"
))::text, 'null')) || (',"one":' || (coalesce(to_json("w12"."one")::text, 'null') || ',"any":')))) || (((coalesce(to_json("w12"."any")::text, 'null') || ',"owned":') || (coalesce(to_json("w12"."owned")::text, 'null') || (',"shared":' || coalesce(to_json("w12"."shared")::text, 'null')))) || ((',"kept":' || coalesce(to_json('[]'::json)::text, 'null')) || (',"weighted":' || (coalesce(to_json('[]'::json)::text, 'null') || '}')))), ', ') || ']'), '[]') as "result"
from "insert5" as "w12"
