-- one std::str; params: $x: std::str?
select coalesce(json_agg("q1"."~json"), '[]'::json)::text as "result"
from lateral (
  select coalesce(($1::jsonb) #>> '{}', 'none'::text) as "v", to_json(coalesce(($1::jsonb) #>> '{}', 'none'::text)) as "~json"
) as "q1"
