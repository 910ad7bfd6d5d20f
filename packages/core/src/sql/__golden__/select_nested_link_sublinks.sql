select json_build_object('name', "i"."name", 'tags', (
  select coalesce(json_agg(json_build_object('name', "t"."name", '@weight', "l"."weight") order by "l"."weight"), '[]'::json)
  from "app"."Item.tags" as "l"
    join "app"."Item" as "t" on "t"."id" = "l"."target"
  where "l"."source" = "i"."id"
), 'tag_ids', ARRAY(
  select "l2"."target"
  from "app"."Item.tags" as "l2"
  where "l2"."source" = "i"."id"
)) as "v"
from "app"."Item" as "i"
where exists (
  select 1
  from "app"."Item.tags" as "l3"
  where "l3"."source" = "i"."id"
) and ("i"."owner" = any (
  select "o"."id"
  from "app"."Item" as "o"
)) and ("i"."n" is distinct from null)
