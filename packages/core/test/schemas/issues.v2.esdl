# An issue tracker, v2: a new Urgent-first priority order stays, adds milestones, a due date,
# makes Member.full_name required with a default, changes the role default, adds an index.
scalar type Priority extending enum<Low, Medium, High, Urgent>;

scalar type IssueNumber extending sequence;

type Project {
    required property key -> str {
        constraint exclusive;
        constraint regexp(r'^[A-Z][A-Z0-9]{1,9}$');
    }
    required property name -> str;
    property description -> str;
    required property archived -> bool {
        default := false;
    }
    multi link members -> Member {
        property role -> str {
            default := 'reporter';
        }
        property joined -> datetime;
    }
}

type Member {
    required property login -> str {
        constraint exclusive;
    }
    required property full_name -> str {
        default := '';
    }
    property email -> str;
    required property active -> bool {
        default := true;
    }
}

type Issue {
    required property number -> IssueNumber {
        constraint exclusive;
    }
    required property title -> str {
        constraint max_len_value(255);
    }
    property body -> str;
    required property priority -> Priority {
        default := <Priority>'Medium';
    }
    required property opened_at -> datetime {
        default := datetime_current();
    }
    property closed_at -> datetime;
    property due_on -> cal::local_date;
    link milestone -> Milestone {
        on target delete allow;
    }
    property estimate_hours -> float32 {
        constraint min_value(0);
    }
    required link project -> Project {
        on target delete delete source;
    }
    link assignee -> Member {
        on target delete allow;
    }
    required link reporter -> Member;
    multi link labels -> Label;
    multi link blocked_by -> Issue {
        on target delete allow;
    }
    constraint expression on (not exists .closed_at or .closed_at >= .opened_at);
    index on (.opened_at);
    index on (.project);
    index on ((.priority, .opened_at));
}

type Milestone {
    required property title -> str;
    property due_on -> cal::local_date;
    required link project -> Project {
        on target delete delete source;
    }
    constraint exclusive on ((.project, .title));
}

type Label {
    required property name -> str;
    required link project -> Project {
        on target delete delete source;
    }
    constraint exclusive on ((.project, .name));
}

type IssueComment {
    required property body -> str;
    required property created_at -> datetime {
        default := datetime_current();
    }
    required link issue -> Issue {
        on target delete delete source;
    }
    link author -> Member {
        on target delete allow;
    }
}
