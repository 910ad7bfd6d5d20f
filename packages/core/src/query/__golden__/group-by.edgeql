group Issue { name } using st := .status.name by st
