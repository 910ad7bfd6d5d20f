select (group Issue using st := .status.name, est := .time_estimate by cube(st, est)) { key, grouping, n := count(.elements) }
