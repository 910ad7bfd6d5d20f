select Issue { name, owner: { name, @note }, watchers: { name } order by .name limit 2 } order by .number
