# A schema with every feature the REST model and the OpenAPI document describe: hidden fields,
# expanded links (with a cycle), multi links, a union link, a backlink computed, readonly
# fields and defaults, enums, custom scalars, every std scalar kind, arrays, tuples, ranges,
# an abstract type, a type named like the error envelope, and a module other than default.
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
}

module blog {
  type Note {
    required text: str;
    link about -> default::Post { annotation rest::expand := 'true'; }
  }
}
