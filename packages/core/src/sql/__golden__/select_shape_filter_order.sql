select coalesce(json_agg("q"."v" order by "q"."ord"), '[]'::json) as "result"
from (
  select json_build_object('id', "i"."id", 'name', "i"."name") as "v", row_number() over (order by "i"."n" desc nulls first) as "ord"
  from "app"."Item" as "i"
  where "i"."name" = (($1::jsonb) #>> ('{}'::text[]))
  order by "i"."n" desc nulls first, "i"."id"
  limit 2
  offset 1
) as "q"
