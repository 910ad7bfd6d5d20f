# Every constraint kind, v2: a new value in an enum, a looser scalar constraint, a constraint
# dropped and one added, a changed expression.
module default {
    abstract constraint positive on (__subject__ > 0) {
        errmessage := 'must be positive';
    }
    abstract constraint within(low: int64, high: int64) {
        using (__subject__ >= low and __subject__ <= high);
    }

    scalar type Percent extending int16 {
        constraint min_value(0);
        constraint max_value(1000);
    }
    scalar type Code extending str {
        constraint regexp(r'^[A-Z]{3}$');
    }
    scalar type Level extending enum<Bronze, Silver, Gold, Platinum>;

    type Sample {
        required name: str {
            constraint exclusive;
            constraint min_len_value(1);
            constraint max_len_value(64);
        }
        required amount: int64 { constraint positive; }
        score: int64 { constraint within(0, 100); }
        ratio: float64 { constraint min_ex_value(0); constraint max_ex_value(1); }
        pct: Percent;
        code: Code;
        level: Level;
        kind: str;
        nickname: str { constraint max_len_value(32); }
        age: int16 { constraint expression on (__subject__ >= 0 and __subject__ < 150); }
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
