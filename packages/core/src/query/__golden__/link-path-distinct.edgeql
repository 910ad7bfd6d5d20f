select Issue.owner.name
