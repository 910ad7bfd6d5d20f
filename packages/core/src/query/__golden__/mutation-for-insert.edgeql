for n in {'One', 'Two'} union (insert Status { name := n })
