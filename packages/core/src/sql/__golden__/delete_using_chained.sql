with "del_links" as (
  delete from "app"."Item.tags" as "l"
  using "app"."Item" as "i"
  where ("l"."source" = "i"."id") and ("i"."n" is null)
  returning "l"."source"
)
delete from "app"."Item" as "i"
using "del_links" as "d"
where ("i"."id" = "d"."source") or (not true)
returning "i"."id"
