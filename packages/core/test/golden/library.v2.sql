-- step: alter property default::Loan.days: default 21::bigint
alter table "default"."Loan" alter column "days" set default 21::bigint;

-- step: alter property default::Member.max_loans: default floor(((21::bigint)::numeric) / ((2::bigint)::numeric))::bigint
alter table "default"."Member" alter column "max_loans" set default floor(((21::bigint)::numeric) / ((2::bigint)::numeric))::bigint;

-- step: create property default::Writer.initial (std::str, required)
alter table "default"."Writer" add column "initial" text not null default upper(substr('x'::text, (case when ((0::bigint) >= char_length('x'::text)) or ((0::bigint) < (- char_length('x'::text))) then "svc_meta"."raise"(case when char_length('x'::text) is null then null::bigint end, '22000', ('string index ' || ((0::bigint)::text)) || ' is out of bounds') when (0::bigint) < 0 then (char_length('x'::text) + (0::bigint)) + 1 else (0::bigint) + 1 end)::integer, 1));

-- step: alter property default::Book.display

-- step: alter function default::default_loan_days()

-- step: create function default::initials(std::str)
