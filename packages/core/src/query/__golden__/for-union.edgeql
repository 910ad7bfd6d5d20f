for x in {1, 2} union (x * 10)
