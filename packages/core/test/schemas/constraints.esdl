# Every constraint kind: std constraints on properties, scalar types, multi properties and
# arrays, expression constraints on properties and types, exclusive with except, and an
# abstract constraint of our own.
module default {
    abstract constraint positive on (__subject__ > 0) {
        errmessage := 'must be positive';
    }
    abstract constraint within(low: int64, high: int64) {
        using (__subject__ >= low and __subject__ <= high);
    }

    scalar type Percent extending int16 {
        constraint min_value(0);
        constraint max_value(100);
    }
    scalar type Code extending str {
        constraint regexp(r'^[A-Z]{3}$');
    }
    scalar type Level extending enum<Bronze, Silver, Gold>;

    type Sample {
        required name: str {
            constraint exclusive;
            constraint min_len_value(1);
            constraint max_len_value(64);
        }
        required amount: int64 { constraint positive; }
        score: int64 { constraint within(1, 10); }
        ratio: float64 { constraint min_ex_value(0); constraint max_ex_value(1); }
        pct: Percent;
        code: Code;
        level: Level;
        kind: str { constraint one_of('a', 'b', 'c'); }
        age: int16 { constraint expression on (__subject__ >= 0 and __subject__ < 200); }
        email: str { constraint exclusive on (str_lower(__subject__)); }
        multi codes: Code;
        multi notes: str { constraint max_len_value(140); }
        pcts: array<Percent>;
        starts_at: datetime;
        ends_at: datetime;
        deleted: bool;
        external_id: str;
        constraint expression on (.ends_at > .starts_at);
        constraint exclusive on ((.code, .level));
        constraint exclusive on (.external_id) except (.deleted);
    }
}
