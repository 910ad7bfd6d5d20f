insert User {
  name := <str>$name,
  best_friend := (select User filter .name = 'Elvis' limit 1),
  friends := (select User { @since := 2001 } filter .name in {'Yury', 'Ann'}),
  nicknames := {'z', 'zz'}
}
