insert User {
  name := 'Zed',
  best_friend := (select User filter .name = 'Ann' limit 1),
  friends := {
    (select User { @since := 1 } filter .name = 'Ann'),
    (select User { @since := 2 } filter .name = 'Yury')
  } union (select User filter .name = 'Elvis')
}
