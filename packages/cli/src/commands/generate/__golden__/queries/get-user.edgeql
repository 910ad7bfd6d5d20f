select User { name, age, mood, friends: { name }, best: { name }, birthday }
filter .id = <uuid>$id;
