update User filter .id = <uuid>$id set {
  age := .age + 1,
  friends += (select detached User filter .name = 'Ann'),
  nicknames -= 'E'
}
