# Link properties and on target/source delete: an events and ticketing model.
module default {
    type Venue {
        required name: str;
        required capacity: int32 { constraint min_value(1); }
    }

    type Speaker {
        required name: str;
        bio: str;
    }

    type Event {
        required title: str;
        required starts_at: datetime;
        required venue: Venue { on target delete restrict; }
        multi speakers: Speaker {
            role: str;
            order: int16 { default := <int16>0; }
            on target delete allow;
        }
        multi sponsors: Sponsor {
            tier: str;
            on target delete deferred restrict;
            on source delete delete target if orphan;
        }
        organizer: Attendee {
            since: datetime;
            on target delete allow;
        }
    }

    type Sponsor {
        required name: str { constraint exclusive; }
    }

    type Attendee {
        required email: str { constraint exclusive; }
        required name: str;
    }

    type Ticket {
        required code: str { constraint exclusive; }
        required event: Event { on target delete delete source; }
        holder: Attendee { on target delete allow; }
        required price_cents: int32 { default := 0; }
        required issued_at: datetime { default := datetime_current(); }
    }
}
