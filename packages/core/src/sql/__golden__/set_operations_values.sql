(
  values (1, 'it''s'), (-2, null)
)
union all
(
  (
    select "i"."n", "i"."name"
    from "app"."Item" as "i"
  )
  except
  (
    select (($1::jsonb) #>> ('{}'::text[]))::int4, ($2::jsonb) #>> ('{}'::text[])
  )
)
order by 1
limit (($3::jsonb) #>> ('{}'::text[]))::int8
