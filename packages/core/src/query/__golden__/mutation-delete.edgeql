delete Issue filter .owner.name = 'Elvis' order by .number desc limit 1
