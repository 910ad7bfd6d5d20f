# A schema with every feature the REST model and the OpenAPI document describe: hidden fields,
# expanded links (with a cycle), multi links, a union link, a backlink computed, readonly
# fields and defaults, enums, custom scalars, every std scalar kind, arrays, tuples, ranges,
# an abstract type, a type named like the error envelope, a module other than default, and
# constraints on properties and on custom scalars (type Limited: those JSON Schema can say, and
# those it cannot).
module default {
  scalar type Mood extending enum<Happy, Sad, Meh>;
  scalar type Slug extending str;
  scalar type Counter extending int64;

  abstract type Named {
    required name: str;
  }

  type Author extending Named {
    email: str { annotation rest::hidden := 'true'; }
    bio: str;
    mood: Mood;
    multi link friends -> Author;
    link mentor -> Author { annotation rest::expand := 'true'; }
    multi posts := .<author[is Post];
    required created: datetime { readonly := true; default := datetime_current(); }
  }

  type Tag {
    required label: Slug;
  }

  type Post {
    required title: str;
    body: str;
    required link author -> Author { annotation rest::expand := 'true'; }
    multi link tags -> Tag { annotation rest::expand := 'true'; }
    link secret_note -> Tag { annotation rest::hidden := 'true'; }
    link pinned -> Author | Tag;
    multi keywords: str;
    title_upper := str_upper(.title);
    views: Counter { default := 0; }
  }

  type Everything {
    s: str;
    b: bool;
    i16: int16;
    i32: int32;
    i64: int64;
    f32: float32;
    f64: float64;
    big: bigint;
    dec: decimal;
    u: uuid;
    j: json;
    raw: bytes;
    dt: datetime;
    dur: duration;
    ldt: cal::local_datetime;
    ld: cal::local_date;
    lt: cal::local_time;
    rd: cal::relative_duration;
    dd: cal::date_duration;
    arr: array<int32>;
    tup: tuple<int64, str>;
    named: tuple<x: float64, y: float64>;
    r: range<int64>;
    `limit`: int32;
    a__b: str;
  }

  type Error {
    message: str;
  }

  scalar type Code extending str {
    constraint regexp('^[A-Z]{3}$');
  }
  scalar type ShortCode extending Code {
    constraint max_len_value(3);
    constraint min_len_value(2);
  }
  scalar type Percent extending int16 {
    constraint min_value(0);
    constraint max_value(100);
  }

  type Limited {
    required name: str { constraint max_len_value(40); constraint min_len_value(1); }
    code: ShortCode;
    percent: Percent { constraint max_value(50); }
    ratio: float64 { constraint min_ex_value(-1.5); constraint max_ex_value(<float64>1.5); }
    size: str { constraint one_of('S', 'M', 'L'); }
    level: int32 { constraint one_of(1, 2, 3); }
    multi words: str { constraint max_len_value(10); }
    scores: array<int32> { constraint max_len_value(3); }
    word: str { constraint regexp('[[:alpha:]]+'); }
    since: datetime { constraint min_value(<datetime>'2020-01-01T00:00:00Z'); }
    trimmed: str { constraint max_len_value(5) on (str_trim(__subject__)); }
    delta: int64 { constraint min_value(-10); }
  }
}

module blog {
  type Note {
    required text: str;
    link about -> default::Post { annotation rest::expand := 'true'; }
  }
}
