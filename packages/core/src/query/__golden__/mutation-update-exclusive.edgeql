update Issue filter .number = '1' set { number := '2', body := 'moved' }
