with u := (select User filter .age > 26) select u { name }
