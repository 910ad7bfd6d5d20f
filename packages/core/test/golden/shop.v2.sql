-- step: drop constraint std::min_value(0) on default::Product.stock
alter table "default"."Product" drop constraint "Product.stock.min_value";

-- step: alter property default::Customer.loyalty_points: default 100::bigint
alter table "default"."Customer" alter column "loyalty_points" set default 100::bigint;

-- step: create property default::Customer.marketing_opt_in (std::bool)
alter table "default"."Customer" add column "marketing_opt_in" boolean default false;

-- step: create property default::Order.notes (std::str)
alter table "default"."Order" add column "notes" text;

-- step: alter property default::Product.stock: type std::int32 → std::int64
alter table "default"."Product" alter column "stock" drop default;
alter table "default"."Product" alter column "stock" type bigint using "stock"::bigint;
alter table "default"."Product" alter column "stock" set default 0::bigint;

-- step: create constraint std::min_value(0) on default::Product.stock
alter table "default"."Product" add constraint "Product.stock.min_value" check ("stock" >= (0::bigint));

-- step: create constraint std::exclusive on ((.sku, .vendor)) on default::Product
create unique index "Product.exclusive.5e3adfac" on "default"."Product" ("sku", "vendor");

-- check (violation) default::Product: stored objects of default::Product have duplicate values for the new constraint std::exclusive on ((.sku, .vendor))
select "sku" as "value1", "vendor" as "value2", count(*) as "count" from "default"."Product" where "sku" is not null and "vendor" is not null group by "sku", "vendor" having count(*) > 1 order by count(*) desc, "sku", "vendor" limit 20;
