# The compiler's test schema, modelled on Gel's tests/schemas/issues.esdl (written for svc):
# an issue tracker with abstract bases, single and multi links, link properties, a computed
# pointer, an exclusive property, a polymorphic link target and an SDL function.
module default {
  abstract type Named {
    required name: str;
  }

  abstract type Owned {
    required owner: User {
      note: str;
    }
  }

  abstract type Text {
    required body: str;
  }

  type User extending Named {
    age: int64;
    best_friend: User;
    multi friends: User {
      since: int64;
    }
    multi todo: Issue {
      rank: int64;
    }
    multi nicknames: str;
  }

  type Admin extending User {
    level: int64;
  }

  type Status extending Named;

  type Issue extending Named, Owned, Text {
    required number: str {
      constraint exclusive;
    }
    required status: Status;
    multi watchers: User;
    num_watchers := count(.watchers);
    time_estimate: int64;
    tags: array<str>;
    due_date: datetime;
    multi related_to: Issue;
  }

  type LogEntry extending Owned, Text {
    required spent_time: int64;
  }

  type Comment extending Owned, Text {
    required issue: Issue;
    parent: Comment;
  }

  function plus_one(x: int64) -> int64 using (x + 1);

  alias OpenIssues := (select Issue filter .status.name = 'Open');
}
