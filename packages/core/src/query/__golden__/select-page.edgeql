select User { name, age } order by .name desc then .age offset <int64>$offset limit <int64>$limit
