insert User {
  name := <str>$name,
  best_friend := (select detached User filter .name = 'Elvis' limit 1),
  friends := (select detached User { @since := 2001 } filter .name in {'Yury', 'Ann'}),
  nicknames := {'z', 'zz'}
}
