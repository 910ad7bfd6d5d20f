# Posts by a title prefix, newest first.
select Post { title, author: { name } }
filter .title like <str>$prefix ++ '%'
limit <optional int64>$limit;
