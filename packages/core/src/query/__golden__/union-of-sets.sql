-- many default::Issue | default::LogEntry; params: none
select coalesce(json_agg("q11"."~json" order by "q11"."~ord"), '[]'::json)::text as "result"
from lateral (
  select "q4"."id" as "id", "q4"."__type__" as "__type__", json_build_object('body', (
    select "e6"."~json"
    from (
      select "LogEntry5"."body" as "v", to_json("LogEntry5"."body") as "~json"
      from (
        (
          select "id" as "id", "name" as "name", "owner" as "owner", "owner@note" as "owner@note", "body" as "body", "number" as "number", "status" as "status", "time_estimate" as "time_estimate", "tags" as "tags", "due_date" as "due_date", null::bigint as "spent_time", 'default::Issue' as "__type__"
          from "default"."Issue" as "Issue"
        )
        union all
        (
          select "id" as "id", null::text as "name", "owner" as "owner", "owner@note" as "owner@note", "body" as "body", null::text as "number", null::uuid as "status", null::bigint as "time_estimate", null::text[] as "tags", null::timestamptz as "due_date", "spent_time" as "spent_time", 'default::LogEntry' as "__type__"
          from "default"."LogEntry" as "LogEntry"
        )
      ) as "LogEntry5"
      where "LogEntry5"."id" = "q4"."id"
    ) as "e6"
  ), 'number', case when "q4"."__type__" in ('default::Issue') then (
    select "e8"."~json"
    from (
      select "Issue7"."number" as "v", to_json("Issue7"."number") as "~json"
      from "default"."Issue" as "Issue7"
      where "Issue7"."id" = "q4"."id"
    ) as "e8"
  ) else null::json end, '__type__', (
    select json_agg("e10"."~json")
    from (
      select "ty9"."id" as "id", 'schema::ObjectType' as "__type__", json_build_object('name', to_json("ty9"."name")) as "~json"
      from (
        values ('b89ad4c1-3208-58e0-9c3b-ceea7c6bed79'::uuid, 'default::Admin', false), ('a6c4e987-e5fa-5049-83f8-ffb7ec92f3ba'::uuid, 'default::Comment', false), ('408cd00d-996d-5a4f-9fe2-73fd710ab0bd'::uuid, 'default::Issue', false), ('bf8c0cab-6165-5ed6-866f-4aa7982aa7b1'::uuid, 'default::LogEntry', false), ('c31cedba-1ac4-5bcf-91ee-dc8401f19a98'::uuid, 'default::Named', true), ('b37ada8d-dab6-5587-8f4e-7d25a334b7c5'::uuid, 'default::Owned', true), ('4f3c68fd-49c8-5780-bf75-7891f75a0965'::uuid, 'default::Status', false), ('c582ad45-3f9f-5fba-982b-b0e9ff663abb'::uuid, 'default::Text', true), ('14b7df39-eb1e-51af-af40-0f59d547f811'::uuid, 'default::User', false), ('339d3629-9b82-56b2-bd48-a04e14c01bd2'::uuid, 'schema::ObjectType', false), ('f7e37277-021b-51af-aa0b-09b0a2bea073'::uuid, 'std::BaseObject', true), ('d6d62b31-ecd6-5856-8888-ca1f73216c7b'::uuid, 'std::Object', true)
      ) as "ty9"("id", "name", "abstract")
      where "ty9"."name" = "q4"."__type__"
    ) as "e10"
  )) as "~json", row_number() over (order by "q4"."~ord") as "~ord"
  from lateral (
    select "un3".*, row_number() over (order by "un3"."~u1", "un3"."~u2") as "~ord"
    from (
      (
        select "id" as "id", "__type__" as "__type__", "~json" as "~json", 0 as "~u1", 0 as "~u2"
        from (
          select "Issue1"."id" as "id", 'default::Issue' as "__type__", json_build_object('id', "Issue1"."id") as "~json"
          from "default"."Issue" as "Issue1"
        ) as "b0"
      )
      union all
      (
        select "id" as "id", "__type__" as "__type__", "~json" as "~json", 1 as "~u1", 0 as "~u2"
        from (
          select "LogEntry2"."id" as "id", 'default::LogEntry' as "__type__", json_build_object('id', "LogEntry2"."id") as "~json"
          from "default"."LogEntry" as "LogEntry2"
        ) as "b1"
      )
    ) as "un3"
  ) as "q4"
) as "q11"
