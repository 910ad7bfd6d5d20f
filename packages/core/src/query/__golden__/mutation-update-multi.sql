-- atMostOne default::User; params: $id: std::uuid
with "update_src1" as materialized (
  select "User2"."id" as "id", "User2"."__type__" as "__type__", "User2"."age" + (1::bigint) as "c0"
  from (
    (
      select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", "level" as "level", 'default::Admin' as "__type__"
      from "default"."Admin" as "Admin"
    )
    union all
    (
      select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", null::bigint as "level", 'default::User' as "__type__"
      from "default"."User" as "User"
    )
  ) as "User2"
  where "User2"."id" = ((($1::jsonb) #>> '{}')::uuid)
),
"pairs7" as materialized (
  select "o3"."id" as "source", "q6"."id" as "target", "o3"."__type__" as "~type"
  from "update_src1" as "o3"
    join lateral (
      select "User5"."id" as "id", "User5"."__type__" as "__type__", json_build_object('id', "User5"."id") as "~json"
      from (
        (
          select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", "level" as "level", 'default::Admin' as "__type__"
          from "default"."Admin" as "Admin"
        )
        union all
        (
          select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", null::bigint as "level", 'default::User' as "__type__"
          from "default"."User" as "User"
        )
      ) as "User5"
      where "User5"."name" = ('Ann'::text)
    ) as "q6" on true
  where "q6"."id" is not null
),
"pairs10" as materialized (
  select "o8"."id" as "source", 'E'::text as "value", "o8"."__type__" as "~type"
  from "update_src1" as "o8"
  where ('E'::text) is not null
),
"update11" as (
  update "default"."Admin" as "t"
  set "age" = "s"."c0"
  from "update_src1" as "s"
  where "t"."id" = "s"."id"
  returning "t".*
),
"update12" as (
  update "default"."User" as "t"
  set "age" = "s"."c0"
  from "update_src1" as "s"
  where "t"."id" = "s"."id"
  returning "t".*
),
"link13" as (
  insert into "default"."Admin.friends" ("source", "target")
  select "p"."source", "p"."target"
  from "pairs7" as "p"
  where "p"."~type" = 'default::Admin'
  on conflict ("source", "target") do nothing
),
"link14" as (
  insert into "default"."User.friends" ("source", "target")
  select "p"."source", "p"."target"
  from "pairs7" as "p"
  where "p"."~type" = 'default::User'
  on conflict ("source", "target") do nothing
),
"unlink15" as (
  delete from "default"."Admin.nicknames" as "j"
  using (
    select "r0"."ctid" as "rid", "r0"."source" as "source", "r0"."value" as "v", row_number() over (partition by "r0"."source", "r0"."value" order by "r0"."ctid") as "n"
    from "default"."Admin.nicknames" as "r0"
    where exists (
      select 1
      from "pairs10" as "q0"
      where ("q0"."source" = "r0"."source") and ("q0"."value" = "r0"."value")
    )
  ) as "r"
  where ("j"."ctid" = "r"."rid") and ("r"."n" <= (
    select count(*)
    from "pairs10" as "q"
    where ("q"."source" = "r"."source") and ("q"."value" = "r"."v")
  ))
),
"unlink16" as (
  delete from "default"."User.nicknames" as "j"
  using (
    select "r0"."ctid" as "rid", "r0"."source" as "source", "r0"."value" as "v", row_number() over (partition by "r0"."source", "r0"."value" order by "r0"."ctid") as "n"
    from "default"."User.nicknames" as "r0"
    where exists (
      select 1
      from "pairs10" as "q0"
      where ("q0"."source" = "r0"."source") and ("q0"."value" = "r0"."value")
    )
  ) as "r"
  where ("j"."ctid" = "r"."rid") and ("r"."n" <= (
    select count(*)
    from "pairs10" as "q"
    where ("q"."source" = "r"."source") and ("q"."value" = "r"."v")
  ))
)
select coalesce(json_agg(case when "w17"."__type__" = 'default::Admin' then (((('{"id":' || coalesce(to_json("w17"."id")::text, 'null')) || (',"name":' || coalesce(to_json("w17"."name")::text, 'null'))) || ((',"age":' || coalesce(to_json("w17"."age")::text, 'null')) || (',"best_friend":' || coalesce(to_json("w17"."best_friend")::text, 'null')))) || (((',"friends":' || coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    (
      select "jr"."target" as "v"
      from (
        select "source", "target"
        from "default"."Admin.friends"
      ) as "jr"
      where "jr"."source" = "w17"."id"
    )
    union
    (
      select "pr"."target" as "v"
      from "pairs7" as "pr"
      where "pr"."source" = "w17"."id"
    )
  ) as "r"
))::text, 'null')) || (',"todo":' || coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    select "jr"."target" as "v"
    from (
      select "source", "target"
      from "default"."Admin.todo"
    ) as "jr"
    where "jr"."source" = "w17"."id"
  ) as "r"
))::text, 'null'))) || ((',"nicknames":' || coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    select "jr"."value" as "v"
    from (
      select "source", "value"
      from "default"."Admin.nicknames"
    ) as "jr"
    where ("jr"."source" = "w17"."id") and (not exists (
      select 1
      from "pairs10" as "pr"
      where ("pr"."source" = "w17"."id") and ("pr"."value" = "jr"."value")
    ))
  ) as "r"
))::text, 'null')) || (',"level":' || (coalesce(to_json("w17"."level")::text, 'null') || '}')))))::json when "w17"."__type__" = 'default::User' then ((('{"id":' || (coalesce(to_json("w17"."id")::text, 'null') || ',"name":')) || ((coalesce(to_json("w17"."name")::text, 'null') || ',"age":') || (coalesce(to_json("w17"."age")::text, 'null') || ',"best_friend":'))) || (((coalesce(to_json("w17"."best_friend")::text, 'null') || ',"friends":') || (coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    (
      select "jr"."target" as "v"
      from (
        (
          select "source", "target"
          from "default"."Admin.friends"
        )
        union all
        (
          select "source", "target"
          from "default"."User.friends"
        )
      ) as "jr"
      where "jr"."source" = "w17"."id"
    )
    union
    (
      select "pr"."target" as "v"
      from "pairs7" as "pr"
      where "pr"."source" = "w17"."id"
    )
  ) as "r"
))::text, 'null') || ',"todo":')) || ((coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    select "jr"."target" as "v"
    from (
      (
        select "source", "target"
        from "default"."Admin.todo"
      )
      union all
      (
        select "source", "target"
        from "default"."User.todo"
      )
    ) as "jr"
    where "jr"."source" = "w17"."id"
  ) as "r"
))::text, 'null') || ',"nicknames":') || (coalesce(to_json((
  select coalesce(json_agg(to_json("r"."v")), '[]'::json)
  from (
    select "jr"."value" as "v"
    from (
      (
        select "source", "value"
        from "default"."Admin.nicknames"
      )
      union all
      (
        select "source", "value"
        from "default"."User.nicknames"
      )
    ) as "jr"
    where ("jr"."source" = "w17"."id") and (not exists (
      select 1
      from "pairs10" as "pr"
      where ("pr"."source" = "w17"."id") and ("pr"."value" = "jr"."value")
    ))
  ) as "r"
))::text, 'null') || '}'))))::json else json_build_object('id', "w17"."id") end), '[]'::json)::text as "result"
from (
  (
    select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", "level" as "level", 'default::Admin' as "__type__"
    from "update11"
  )
  union all
  (
    select "id" as "id", "name" as "name", "age" as "age", "best_friend" as "best_friend", null::bigint as "level", 'default::User' as "__type__"
    from "update12"
  )
) as "w17"
