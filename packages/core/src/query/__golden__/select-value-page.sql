-- many std::int64; params: $a: array<std::int64>
select coalesce(json_agg("q3"."~json"), '[]'::json)::text as "result"
from lateral (
  select "q2"."v" as "v", "q2"."~json" as "~json", "q2"."v" as "~o0", "q2"."~o0" as "~o1"
  from lateral (
    select "f1"."value" as "v", to_json("f1"."value") as "~json", "f1"."~ord" as "~o0"
    from lateral unnest(case when nullif($1::jsonb, 'null'::jsonb) is null then null else ARRAY(
      select ("e"."value" #>> '{}')::bigint
      from jsonb_array_elements($1::jsonb) with ordinality as "e"("value", "ord")
      order by "e"."ord"
    )::bigint[] end) with ordinality as "f1"("value", "~ord")
  ) as "q2"
  order by "q2"."v" desc, "q2"."~o0"
  limit 300::bigint
  offset 7::bigint
) as "q3"
