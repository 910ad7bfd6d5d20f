-- one std::int64; params: $n: std::int64
select coalesce(json_agg("q2"."~json"), '[]'::json)::text as "result"
from lateral (
  select "q1"."v" + (1::bigint) as "v", to_json("q1"."v" + (1::bigint)) as "~json"
  from lateral (
    select (($1::jsonb) #>> '{}')::bigint as "v", to_json((($1::jsonb) #>> '{}')::bigint) as "~json"
  ) as "q1"
) as "q2"
