-- atLeastOne std::int64; params: none
select coalesce(json_agg("q3"."~json" order by "q3"."~ord"), '[]'::json)::text as "result"
from lateral (
  select "q2"."v" * (10::bigint) as "v", to_json("q2"."v" * (10::bigint)) as "~json", "q2"."v" as "~c0", row_number() over (order by "q2"."~ord") as "~ord"
  from lateral (
    select "un1".*, row_number() over (order by "un1"."~u1", "un1"."~u2") as "~ord"
    from (
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
    ) as "un1"
  ) as "q2"
) as "q3"
