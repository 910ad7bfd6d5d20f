-- many std::FreeObject; params: none
select coalesce('[' || (string_agg(coalesce("q21"."~text", 'null'), ', ') || ']'), '[]') as "result"
from lateral (
  select "q7"."v" as "v", ('{"key":' || (coalesce((
    select "e12"."~text"
    from (
      select (('{"st":' || coalesce(to_json((
        select "e8"."~json"
        from (
          select case when jsonb_typeof("q7"."v" -> 0) = 'null' then null::text else ("q7"."v" -> 0) #>> '{}' end as "v", to_json(case when jsonb_typeof("q7"."v" -> 0) = 'null' then null::text else ("q7"."v" -> 0) #>> '{}' end) as "~json"
          where (case when jsonb_typeof("q7"."v" -> 0) = 'null' then null::text else ("q7"."v" -> 0) #>> '{}' end) is not null
        ) as "e8"
      ))::text, 'null')) || (',"est":' || (coalesce(to_json((
        select "e9"."~json"
        from (
          select case when jsonb_typeof("q7"."v" -> 1) = 'null' then null::bigint else (("q7"."v" -> 1) #>> '{}')::bigint end as "v", to_json(case when jsonb_typeof("q7"."v" -> 1) = 'null' then null::bigint else (("q7"."v" -> 1) #>> '{}')::bigint end) as "~json"
          where (case when jsonb_typeof("q7"."v" -> 1) = 'null' then null::bigint else (("q7"."v" -> 1) #>> '{}')::bigint end) is not null
        ) as "e9"
      ))::text, 'null') || '}')))::jsonb as "v", ('{"st":' || coalesce(to_json((
        select "e10"."~json"
        from (
          select case when jsonb_typeof("q7"."v" -> 0) = 'null' then null::text else ("q7"."v" -> 0) #>> '{}' end as "v", to_json(case when jsonb_typeof("q7"."v" -> 0) = 'null' then null::text else ("q7"."v" -> 0) #>> '{}' end) as "~json"
          where (case when jsonb_typeof("q7"."v" -> 0) = 'null' then null::text else ("q7"."v" -> 0) #>> '{}' end) is not null
        ) as "e10"
      ))::text, 'null')) || (',"est":' || (coalesce(to_json((
        select "e11"."~json"
        from (
          select case when jsonb_typeof("q7"."v" -> 1) = 'null' then null::bigint else (("q7"."v" -> 1) #>> '{}')::bigint end as "v", to_json(case when jsonb_typeof("q7"."v" -> 1) = 'null' then null::bigint else (("q7"."v" -> 1) #>> '{}')::bigint end) as "~json"
          where (case when jsonb_typeof("q7"."v" -> 1) = 'null' then null::bigint else (("q7"."v" -> 1) #>> '{}')::bigint end) is not null
        ) as "e11"
      ))::text, 'null') || '}')) as "~text"
    ) as "e12"
  ), 'null') || ',"grouping":')) || ((coalesce(to_json((
    select coalesce(json_agg("e14"."~json"), '[]'::json)
    from (
      select "q13"."v" as "v", "q13"."~json" as "~json"
      from lateral (
        (
          select 'st' as "v", to_json('st'::text) as "~json"
          where (("q7"."v" -> 2) = ('1'::jsonb)) or (("q7"."v" -> 2) = ('3'::jsonb))
        )
        union all
        (
          select 'est' as "v", to_json('est'::text) as "~json"
          where (("q7"."v" -> 2) = ('2'::jsonb)) or (("q7"."v" -> 2) = ('3'::jsonb))
        )
      ) as "q13"
    ) as "e14"
  ))::text, 'null') || ',"n":') || (coalesce(to_json((
    select "e20"."~json"
    from (
      select (
        select count("ag15"."id")
        from (
          select "q19"."id" as "id", "q19"."__type__" as "__type__", "q19"."~json" as "~json"
          from lateral (
            select "ge18".*
            from (
              select "Issue16"."id" as "id", 'default::Issue' as "__type__", json_build_object('id', "Issue16"."id") as "~json", jsonb_build_array(to_json("Status17"."name")::jsonb, to_json("Issue16"."time_estimate")::jsonb) as "~key", "Status17"."name" as "s0", "Issue16"."time_estimate" as "s1", to_json("Status17"."name")::jsonb as "j0", to_json("Issue16"."time_estimate")::jsonb as "j1"
              from "default"."Issue" as "Issue16"
                join "default"."Status" as "Status17" on "Status17"."id" = "Issue16"."status"
            ) as "ge18"
            where (("q7"."v" -> 2) = ('0'::jsonb)) or ((("q7"."v" -> 2) = ('1'::jsonb)) and (("ge18"."~key" -> 0) = ("q7"."v" -> 0))) or ((("q7"."v" -> 2) = ('2'::jsonb)) and (("ge18"."~key" -> 1) = ("q7"."v" -> 1))) or ((("q7"."v" -> 2) = ('3'::jsonb)) and (("ge18"."~key" -> 0) = ("q7"."v" -> 0)) and (("ge18"."~key" -> 1) = ("q7"."v" -> 1)))
          ) as "q19"
        ) as "ag15"
      ) as "v", to_json((
        select count("ag15"."id")
        from (
          select "q19"."id" as "id", "q19"."__type__" as "__type__", "q19"."~json" as "~json"
          from lateral (
            select "ge18".*
            from (
              select "Issue16"."id" as "id", 'default::Issue' as "__type__", json_build_object('id', "Issue16"."id") as "~json", jsonb_build_array(to_json("Status17"."name")::jsonb, to_json("Issue16"."time_estimate")::jsonb) as "~key", "Status17"."name" as "s0", "Issue16"."time_estimate" as "s1", to_json("Status17"."name")::jsonb as "j0", to_json("Issue16"."time_estimate")::jsonb as "j1"
              from "default"."Issue" as "Issue16"
                join "default"."Status" as "Status17" on "Status17"."id" = "Issue16"."status"
            ) as "ge18"
            where (("q7"."v" -> 2) = ('0'::jsonb)) or ((("q7"."v" -> 2) = ('1'::jsonb)) and (("ge18"."~key" -> 0) = ("q7"."v" -> 0))) or ((("q7"."v" -> 2) = ('2'::jsonb)) and (("ge18"."~key" -> 1) = ("q7"."v" -> 1))) or ((("q7"."v" -> 2) = ('3'::jsonb)) and (("ge18"."~key" -> 0) = ("q7"."v" -> 0)) and (("ge18"."~key" -> 1) = ("q7"."v" -> 1)))
          ) as "q19"
        ) as "ag15"
      )) as "~json"
    ) as "e20"
  ))::text, 'null') || '}')) as "~text"
  from lateral (
    (
      (
        (
          select jsonb_build_array('null'::jsonb, 'null'::jsonb, 0) as "v", (('{"key" : ' || ((('{"st" : ' || coalesce(to_json(('null'::jsonb)::json)::text, 'null')) || (', "est" : ' || (coalesce(to_json(('null'::jsonb)::json)::text, 'null') || '}'))) || ', "grouping" : ')) || ((coalesce(to_json(json_build_array())::text, 'null') || ', "elements" : ') || (coalesce(to_json(json_agg("gk3"."~json"))::text, 'null') || '}')))::json as "~json"
          from (
            select "Issue1"."id" as "id", 'default::Issue' as "__type__", json_build_object('id', "Issue1"."id") as "~json", jsonb_build_array(to_json("Status2"."name")::jsonb, to_json("Issue1"."time_estimate")::jsonb) as "~key", "Status2"."name" as "s0", "Issue1"."time_estimate" as "s1", to_json("Status2"."name")::jsonb as "j0", to_json("Issue1"."time_estimate")::jsonb as "j1"
            from "default"."Issue" as "Issue1"
              join "default"."Status" as "Status2" on "Status2"."id" = "Issue1"."status"
          ) as "gk3"
        )
        union all
        (
          select jsonb_build_array("gk4"."j0", 'null'::jsonb, 1) as "v", (('{"key" : ' || ((('{"st" : ' || coalesce(to_json("gk4"."j0"::json)::text, 'null')) || (', "est" : ' || (coalesce(to_json(('null'::jsonb)::json)::text, 'null') || '}'))) || ', "grouping" : ')) || ((coalesce(to_json(json_build_array('st'))::text, 'null') || ', "elements" : ') || (coalesce(to_json(json_agg("gk4"."~json"))::text, 'null') || '}')))::json as "~json"
          from (
            select "Issue1"."id" as "id", 'default::Issue' as "__type__", json_build_object('id', "Issue1"."id") as "~json", jsonb_build_array(to_json("Status2"."name")::jsonb, to_json("Issue1"."time_estimate")::jsonb) as "~key", "Status2"."name" as "s0", "Issue1"."time_estimate" as "s1", to_json("Status2"."name")::jsonb as "j0", to_json("Issue1"."time_estimate")::jsonb as "j1"
            from "default"."Issue" as "Issue1"
              join "default"."Status" as "Status2" on "Status2"."id" = "Issue1"."status"
          ) as "gk4"
          group by "gk4"."j0", "gk4"."s0"
        )
      )
      union all
      (
        select jsonb_build_array('null'::jsonb, "gk5"."j1", 2) as "v", (('{"key" : ' || ((('{"st" : ' || coalesce(to_json(('null'::jsonb)::json)::text, 'null')) || (', "est" : ' || (coalesce(to_json("gk5"."j1"::json)::text, 'null') || '}'))) || ', "grouping" : ')) || ((coalesce(to_json(json_build_array('est'))::text, 'null') || ', "elements" : ') || (coalesce(to_json(json_agg("gk5"."~json"))::text, 'null') || '}')))::json as "~json"
        from (
          select "Issue1"."id" as "id", 'default::Issue' as "__type__", json_build_object('id', "Issue1"."id") as "~json", jsonb_build_array(to_json("Status2"."name")::jsonb, to_json("Issue1"."time_estimate")::jsonb) as "~key", "Status2"."name" as "s0", "Issue1"."time_estimate" as "s1", to_json("Status2"."name")::jsonb as "j0", to_json("Issue1"."time_estimate")::jsonb as "j1"
          from "default"."Issue" as "Issue1"
            join "default"."Status" as "Status2" on "Status2"."id" = "Issue1"."status"
        ) as "gk5"
        group by "gk5"."j1", "gk5"."s1"
      )
    )
    union all
    (
      select jsonb_build_array("gk6"."j0", "gk6"."j1", 3) as "v", (('{"key" : ' || ((('{"st" : ' || coalesce(to_json("gk6"."j0"::json)::text, 'null')) || (', "est" : ' || (coalesce(to_json("gk6"."j1"::json)::text, 'null') || '}'))) || ', "grouping" : ')) || ((coalesce(to_json(json_build_array('st', 'est'))::text, 'null') || ', "elements" : ') || (coalesce(to_json(json_agg("gk6"."~json"))::text, 'null') || '}')))::json as "~json"
      from (
        select "Issue1"."id" as "id", 'default::Issue' as "__type__", json_build_object('id', "Issue1"."id") as "~json", jsonb_build_array(to_json("Status2"."name")::jsonb, to_json("Issue1"."time_estimate")::jsonb) as "~key", "Status2"."name" as "s0", "Issue1"."time_estimate" as "s1", to_json("Status2"."name")::jsonb as "j0", to_json("Issue1"."time_estimate")::jsonb as "j1"
        from "default"."Issue" as "Issue1"
          join "default"."Status" as "Status2" on "Status2"."id" = "Issue1"."status"
      ) as "gk6"
      group by "gk6"."j0", "gk6"."s0", "gk6"."j1", "gk6"."s1"
    )
  ) as "q7"
) as "q21"
