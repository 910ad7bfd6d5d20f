select (Issue union LogEntry) { body, [is Issue].number, __type__: { name } }
