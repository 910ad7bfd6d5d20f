with x := array_unpack(<array<int64>>$a) select x order by x desc offset 7 limit 300
