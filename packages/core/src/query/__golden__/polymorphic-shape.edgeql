select Named { name, [is Issue].number, [is User].age }
