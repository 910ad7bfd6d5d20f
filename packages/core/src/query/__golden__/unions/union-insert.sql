-- one default::C; params: none
with "insert_src1" as materialized (
  select "svc_meta"."uuid_generate_v7"() as "id", 'x'::text as "c0", "q3"."id" as "c1"
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
),
"insert4" as (
  insert into "default"."C" ("id", "cname", "one")
  select "s"."id", "s"."c0", "s"."c1"
  from "insert_src1" as "s"
  returning *
),
"pairs9" as materialized (
  select "o5"."id" as "source", "q8"."id" as "target", 'default::C' as "~type"
  from "insert4" as "o5"
    join "insert_src1" as "s6" on "s6"."id" = "o5"."id"
    join lateral (
      select "B7"."id" as "id", 'default::B' as "__type__", json_build_object('id', "B7"."id") as "~json"
      from "default"."B" as "B7"
    ) as "q8" on true
  where "q8"."id" is not null
),
"link10" as (
  insert into "default"."C.things" ("source", "target")
  select "p"."source", "p"."target"
  from "pairs9" as "p"
  where "p"."~type" = 'default::C'
  on conflict ("source", "target") do nothing
)
select coalesce(json_agg(json_build_object('id', "w11"."id", 'cname', to_json("w11"."cname"), 'things', coalesce((
  select json_agg(to_json("r"."v"))
  from (
    select "pr"."target" as "v"
    from "pairs9" as "pr"
    where "pr"."source" = "w11"."id"
  ) as "r"
), '[]'::json), 'one', to_json("w11"."one"), 'any', to_json("w11"."any"), 'owned', to_json("w11"."owned"), 'shared', to_json("w11"."shared"), 'kept', '[]'::json, 'weighted', '[]'::json)), '[]'::json)::text as "result"
from "insert4" as "w11"
