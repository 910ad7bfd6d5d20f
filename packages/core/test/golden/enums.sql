-- step: create scalar default::BookingNumber (std::sequence)
create schema if not exists "default";
create sequence "default"."BookingNumber.seq" as bigint;
create domain "default"."BookingNumber" as bigint default nextval('"default"."BookingNumber.seq"'::regclass);

-- step: create scalar default::BookingState (enum Requested, Confirmed, CheckedIn, CheckedOut, Cancelled)
create domain "default"."BookingState" as text constraint "BookingState.enum" check (VALUE in ('Requested', 'Confirmed', 'CheckedIn', 'CheckedOut', 'Cancelled'));

-- step: create scalar default::Email (std::str)
create domain "default"."Email" as text constraint "Email.regexp" check (VALUE ~ (E'^[^@\\s]+@[^@\\s]+$'::text));

-- step: create scalar default::Nights (std::int16)
create domain "default"."Nights" as smallint constraint "Nights.min_value" check ((VALUE::bigint) >= (1::bigint)) constraint "Nights.max_value" check ((VALUE::bigint) <= (365::bigint));

-- step: create scalar default::RoomKind (enum Standard, Double, Suite)
create domain "default"."RoomKind" as text constraint "RoomKind.enum" check (VALUE in ('Standard', 'Double', 'Suite'));

-- step: create scalar default::RoomNumber (std::str)
create domain "default"."RoomNumber" as text constraint "RoomNumber.max_len_value" check ((char_length(VALUE)::bigint) <= (6::bigint));

-- step: create type default::Booking
create table "default"."Booking" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "number" "default"."BookingNumber" not null, "state" "default"."BookingState" not null default ('Requested'::text)::"default"."BookingState", "nights" "default"."Nights" not null, "arrival" date not null, "room" uuid not null, "guest" uuid not null);

-- step: create type default::Guest
create table "default"."Guest" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "email" "default"."Email" not null, "name" text not null, "preferred_kind" "default"."RoomKind");

-- step: create type default::Hotel
create table "default"."Hotel" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "city" text not null, "stars" smallint not null);

-- step: create type default::Room
create table "default"."Room" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "number" "default"."RoomNumber" not null, "kind" "default"."RoomKind" not null default ('Double'::text)::"default"."RoomKind", "hotel" uuid not null, "rate_cents" integer not null);

-- step: create link default::Booking.room -> default::Room (required)
alter table "default"."Booking" add constraint "Booking.room.fk" foreign key ("room") references "default"."Room" ("id") on delete no action;
create index "Booking.room.index" on "default"."Booking" ("room");

-- step: create link default::Booking.guest -> default::Guest (required)
alter table "default"."Booking" add constraint "Booking.guest.fk" foreign key ("guest") references "default"."Guest" ("id") on delete no action;
create index "Booking.guest.index" on "default"."Booking" ("guest");

-- step: create link default::Room.hotel -> default::Hotel (required)
alter table "default"."Room" add constraint "Room.hotel.fk" foreign key ("hotel") references "default"."Hotel" ("id") on delete cascade;
create index "Room.hotel.index" on "default"."Room" ("hotel");

-- step: create constraint std::min_value(1) on default::Hotel.stars
alter table "default"."Hotel" add constraint "Hotel.stars.min_value" check (("stars"::bigint) >= (1::bigint));

-- step: create constraint std::max_value(5) on default::Hotel.stars
alter table "default"."Hotel" add constraint "Hotel.stars.max_value" check (("stars"::bigint) <= (5::bigint));

-- step: create constraint std::min_value(0) on default::Room.rate_cents
alter table "default"."Room" add constraint "Room.rate_cents.min_value" check (("rate_cents"::bigint) >= (0::bigint));

-- step: create constraint std::exclusive on default::Booking.number
create unique index "Booking.number.exclusive" on "default"."Booking" ("number");

-- step: create index on (.arrival) on default::Booking
create index "Booking.arrival.index" on "default"."Booking" ("arrival");

-- step: create index on (.state) on default::Booking
create index "Booking.state.index" on "default"."Booking" ("state");

-- step: create constraint std::exclusive on default::Guest.email
create unique index "Guest.email.exclusive" on "default"."Guest" ("email");

-- step: create constraint std::exclusive on ((.name, .city)) on default::Hotel
create unique index "Hotel.exclusive.6ec80bdc" on "default"."Hotel" ("name", "city");

-- step: create constraint std::exclusive on ((.hotel, .number)) on default::Room
create unique index "Room.exclusive.f051d532" on "default"."Room" ("hotel", "number");
