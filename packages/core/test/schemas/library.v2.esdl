# Computeds and functions, v2: a function body changes (so the defaults that inline it change),
# a computed changes (no SQL), a new function and a property that uses it.
function normalize(s: str) -> str using (str_lower(str_trim(s)));
function clamp(x: int64, low: int64, high: int64) -> int64
    using (low if x < low else (high if x > high else x));
function default_loan_days() -> int64 using (21);
function initials(s: str) -> str using (str_upper(s[0]));

type Book {
    required title: str;
    required isbn: str {
        constraint exclusive on (normalize(__subject__));
    }
    required published_year: int16;
    required copies: int64 {
        default := clamp(1, 1, 100);
        constraint expression on (__subject__ = clamp(__subject__, 0, 100));
    }
    multi authors: Writer;
    property display := .title ++ ', ' ++ <str>.published_year;
    property author_count := count(.authors);
    index on (normalize(.title));
}

type Writer {
    required name: str;
    born: int16;
    required initial: str { default := initials('x'); }
    multi books := .<authors[is Book];
    property book_count := count(.books);
}

type Member {
    required card_number: str { constraint exclusive; }
    required name: str;
    required max_loans: int64 { default := default_loan_days() // 2; }
}

type Loan {
    required book: Book;
    required member: Member { on target delete delete source; }
    required loaned_at: datetime { default := datetime_current(); }
    required days: int64 { default := default_loan_days(); }
    returned_at: datetime;
    property is_open := not exists .returned_at;
}
