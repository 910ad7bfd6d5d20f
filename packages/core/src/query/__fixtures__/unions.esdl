# Union link targets (A | B, no common base), std::Object targets, on source delete through
# unions, and splat strategies: the fixture of unions.db.test.ts and __golden__/unions/.
module default {
  type A { required name: str; label: str; }
  type SubA extending A { extra: int64; }
  type B { title: str; label: str; }
  type C {
    required cname: str;
    multi things: A | B;
    one: A | B;
    any: Object;
    owned: A | B { on source delete delete target; }
    shared: A | B { on source delete delete target if orphan; }
    multi kept: A | B { on source delete delete target if orphan; }
    multi weighted: A | B { weight: int64; }
  }
  type D {
    dname: str;
    secret: str { splat_strategy := 'Explicit'; }
    pick: A { splat_strategy := 'Implicit'; }
    other: A | B;
    hidden: B { splat_strategy := 'Explicit'; }
  }
}