update "app"."Item" as "i"
set "n" = "i"."n" + 1, "owner" = "src"."id"
from (
  select "o"."id"
  from "app"."Item" as "o"
  limit 1
) as "src"
where "i"."name" = (($1::jsonb) #>> ('{}'::text[]))
returning "i"."id", "i"."n" as "new n"
