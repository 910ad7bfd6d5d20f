insert into "app"."Item.tags" as "old" ("source", "target", "weight")
values ((($1::jsonb) #>> ('{}'::text[]))::uuid, (($2::jsonb) #>> ('{}'::text[]))::uuid, (($3::jsonb) #>> ('{}'::text[]))::int4)
on conflict ("source", "target") do update set "weight" = coalesce("old"."weight", 0) where "old"."weight" is distinct from "excluded"."weight"
returning "old"."source" as "id"
