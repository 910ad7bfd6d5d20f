-- step: alter property default::Loan.days: default 21
alter table "default"."Loan" alter column "days" set default 21;

-- step: alter property default::Member.max_loans: default floor((21::numeric) / 2)::bigint
alter table "default"."Member" alter column "max_loans" set default floor((21::numeric) / 2)::bigint;

-- step: create property default::Writer.initial (std::str, required)
alter table "default"."Writer" add column "initial" text not null default upper(substr('x', 1, 1));

-- step: alter property default::Book.display

-- step: alter function default::default_loan_days()

-- step: create function default::initials(std::str)
