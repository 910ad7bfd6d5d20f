for group Issue using st := .status.name by st in g union (status := st, n := count(g)) order by .n
