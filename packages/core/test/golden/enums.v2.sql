-- step: alter scalar default::BookingState (enum Requested, Confirmed, CheckedIn, CheckedOut, Cancelled, NoShow)
alter domain "default"."BookingState" drop constraint "BookingState.enum";
alter domain "default"."BookingState" add constraint "BookingState.enum" check (VALUE in ('Requested', 'Confirmed', 'CheckedIn', 'CheckedOut', 'Cancelled', 'NoShow'));

-- step: create scalar default::Phone (std::str)
create domain "default"."Phone" as text constraint "Phone.regexp" check (VALUE ~ (E'^\\+?[0-9 ]{6,20}$'::text));

-- step: alter scalar default::RoomKind (enum Standard, Double, Twin, Suite, Family)
alter domain "default"."RoomKind" drop constraint "RoomKind.enum";
alter domain "default"."RoomKind" add constraint "RoomKind.enum" check (VALUE in ('Standard', 'Double', 'Twin', 'Suite', 'Family'));

-- step: create property default::Booking.guests (std::int16, required)
alter table "default"."Booking" add column "guests" smallint not null default (1::bigint)::smallint;

-- step: create property default::Guest.phone (default::Phone)
alter table "default"."Guest" add column "phone" "default"."Phone";

-- step: create constraint std::min_value(1) on default::Booking.guests
alter table "default"."Booking" add constraint "Booking.guests.min_value" check (("guests"::bigint) >= (1::bigint));

-- check (violation) default::BookingState: stored values break the new definition of default::BookingState
select 'default::Booking.state' as "subject", "state"::text as "value" from "default"."Booking" where not ("state" in ('Requested', 'Confirmed', 'CheckedIn', 'CheckedOut', 'Cancelled', 'NoShow')) limit 20;

-- check (violation) default::RoomKind: stored values break the new definition of default::RoomKind
select 'default::Guest.preferred_kind' as "subject", "preferred_kind"::text as "value" from "default"."Guest" where not ("preferred_kind" in ('Standard', 'Double', 'Twin', 'Suite', 'Family')) union all select 'default::Room.kind' as "subject", "kind"::text as "value" from "default"."Room" where not ("kind" in ('Standard', 'Double', 'Twin', 'Suite', 'Family')) limit 20;
