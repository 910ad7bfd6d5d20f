with "we""ird"("Col""1") as (
  select row(1, 'O''Brien'::text) as "r"
)
select "w"."Col""1" as "select", ("w"."Col""1")."f2", E'a "quoted" \\ text' as "it's", "t"."B b"
from "we""ird" as "w"
  cross join "Mod ule"."T""1" as "t"
where "t"."B b" <> ($1::int4)
