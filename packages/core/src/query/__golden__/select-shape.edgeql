select User { name, age } filter .name = <str>$name order by .name
