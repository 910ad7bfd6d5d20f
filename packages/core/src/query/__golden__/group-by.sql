-- many std::FreeObject; params: none
select coalesce(json_agg("q6"."~json"), '[]'::json)::text as "result"
from lateral (
  select json_build_object('key', json_build_object('st', ("gk5"."k0"::text)::json), 'grouping', json_build_array('st'), 'elements', json_agg("gk5"."el")) as "~json", true as "v"
  from (
    select "g2"."~json" as "el", to_json("Status4"."name") as "k0", "Status4"."name" as "s0"
    from (
      select "Issue1"."id" as "id", 'default::Issue' as "__type__", json_build_object('name', to_json("Issue1"."name")) as "~json"
      from "default"."Issue" as "Issue1"
    ) as "g2"
      join "default"."Issue" as "Issue3" on "Issue3"."id" = "g2"."id"
      join "default"."Status" as "Status4" on "Status4"."id" = "Issue3"."status"
  ) as "gk5"
  group by "gk5"."s0", "gk5"."k0"::text
  order by "gk5"."s0" asc nulls first
) as "q6"
