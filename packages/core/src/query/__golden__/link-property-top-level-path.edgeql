select User.friends { name, @since } order by .name
