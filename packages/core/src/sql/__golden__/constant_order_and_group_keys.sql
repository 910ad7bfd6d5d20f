select "i"."n", count(*)
from "app"."Item" as "i"
group by "i"."n", 'x'::text, false::boolean
order by true::boolean, 'x'::text desc, null::text, 2
