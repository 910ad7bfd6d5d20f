# Enums and custom scalars, v2: new enum values, a stricter-but-compatible email, a new scalar.
scalar type RoomKind extending enum<Standard, Double, Twin, Suite, Family>;
scalar type BookingState extending enum<Requested, Confirmed, CheckedIn, CheckedOut, Cancelled, NoShow>;
scalar type Email extending str {
    constraint regexp(r'^[^@\s]+@[^@\s]+$');
}
scalar type Nights extending int16 {
    constraint min_value(1);
    constraint max_value(365);
}
scalar type RoomNumber extending str {
    constraint max_len_value(6);
}
scalar type BookingNumber extending sequence;
scalar type Phone extending str {
    constraint regexp(r'^\+?[0-9 ]{6,20}$');
}

type Hotel {
    required name: str;
    required city: str;
    required stars: int16 { constraint min_value(1); constraint max_value(5); }
    constraint exclusive on ((.name, .city));
}

type Room {
    required number: RoomNumber;
    required kind: RoomKind { default := <RoomKind>'Double'; }
    required hotel: Hotel { on target delete delete source; }
    required rate_cents: int32 { constraint min_value(0); }
    constraint exclusive on ((.hotel, .number));
}

type Guest {
    required email: Email { constraint exclusive; }
    required name: str;
    preferred_kind: RoomKind;
    phone: Phone;
}

type Booking {
    required number: BookingNumber { constraint exclusive; }
    required state: BookingState { default := <BookingState>'Requested'; }
    required nights: Nights;
    required guests: int16 { default := <int16>1; constraint min_value(1); }
    required arrival: cal::local_date;
    required room: Room;
    required guest: Guest;
    index on (.arrival);
    index on (.state);
}
