select C { things: { [is SubA].*, [is A].*, [is B].title } }
