select User { name, age, best_friend } filter .id = <uuid>$id
