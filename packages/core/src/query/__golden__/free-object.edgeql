select { a := 1, users := User.name }
