select C { cname, things: { label, [is A].name, [is B].title, __type__: { name } }, one } filter .cname = 'c1'
