-- many default::C; params: none
select coalesce('[' || (string_agg(coalesce("q11"."~text", 'null'), ', ') || ']'), '[]') as "result"
from lateral (
  select "C1"."id" as "id", 'default::C' as "__type__", ('{"cname":' || (coalesce(to_json("C1"."cname")::text, 'null') || ',"things":')) || ((coalesce((
    select coalesce('[' || (string_agg(coalesce("e10"."~text", 'null'), ', ') || ']'), '[]')
    from (
      select "B3"."id" as "id", "B3"."__type__" as "__type__", (('{"label":' || coalesce(to_json("B3"."label")::text, 'null')) || (',"name":' || coalesce(to_json(case when "B3"."__type__" in ('default::A', 'default::SubA') then (
        select "e5"."~json"
        from (
          select "A4"."name" as "v", to_json("A4"."name") as "~json"
          from (
            (
              select "id" as "id", "name" as "name", "label" as "label", null::bigint as "extra", 'default::A' as "__type__"
              from "default"."A" as "A"
            )
            union all
            (
              select "id" as "id", "name" as "name", "label" as "label", "extra" as "extra", 'default::SubA' as "__type__"
              from "default"."SubA" as "SubA"
            )
          ) as "A4"
          where "A4"."id" = "B3"."id"
        ) as "e5"
      ) else null::json end)::text, 'null'))) || ((',"title":' || coalesce(to_json(case when "B3"."__type__" in ('default::B') then (
        select "e7"."~json"
        from (
          select "B6"."title" as "v", to_json("B6"."title") as "~json"
          from "default"."B" as "B6"
          where ("B6"."id" = "B3"."id") and ("B6"."title" is not null)
        ) as "e7"
      ) else null::json end)::text, 'null')) || (',"__type__":' || (coalesce((
        select '[' || (string_agg(coalesce("e9"."~text", 'null'), ', ') || ']')
        from (
          select "ty8"."id" as "id", 'schema::ObjectType' as "__type__", '{"name":' || (coalesce(to_json("ty8"."name")::text, 'null') || '}') as "~text"
          from (
            values ('285fd67e-032a-59de-bcef-687e8b5effa4'::uuid, 'default::A'::text, false, false, false, false, false, false, null::text, false, false, false, false), ('35fbdc43-21ea-50ce-9b53-08a525a47e1e', 'default::B', false, false, false, false, false, false, null, false, false, false, false), ('3976d5dd-aff5-58e1-8cb0-ed4f7032a5d7', 'default::C', false, false, false, false, false, false, null, false, false, false, false), ('e0aaea3a-5678-5c4e-87e8-54cd0cddf8e6', 'default::A | default::B', false, true, true, true, false, false, null, false, false, true, true), ('265e37ab-78c0-56fc-aa98-3d72d1821ffe', 'default::D', false, false, false, false, false, false, null, false, false, false, false), ('b03d0e57-e09b-5d1f-802b-6d8d098a0f59', 'default::SubA', false, false, false, false, false, false, null, false, false, false, false), ('d80032d6-38a3-5b31-8917-33e8500a4678', 'schema::AccessPolicy', false, true, false, false, false, false, null, false, false, false, false), ('0fca92b9-9ea9-529c-8ccf-74fc738b2104', 'schema::Alias', false, true, false, false, false, false, null, false, false, false, false), ('70362c2f-7aa1-599e-9877-878971ad4a46', 'schema::Annotation', false, true, false, false, false, false, null, false, false, false, false), ('33fd78ab-e2f9-57f6-bd09-dcd785d2e4ae', 'schema::AnnotationSubject', false, true, true, true, false, false, null, false, false, false, false), ('a4e422f9-ca56-54cd-9da3-d090f1e3ee29', 'schema::Array', false, true, false, false, false, false, null, false, false, false, false), ('a431f6e7-9cf6-590f-a925-022345a2fd54', 'schema::ArrayExprAlias', false, true, false, false, false, false, null, false, false, false, false), ('2fde356d-4139-50c9-84b9-6807098211bd', 'schema::CallableObject', false, true, true, true, false, false, null, false, false, false, false), ('09ebefb9-7539-5882-8584-15de295a8f1f', 'schema::Cast', false, true, false, false, false, false, null, false, false, false, false), ('c149c5b7-b947-5d66-b033-7a08f5df0dcc', 'schema::CollectionType', false, true, true, true, false, false, null, false, false, false, false), ('4eb68ed3-a0ff-5286-bb28-617563328e25', 'schema::ConsistencySubject', false, true, true, true, false, false, null, false, false, false, false), ('cffbaaea-33ee-535f-b25d-a65ae1f9b823', 'schema::Constraint', false, true, false, false, false, false, null, false, false, false, false), ('0cc7c6d8-6602-53a4-9ab6-11441974b3e9', 'schema::Delta', false, true, false, false, false, false, null, false, false, false, false), ('16117612-82f0-5799-b67f-826199e2204f', 'schema::Extension', false, true, false, false, false, false, null, false, false, false, false), ('1deb57ea-1ce1-5edc-97e8-fad10e27f323', 'schema::Function', false, true, false, false, false, false, null, false, false, false, false), ('410a9bff-bfd1-51de-a04f-64ba253f09a1', 'schema::FutureBehavior', false, true, false, false, false, false, null, false, false, false, false), ('1d392c84-00f4-5d91-b2bf-c4ae3f83053b', 'schema::Global', false, true, false, false, false, false, null, false, false, false, false), ('fc923df0-7b17-5f8d-83a6-af18fce10589', 'schema::Index', false, true, false, false, false, false, null, false, false, false, false), ('34cd3f76-4ed3-526e-94bd-f02040f4b8b0', 'schema::InheritingObject', false, true, true, true, false, false, null, false, false, false, false), ('54ce68bb-8825-510b-a631-55d5208a0242', 'schema::Link', false, true, false, false, false, false, null, false, false, false, false), ('8f8042c5-8622-512b-b027-bcff8bd3db97', 'schema::Migration', false, true, false, false, false, false, null, false, false, false, false), ('b290141c-e014-5bad-aaad-6f272f88310c', 'schema::Module', false, true, false, false, false, false, null, false, false, false, false), ('1f2733bf-0d2d-5d95-b20d-8141041daf17', 'schema::MultiRange', false, true, false, false, false, false, null, false, false, false, false), ('6b674808-59d8-5ca6-9f8b-9ac456a1e29d', 'schema::MultiRangeExprAlias', false, true, false, false, false, false, null, false, false, false, false), ('f8e82a58-5f52-5eed-aba7-f7b5a0ceb17b', 'schema::Object', false, true, true, true, false, false, null, false, false, false, false), ('339d3629-9b82-56b2-bd48-a04e14c01bd2', 'schema::ObjectType', false, true, false, false, false, false, null, false, false, false, false), ('588365d6-d7ea-56c1-ba78-34f3fa3ceba7', 'schema::Operator', false, true, false, false, false, false, null, false, false, false, false), ('db57f7ee-5234-57be-b9e8-abdcfa0ab7b3', 'schema::Parameter', false, true, false, false, false, false, null, false, false, false, false), ('77357b89-ea7e-5dd1-947a-c97f564efec1', 'schema::Permission', false, true, false, false, false, false, null, false, false, false, false), ('c41b481f-c919-57cc-bb03-cad0ba0629d7', 'schema::Pointer', false, true, true, true, false, false, null, false, false, false, false), ('fcb13573-7a87-595b-974b-629047ded36d', 'schema::PrimitiveType', false, true, true, true, false, false, null, false, false, false, false), ('2ffee9b0-ac5f-509e-9c42-77f933a9096d', 'schema::Property', false, true, false, false, false, false, null, false, false, false, false), ('553dbd03-4fbf-53c4-8120-1d76cf916386', 'schema::PseudoType', false, true, false, false, false, false, null, false, false, false, false), ('947ab96c-374b-5f9f-addc-876482e20b57', 'schema::Range', false, true, false, false, false, false, null, false, false, false, false), ('0e48f6c8-dc3e-5003-b74a-e80043e3d0ab', 'schema::RangeExprAlias', false, true, false, false, false, false, null, false, false, false, false), ('5cf9fa25-4c51-5424-b451-04d009730b99', 'schema::Rewrite', false, true, false, false, false, false, null, false, false, false, false), ('13b06094-6210-59ef-8834-ee748c57830b', 'schema::ScalarType', false, true, false, false, false, false, null, false, false, false, false), ('e24867cc-b36e-5dfd-9371-5367adf5385f', 'schema::Source', false, true, true, true, false, false, null, false, false, false, false), ('0f3ac14f-f3d9-5c25-b472-efcf9eda508a', 'schema::SubclassableObject', false, true, true, true, false, false, null, false, false, false, false), ('f88e1a59-58f4-59d1-a21f-b3b5951cdd1c', 'schema::Trigger', false, true, false, false, false, false, null, false, false, false, false), ('949d3dff-49ae-5f40-8a86-714d326dea96', 'schema::Tuple', false, true, false, false, false, false, null, false, false, false, false), ('5a62be17-afdf-59a8-a689-653802d24542', 'schema::TupleElement', false, true, false, false, false, false, null, false, false, false, false), ('f74c6436-24b7-5dcf-a7fb-c5c92cac2715', 'schema::TupleExprAlias', false, true, false, false, false, false, null, false, false, false, false), ('e395c2a1-92b8-52b8-993d-783f4713f463', 'schema::Type', false, true, true, true, false, false, null, false, false, false, false), ('0385f58f-1835-520b-a1d6-24c4272fd56c', 'schema::VolatilitySubject', false, true, true, true, false, false, null, false, false, false, false), ('f7e37277-021b-51af-aa0b-09b0a2bea073', 'std::BaseObject', false, true, true, true, false, false, null, false, false, false, false), ('d6d62b31-ecd6-5856-8888-ca1f73216c7b', 'std::Object', false, true, true, true, false, false, null, false, false, false, false)
          ) as "ty8"("id", "name", "internal", "builtin", "abstract", "is_abstract", "final", "is_final", "expr", "from_alias", "is_from_alias", "compound_type", "is_compound_type")
          where "ty8"."name" = "B3"."__type__"
        ) as "e9"
      ), 'null') || '}'))) as "~text"
      from "default"."C.things" as "j2"
        join (
          (
            (
              select "id" as "id", "name" as "name", "label" as "label", null::text as "title", null::bigint as "extra", 'default::A' as "__type__"
              from "default"."A" as "A"
            )
            union all
            (
              select "id" as "id", null::text as "name", "label" as "label", "title" as "title", null::bigint as "extra", 'default::B' as "__type__"
              from "default"."B" as "B"
            )
          )
          union all
          (
            select "id" as "id", "name" as "name", "label" as "label", null::text as "title", "extra" as "extra", 'default::SubA' as "__type__"
            from "default"."SubA" as "SubA"
          )
        ) as "B3" on "B3"."id" = "j2"."target"
      where "j2"."source" = "C1"."id"
    ) as "e10"
  ), 'null') || ',"one":') || (coalesce('"' || (("C1"."one"::text) || '"'), 'null') || '}')) as "~text"
  from "default"."C" as "C1"
  where "C1"."cname" = ('c1'::text)
) as "q11"
