select array_unpack([(select User { name } filter .name = 'Elvis')])
