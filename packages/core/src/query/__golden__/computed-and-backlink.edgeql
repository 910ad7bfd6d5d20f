select User { name, n := count(.friends), issues := .<owner[is Issue] { name } }
