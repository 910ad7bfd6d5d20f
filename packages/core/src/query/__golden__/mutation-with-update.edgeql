with u := (update Issue filter .number = '1' set { time_estimate := 10 })
select u { name, time_estimate, owner: { name } }
