-- many tuple<status: std::str, n: std::int64>; params: none
select coalesce(json_agg("q18"."~json" order by "q18"."~o0" asc), '[]'::json)::text as "result"
from lateral (
  select "q17"."v" as "v", "q17"."~json" as "~json", "q17"."~c0" as "~c0", (("q17"."v" -> 1) #>> '{}')::bigint as "~o0"
  from (
    select
  ) as "one"
    left join lateral (
      select case when (to_json(case when jsonb_typeof("q4"."v" -> 0) = 'null' then null::text else ("q4"."v" -> 0) #>> '{}' end)::jsonb) is null then null else jsonb_build_array(to_json(case when jsonb_typeof("q4"."v" -> 0) = 'null' then null::text else ("q4"."v" -> 0) #>> '{}' end)::jsonb, to_json((
        select count("ag5"."id")
        from (
          select "q10"."id" as "id", "q10"."__type__" as "__type__", "q10"."~json" as "~json"
          from lateral (
            select "q9"."id" as "id", "q9"."__type__" as "__type__", "q9"."~json" as "~json"
            from lateral (
              select "ge8".*
              from (
                select "Issue6"."id" as "id", 'default::Issue' as "__type__", json_build_object('id', "Issue6"."id") as "~json", jsonb_build_array(to_json("Status7"."name")::jsonb) as "~key", "Status7"."name" as "s0"
                from "default"."Issue" as "Issue6"
                  join "default"."Status" as "Status7" on "Status7"."id" = "Issue6"."status"
              ) as "ge8"
              where "ge8"."~key" = "q4"."v"
            ) as "q9"
          ) as "q10"
        ) as "ag5"
      ))::jsonb) end as "v", case when to_json(case when jsonb_typeof("q4"."v" -> 0) = 'null' then null::text else ("q4"."v" -> 0) #>> '{}' end) is null then null else (('{"status" : ' || coalesce(to_json(case when jsonb_typeof("q4"."v" -> 0) = 'null' then null::text else ("q4"."v" -> 0) #>> '{}' end)::text, 'null')) || (', "n" : ' || (coalesce(to_json((
        select count("ag11"."id")
        from (
          select "q16"."id" as "id", "q16"."__type__" as "__type__", "q16"."~json" as "~json"
          from lateral (
            select "q15"."id" as "id", "q15"."__type__" as "__type__", "q15"."~json" as "~json"
            from lateral (
              select "ge14".*
              from (
                select "Issue12"."id" as "id", 'default::Issue' as "__type__", json_build_object('id', "Issue12"."id") as "~json", jsonb_build_array(to_json("Status13"."name")::jsonb) as "~key", "Status13"."name" as "s0"
                from "default"."Issue" as "Issue12"
                  join "default"."Status" as "Status13" on "Status13"."id" = "Issue12"."status"
              ) as "ge14"
              where "ge14"."~key" = "q4"."v"
            ) as "q15"
          ) as "q16"
        ) as "ag11"
      ))::text, 'null') || '}')))::json end as "~json", "q4"."v" as "~c0"
      from lateral (
        select "gk3"."~key" as "v", (('{"key" : ' || (('{"st" : ' || (coalesce(to_json(("gk3"."~key" -> 0)::json)::text, 'null') || '}')) || ', "grouping" : ')) || ((coalesce(to_json(json_build_array('st'))::text, 'null') || ', "elements" : ') || (coalesce(to_json(json_agg("gk3"."~json"))::text, 'null') || '}')))::json as "~json"
        from (
          select "Issue1"."id" as "id", 'default::Issue' as "__type__", json_build_object('id', "Issue1"."id") as "~json", jsonb_build_array(to_json("Status2"."name")::jsonb) as "~key", "Status2"."name" as "s0"
          from "default"."Issue" as "Issue1"
            join "default"."Status" as "Status2" on "Status2"."id" = "Issue1"."status"
        ) as "gk3"
        group by "gk3"."~key", "gk3"."s0"
        order by "gk3"."s0" asc nulls first
      ) as "q4"
      where (case when (to_json(case when jsonb_typeof("q4"."v" -> 0) = 'null' then null::text else ("q4"."v" -> 0) #>> '{}' end)::jsonb) is null then null else jsonb_build_array(to_json(case when jsonb_typeof("q4"."v" -> 0) = 'null' then null::text else ("q4"."v" -> 0) #>> '{}' end)::jsonb, to_json((
        select count("ag5"."id")
        from (
          select "q10"."id" as "id", "q10"."__type__" as "__type__", "q10"."~json" as "~json"
          from lateral (
            select "q9"."id" as "id", "q9"."__type__" as "__type__", "q9"."~json" as "~json"
            from lateral (
              select "ge8".*
              from (
                select "Issue6"."id" as "id", 'default::Issue' as "__type__", json_build_object('id', "Issue6"."id") as "~json", jsonb_build_array(to_json("Status7"."name")::jsonb) as "~key", "Status7"."name" as "s0"
                from "default"."Issue" as "Issue6"
                  join "default"."Status" as "Status7" on "Status7"."id" = "Issue6"."status"
              ) as "ge8"
              where "ge8"."~key" = "q4"."v"
            ) as "q9"
          ) as "q10"
        ) as "ag5"
      ))::jsonb) end) is not null
    ) as "q17" on true
  where "q17"."v" is not null
) as "q18"
