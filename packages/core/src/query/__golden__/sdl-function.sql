-- one std::int64; params: $n: std::int64
select coalesce(json_agg(to_json("q1"."v" + (1::bigint))), '[]'::json)::text as "result"
from lateral (
  select nullif($1::jsonb, 'null'::jsonb)::bigint as "v", to_json(nullif($1::jsonb, 'null'::jsonb)::bigint) as "~json"
) as "q1"
