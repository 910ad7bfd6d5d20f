select (
  insert Issue {
    name := 'Dup', body := 'b', number := <str>$number,
    owner := (select User filter .name = 'Elvis' limit 1),
    status := (select Status filter .name = 'Open' limit 1)
  }
  unless conflict on .number
  else (update Issue set { body := 'reopened' })
) { name, body }
