-- atLeastOne std::int64; params: none
select coalesce(json_agg("q2"."~json" order by "q2"."~o0", "q2"."~o1"), '[]'::json)::text as "result"
from lateral (
  select "q1"."v" * (10::bigint) as "v", to_json("q1"."v" * (10::bigint)) as "~json", "q1"."v" as "~c0", "q1"."~u1" as "~o0", "q1"."~u2" as "~o1"
  from lateral (
    (
      select "v" as "v", "~json" as "~json", 0 as "~u1", 0 as "~u2"
      from (
        select 1::bigint as "v", to_json(1::bigint) as "~json"
      ) as "b0"
    )
    union all
    (
      select "v" as "v", "~json" as "~json", 1 as "~u1", 0 as "~u2"
      from (
        select 2::bigint as "v", to_json(2::bigint) as "~json"
      ) as "b1"
    )
  ) as "q1"
) as "q2"
