select A { name, back := .<one[is C].cname }
