select count(User filter .age > 20)
