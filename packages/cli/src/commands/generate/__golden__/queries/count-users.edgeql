select (count(User), [1, 2], (a := 1, b := range(1, 5)));
