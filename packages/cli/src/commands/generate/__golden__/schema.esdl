module default {
  scalar type Mood extending enum<happy, sad, `not sure`>;
  scalar type Handle extending str;
  abstract type Named {
    required name: str { constraint exclusive; }
  }
  type User extending Named {
    age: int32;
    big: int64;
    mood: Mood;
    handle: Handle;
    joined: datetime;
    birthday: cal::local_date;
    balance: decimal;
    avatar: bytes;
    settings: json;
    tags: array<str>;
    spot: tuple<x: float64, y: float64>;
    pair: tuple<str, bigint>;
    active: range<datetime>;
    multi friends: User;
    best: User;
    required multi roles: str;
    friend_count := count(.friends);
    `display name` := .name ++ '!';
  }
  type Post {
    required title: str;
    required author: User;
    multi attachments: shop::Item | User;
  }
}
module shop {
  type Item {
    required sku: str;
    owner: default::User;
    took: duration;
  }
  type User {
    login: str;
  }
}
