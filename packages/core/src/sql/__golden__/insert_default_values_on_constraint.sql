with "gone" as not materialized (
  delete from "app"."Item.tags"
  returning "source"
)
insert into "Mod ule"."T""1"
default values
on conflict on constraint "T""1_pkey" do nothing
returning *
