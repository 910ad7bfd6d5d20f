-- one std::str; params: $x: std::str?
select coalesce(json_agg(to_json(coalesce(($1::jsonb) #>> '{}', 'none'::text))), '[]'::json)::text as "result"
