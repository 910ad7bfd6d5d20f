select plus_one(<int64>$n)
