insert C { cname := 'x', one := (select A limit 1), things := (select B) }
