select "x"."ordinality", "c"."n", "u"."u"
from jsonb_array_elements($1::jsonb) with ordinality as "x"("value", "ordinality"),
  lateral (
    select ("x"."value" ->> 'n')::int4 as "n"
  ) as "c"
    left join lateral unnest($2::int4[]) as "u"("u") on "u"."u" = "c"."n",
  jsonb_to_record($3::jsonb) as "r"("a" int4)
