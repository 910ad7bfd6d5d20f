insert User {
  name := 'Zed',
  friends := (
    for x in {('Ann', 1), ('Yury', 2)}
    union (select detached User { @since := x.1 } filter .name = x.0)
  )
}
