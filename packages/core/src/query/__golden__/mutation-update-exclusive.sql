-- atMostOne default::Issue; params: none
with "update_src1" as materialized (
  select "Issue2"."id" as "id", 'default::Issue' as "__type__", '2'::text as "c0", 'moved'::text as "c1"
  from "default"."Issue" as "Issue2"
  where "Issue2"."number" = ('1'::text)
),
"exclusive5" as materialized (
  select case when exists (
    select 1
    from "default"."Issue" as "ex4"
    where ("ex4"."number" = "s"."c0") and ("ex4"."id" <> "s"."id")
  ) then "svc_meta"."raise"(case when "s"."c0" is null then null::text end, '23505', 'number violates exclusivity constraint') end as "conflict"
  from "update_src1" as "s",
    "default"."Issue" as "t"
  where "t"."id" = "s"."id"
),
"update3" as (
  update "default"."Issue" as "t"
  set "number" = "s"."c0", "body" = "s"."c1"
  from "update_src1" as "s"
  where ("t"."id" = "s"."id") and ((
    select count(*)
    from "exclusive5"
  ) > (-1))
  returning "t".*
)
select coalesce('[' || (string_agg(((('{"id":' || coalesce(to_json("w6"."id")::text, 'null')) || (',"name":' || (coalesce(to_json("w6"."name")::text, 'null') || ',"owner":'))) || ((coalesce(to_json("w6"."owner")::text, 'null') || (',"body":' || coalesce(to_json("w6"."body")::text, 'null'))) || (',"number":' || (coalesce(to_json("w6"."number")::text, 'null') || ',"status":')))) || (((coalesce(to_json("w6"."status")::text, 'null') || (',"watchers":' || coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    select "jr"."target" as "v"
    from (
      select "source", "target"
      from "default"."Issue.watchers"
    ) as "jr"
    where "jr"."source" = "w6"."id"
  ) as "r"
))::text, 'null'))) || (',"time_estimate":' || (coalesce(to_json("w6"."time_estimate")::text, 'null') || ',"tags":'))) || ((coalesce(to_json("w6"."tags")::text, 'null') || (',"due_date":' || coalesce(to_json((to_json("w6"."due_date" at time zone 'UTC') #>> '{}') || '+00:00')::text, 'null'))) || (',"related_to":' || (coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    select "jr"."target" as "v"
    from (
      select "source", "target"
      from "default"."Issue.related_to"
    ) as "jr"
    where "jr"."source" = "w6"."id"
  ) as "r"
))::text, 'null') || '}')))), ', ') || ']'), '[]') as "result"
from "update3" as "w6"
