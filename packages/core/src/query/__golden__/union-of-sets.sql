-- many default::Issue | default::LogEntry; params: none
select coalesce('[' || (string_agg(coalesce("q10"."~text", 'null'), ', ' order by "q10"."~o0", "q10"."~o1") || ']'), '[]') as "result"
from lateral (
  select "q3"."id" as "id", "q3"."__type__" as "__type__", ('{"body":' || (coalesce(to_json((
    select "e5"."~json"
    from (
      select "LogEntry4"."body" as "v", to_json("LogEntry4"."body") as "~json"
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
      ) as "LogEntry4"
      where "LogEntry4"."id" = "q3"."id"
    ) as "e5"
  ))::text, 'null') || ',"number":')) || ((coalesce(to_json(case when "q3"."__type__" in ('default::Issue') then (
    select "e7"."~json"
    from (
      select "Issue6"."number" as "v", to_json("Issue6"."number") as "~json"
      from "default"."Issue" as "Issue6"
      where "Issue6"."id" = "q3"."id"
    ) as "e7"
  ) else null::json end)::text, 'null') || ',"__type__":') || (coalesce((
    select '[' || (string_agg(coalesce("e9"."~text", 'null'), ', ') || ']')
    from (
      select "ty8"."id" as "id", 'schema::ObjectType' as "__type__", '{"name":' || (coalesce(to_json("ty8"."name")::text, 'null') || '}') as "~text"
      from (
        values ('b89ad4c1-3208-58e0-9c3b-ceea7c6bed79'::uuid, 'default::Admin'::text, false, false, false, false, false, false, null::text, false, false, false, false), ('a6c4e987-e5fa-5049-83f8-ffb7ec92f3ba', 'default::Comment', false, false, false, false, false, false, null, false, false, false, false), ('408cd00d-996d-5a4f-9fe2-73fd710ab0bd', 'default::Issue', false, false, false, false, false, false, null, false, false, false, false), ('bf8c0cab-6165-5ed6-866f-4aa7982aa7b1', 'default::LogEntry', false, false, false, false, false, false, null, false, false, false, false), ('c31cedba-1ac4-5bcf-91ee-dc8401f19a98', 'default::Named', false, false, true, true, false, false, null, false, false, false, false), ('b37ada8d-dab6-5587-8f4e-7d25a334b7c5', 'default::Owned', false, false, true, true, false, false, null, false, false, false, false), ('4f3c68fd-49c8-5780-bf75-7891f75a0965', 'default::Status', false, false, false, false, false, false, null, false, false, false, false), ('c582ad45-3f9f-5fba-982b-b0e9ff663abb', 'default::Text', false, false, true, true, false, false, null, false, false, false, false), ('14b7df39-eb1e-51af-af40-0f59d547f811', 'default::User', false, false, false, false, false, false, null, false, false, false, false), ('d80032d6-38a3-5b31-8917-33e8500a4678', 'schema::AccessPolicy', false, true, false, false, false, false, null, false, false, false, false), ('0fca92b9-9ea9-529c-8ccf-74fc738b2104', 'schema::Alias', false, true, false, false, false, false, null, false, false, false, false), ('70362c2f-7aa1-599e-9877-878971ad4a46', 'schema::Annotation', false, true, false, false, false, false, null, false, false, false, false), ('33fd78ab-e2f9-57f6-bd09-dcd785d2e4ae', 'schema::AnnotationSubject', false, true, true, true, false, false, null, false, false, false, false), ('a4e422f9-ca56-54cd-9da3-d090f1e3ee29', 'schema::Array', false, true, false, false, false, false, null, false, false, false, false), ('a431f6e7-9cf6-590f-a925-022345a2fd54', 'schema::ArrayExprAlias', false, true, false, false, false, false, null, false, false, false, false), ('2fde356d-4139-50c9-84b9-6807098211bd', 'schema::CallableObject', false, true, true, true, false, false, null, false, false, false, false), ('09ebefb9-7539-5882-8584-15de295a8f1f', 'schema::Cast', false, true, false, false, false, false, null, false, false, false, false), ('c149c5b7-b947-5d66-b033-7a08f5df0dcc', 'schema::CollectionType', false, true, true, true, false, false, null, false, false, false, false), ('4eb68ed3-a0ff-5286-bb28-617563328e25', 'schema::ConsistencySubject', false, true, true, true, false, false, null, false, false, false, false), ('cffbaaea-33ee-535f-b25d-a65ae1f9b823', 'schema::Constraint', false, true, false, false, false, false, null, false, false, false, false), ('0cc7c6d8-6602-53a4-9ab6-11441974b3e9', 'schema::Delta', false, true, false, false, false, false, null, false, false, false, false), ('16117612-82f0-5799-b67f-826199e2204f', 'schema::Extension', false, true, false, false, false, false, null, false, false, false, false), ('1deb57ea-1ce1-5edc-97e8-fad10e27f323', 'schema::Function', false, true, false, false, false, false, null, false, false, false, false), ('410a9bff-bfd1-51de-a04f-64ba253f09a1', 'schema::FutureBehavior', false, true, false, false, false, false, null, false, false, false, false), ('1d392c84-00f4-5d91-b2bf-c4ae3f83053b', 'schema::Global', false, true, false, false, false, false, null, false, false, false, false), ('fc923df0-7b17-5f8d-83a6-af18fce10589', 'schema::Index', false, true, false, false, false, false, null, false, false, false, false), ('34cd3f76-4ed3-526e-94bd-f02040f4b8b0', 'schema::InheritingObject', false, true, true, true, false, false, null, false, false, false, false), ('54ce68bb-8825-510b-a631-55d5208a0242', 'schema::Link', false, true, false, false, false, false, null, false, false, false, false), ('8f8042c5-8622-512b-b027-bcff8bd3db97', 'schema::Migration', false, true, false, false, false, false, null, false, false, false, false), ('b290141c-e014-5bad-aaad-6f272f88310c', 'schema::Module', false, true, false, false, false, false, null, false, false, false, false), ('1f2733bf-0d2d-5d95-b20d-8141041daf17', 'schema::MultiRange', false, true, false, false, false, false, null, false, false, false, false), ('6b674808-59d8-5ca6-9f8b-9ac456a1e29d', 'schema::MultiRangeExprAlias', false, true, false, false, false, false, null, false, false, false, false), ('f8e82a58-5f52-5eed-aba7-f7b5a0ceb17b', 'schema::Object', false, true, true, true, false, false, null, false, false, false, false), ('339d3629-9b82-56b2-bd48-a04e14c01bd2', 'schema::ObjectType', false, true, false, false, false, false, null, false, false, false, false), ('588365d6-d7ea-56c1-ba78-34f3fa3ceba7', 'schema::Operator', false, true, false, false, false, false, null, false, false, false, false), ('db57f7ee-5234-57be-b9e8-abdcfa0ab7b3', 'schema::Parameter', false, true, false, false, false, false, null, false, false, false, false), ('77357b89-ea7e-5dd1-947a-c97f564efec1', 'schema::Permission', false, true, false, false, false, false, null, false, false, false, false), ('c41b481f-c919-57cc-bb03-cad0ba0629d7', 'schema::Pointer', false, true, true, true, false, false, null, false, false, false, false), ('fcb13573-7a87-595b-974b-629047ded36d', 'schema::PrimitiveType', false, true, true, true, false, false, null, false, false, false, false), ('2ffee9b0-ac5f-509e-9c42-77f933a9096d', 'schema::Property', false, true, false, false, false, false, null, false, false, false, false), ('553dbd03-4fbf-53c4-8120-1d76cf916386', 'schema::PseudoType', false, true, false, false, false, false, null, false, false, false, false), ('947ab96c-374b-5f9f-addc-876482e20b57', 'schema::Range', false, true, false, false, false, false, null, false, false, false, false), ('0e48f6c8-dc3e-5003-b74a-e80043e3d0ab', 'schema::RangeExprAlias', false, true, false, false, false, false, null, false, false, false, false), ('5cf9fa25-4c51-5424-b451-04d009730b99', 'schema::Rewrite', false, true, false, false, false, false, null, false, false, false, false), ('13b06094-6210-59ef-8834-ee748c57830b', 'schema::ScalarType', false, true, false, false, false, false, null, false, false, false, false), ('e24867cc-b36e-5dfd-9371-5367adf5385f', 'schema::Source', false, true, true, true, false, false, null, false, false, false, false), ('0f3ac14f-f3d9-5c25-b472-efcf9eda508a', 'schema::SubclassableObject', false, true, true, true, false, false, null, false, false, false, false), ('f88e1a59-58f4-59d1-a21f-b3b5951cdd1c', 'schema::Trigger', false, true, false, false, false, false, null, false, false, false, false), ('949d3dff-49ae-5f40-8a86-714d326dea96', 'schema::Tuple', false, true, false, false, false, false, null, false, false, false, false), ('5a62be17-afdf-59a8-a689-653802d24542', 'schema::TupleElement', false, true, false, false, false, false, null, false, false, false, false), ('f74c6436-24b7-5dcf-a7fb-c5c92cac2715', 'schema::TupleExprAlias', false, true, false, false, false, false, null, false, false, false, false), ('e395c2a1-92b8-52b8-993d-783f4713f463', 'schema::Type', false, true, true, true, false, false, null, false, false, false, false), ('0385f58f-1835-520b-a1d6-24c4272fd56c', 'schema::VolatilitySubject', false, true, true, true, false, false, null, false, false, false, false), ('f7e37277-021b-51af-aa0b-09b0a2bea073', 'std::BaseObject', false, true, true, true, false, false, null, false, false, false, false), ('d6d62b31-ecd6-5856-8888-ca1f73216c7b', 'std::Object', false, true, true, true, false, false, null, false, false, false, false), ('9c0c2412-bb5b-520c-b139-5f8c02c7dbf7', 'default::OpenIssues', false, false, false, false, false, false, null, true, true, false, false)
      ) as "ty8"("id", "name", "internal", "builtin", "abstract", "is_abstract", "final", "is_final", "expr", "from_alias", "is_from_alias", "compound_type", "is_compound_type")
      where "ty8"."name" = "q3"."__type__"
    ) as "e9"
  ), 'null') || '}')) as "~text", "q3"."~u1" as "~o0", "q3"."~u2" as "~o1"
  from lateral (
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
  ) as "q3"
) as "q10"
