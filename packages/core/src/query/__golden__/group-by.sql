-- many std::FreeObject; params: none
select coalesce(json_agg("q4"."~json"), '[]'::json)::text as "result"
from lateral (
  select "gk3"."~key" as "v", (('{"key" : ' || (('{"st" : ' || (coalesce(to_json(("gk3"."~key" -> 0)::json)::text, 'null') || '}')) || ', "grouping" : ')) || ((coalesce(to_json(json_build_array('st'))::text, 'null') || ', "elements" : ') || (coalesce(to_json(json_agg("gk3"."~json"))::text, 'null') || '}')))::json as "~json"
  from (
    select "Issue1"."id" as "id", 'default::Issue' as "__type__", ('{"name":' || (coalesce(to_json("Issue1"."name")::text, 'null') || '}'))::json as "~json", jsonb_build_array(to_json("Status2"."name")::jsonb) as "~key", "Status2"."name" as "s0"
    from "default"."Issue" as "Issue1"
      join "default"."Status" as "Status2" on "Status2"."id" = "Issue1"."status"
  ) as "gk3"
  group by "gk3"."~key", "gk3"."s0"
  order by "gk3"."s0" asc nulls first
) as "q4"
