with "ins" as (
  insert into "app"."Item" ("id", "name", "n")
  values (gen_random_uuid(), ($1::jsonb) #>> ('{}'::text[]), DEFAULT)
  returning *
),
"ins_tags" as materialized (
  insert into "app"."Item.tags" ("source", "target", "weight")
  select "ins"."id", "t"."id", null
  from "ins",
    "app"."Item" as "t"
  where "t"."n" > 1
  returning "source", "target"
)
select coalesce(json_agg(json_build_object('id', "ins"."id", 'tags', ARRAY(
  select "x"."target"
  from "ins_tags" as "x"
  where "x"."source" = "ins"."id"
))), '[]'::json) as "result"
from "ins"
