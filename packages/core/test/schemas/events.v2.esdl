# Link properties and on target delete, v2: a new link property, a changed policy, a link
# from single to multi and a new link.
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
        required venue: Venue { on target delete deferred restrict; }
        backup_venue: Venue { on target delete allow; }
        multi speakers: Speaker {
            role: str;
            confirmed: bool;
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
        multi holder: Attendee { on target delete allow; }
        required price_cents: int32 { default := 0; }
        required issued_at: datetime { default := datetime_current(); }
    }
}
