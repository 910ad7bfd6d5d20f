insert User {
  name := 'Zed',
  best_friend := (select detached User filter .name = 'Ann' limit 1),
  friends := {
    (select detached User { @since := 1 } filter .name = 'Ann'),
    (select detached User { @since := 2 } filter .name = 'Yury')
  } union (select detached User filter .name = 'Elvis')
}
