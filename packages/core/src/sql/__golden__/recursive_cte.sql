with recursive "walk"("id", "owner") as (
  (
    select "i"."id", "i"."owner"
    from "app"."Item" as "i"
    where "i"."id" = ((($1::jsonb) #>> ('{}'::text[]))::uuid)
  )
  union all
  (
    select "o"."id", "o"."owner"
    from "walk" as "w"
      join "app"."Item" as "o" on "o"."id" = "w"."owner"
  )
)
select count(*)
from "walk"
