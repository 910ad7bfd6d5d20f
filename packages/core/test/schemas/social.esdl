# A social graph: people who follow each other, posts, likes and blocks.
type Person {
    required username: str {
        constraint exclusive;
        constraint regexp(r'^[a-z0-9_]{3,30}$');
    }
    required display_name: str;
    bio: str { constraint max_len_value(500); }
    avatar_url: str;
    required joined_at: datetime { default := datetime_current(); }
    required verified: bool { default := false; }
    multi follows: Person {
        since: datetime;
        muted: bool;
        on target delete allow;
    }
    multi blocks: Person { on target delete allow; }
    multi followers := .<follows[is Person];
    follower_count := count(.<follows[is Person]);
    constraint expression on (.username != str_lower(.display_name) or len(.display_name) > 0);
}

type Status {
    required text: str { constraint max_len_value(280); }
    required author: Person { on target delete delete source; }
    required posted_at: datetime { default := datetime_current(); }
    reply_to: Status { on target delete allow; }
    multi liked_by: Person {
        liked_at: datetime;
        on target delete allow;
    }
    multi mentions: Person { on target delete allow; }
    index on ((.author, .posted_at));
}

type Hashtag {
    required tag: str { constraint exclusive on (str_lower(__subject__)); }
    multi statuses: Status { on target delete allow; }
}
