select distinct on ("i"."owner") "i"."owner" as "owner", count(*) as "all", count(distinct "i"."n") as "distinct_n", array_agg("i"."name" order by "i"."name" asc nulls last) filter (where "i"."n" > ((($1::jsonb) #>> ('{}'::text[]))::int4)) as "names"
from "app"."Item" as "i"
group by "i"."owner"
having count(*) > 1
order by "i"."owner" nulls last, 2 desc
