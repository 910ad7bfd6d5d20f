-- step: create scalar default::Currency (enum EUR, USD, GBP)
create schema if not exists "default";
create domain "default"."Currency" as text constraint "Currency.enum" check (VALUE in ('EUR', 'USD', 'GBP'));

-- step: create scalar default::Money (std::decimal)
create domain "default"."Money" as numeric constraint "Money.min_value" check (VALUE >= ((0::bigint)::numeric));

-- step: create scalar default::OrderStatus (enum Pending, Paid, Shipped, Delivered, Cancelled)
create domain "default"."OrderStatus" as text constraint "OrderStatus.enum" check (VALUE in ('Pending', 'Paid', 'Shipped', 'Delivered', 'Cancelled'));

-- step: create type default::Category
create table "default"."Category" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "parent" uuid);

-- step: create type default::Customer
create table "default"."Customer" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "email" text not null, "name" text not null, "phone" text, "created_at" timestamptz not null default clock_timestamp(), "loyalty_points" bigint not null default 0::bigint);

-- step: create type default::Order
create table "default"."Order" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "customer" uuid not null, "status" "default"."OrderStatus" not null default ('Pending'::text)::"default"."OrderStatus", "placed_at" timestamptz not null default clock_timestamp(), "total" "default"."Money" not null, "currency" "default"."Currency" not null, "shipping_address" text);

-- step: create type default::OrderLine
create table "default"."OrderLine" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "product" uuid not null, "quantity" integer not null, "unit_price" "default"."Money" not null, "discount_pct" double precision default '0.0'::double precision);

-- step: create type default::Product
create table "default"."Product" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "sku" text not null, "name" text not null, "description" text, "price" "default"."Money" not null, "currency" "default"."Currency" not null default ('EUR'::text)::"default"."Currency", "stock" integer not null default 0::bigint, "weight_grams" integer not null default 0::bigint, "vendor" uuid, "tags" text[]);

-- step: create type default::Vendor
create table "default"."Vendor" ("id" uuid primary key default "svc_meta"."uuid_generate_v7"(), "name" text not null, "country" text);

-- step: create link default::Category.parent -> default::Category
alter table "default"."Category" add constraint "Category.parent.fk" foreign key ("parent") references "default"."Category" ("id") on delete no action;
create index "Category.parent.index" on "default"."Category" ("parent");

-- step: create link default::Order.customer -> default::Customer (required)
alter table "default"."Order" add constraint "Order.customer.fk" foreign key ("customer") references "default"."Customer" ("id") on delete no action;
create index "Order.customer.index" on "default"."Order" ("customer");

-- step: create link default::Order.lines -> default::OrderLine (multi)
create table "default"."Order.lines" ("source" uuid not null, "target" uuid not null, constraint "Order.lines.pkey" primary key ("source", "target"));
alter table "default"."Order.lines" add constraint "Order.lines.source.fk" foreign key ("source") references "default"."Order" ("id") on delete cascade;
alter table "default"."Order.lines" add constraint "Order.lines.target.fk" foreign key ("target") references "default"."OrderLine" ("id") on delete cascade;
create index "Order.lines.target.index" on "default"."Order.lines" ("target");

-- step: create link default::OrderLine.product -> default::Product (required)
alter table "default"."OrderLine" add constraint "OrderLine.product.fk" foreign key ("product") references "default"."Product" ("id") on delete no action;
create index "OrderLine.product.index" on "default"."OrderLine" ("product");

-- step: create link default::Product.vendor -> default::Vendor
alter table "default"."Product" add constraint "Product.vendor.fk" foreign key ("vendor") references "default"."Vendor" ("id") on delete set null;
create index "Product.vendor.index" on "default"."Product" ("vendor");

-- step: create link default::Product.categories -> default::Category (multi)
create table "default"."Product.categories" ("source" uuid not null, "target" uuid not null, constraint "Product.categories.pkey" primary key ("source", "target"));
alter table "default"."Product.categories" add constraint "Product.categories.source.fk" foreign key ("source") references "default"."Product" ("id") on delete cascade;
alter table "default"."Product.categories" add constraint "Product.categories.target.fk" foreign key ("target") references "default"."Category" ("id") on delete no action;
create index "Product.categories.target.index" on "default"."Product.categories" ("target");

-- step: create constraint std::min_value(1) on default::OrderLine.quantity
alter table "default"."OrderLine" add constraint "OrderLine.quantity.min_value" check (("quantity"::bigint) >= (1::bigint));

-- step: create constraint std::min_value(0) on default::OrderLine.discount_pct
alter table "default"."OrderLine" add constraint "OrderLine.discount_pct.min_value" check ("discount_pct" >= ((0::bigint)::double precision));

-- step: create constraint std::max_value(100) on default::OrderLine.discount_pct
alter table "default"."OrderLine" add constraint "OrderLine.discount_pct.max_value" check ("discount_pct" <= ((100::bigint)::double precision));

-- step: create constraint std::min_value(0) on default::Product.stock
alter table "default"."Product" add constraint "Product.stock.min_value" check (("stock"::bigint) >= (0::bigint));

-- step: create constraint std::min_len_value(2) on default::Vendor.country
alter table "default"."Vendor" add constraint "Vendor.country.min_len_value" check ((char_length("country")::bigint) >= (2::bigint));

-- step: create constraint std::max_len_value(2) on default::Vendor.country
alter table "default"."Vendor" add constraint "Vendor.country.max_len_value" check ((char_length("country")::bigint) <= (2::bigint));

-- step: create constraint std::exclusive on default::Category.name
create unique index "Category.name.exclusive" on "default"."Category" ("name");

-- step: create constraint std::exclusive on (str_lower(__subject__)) on default::Customer.email
create unique index "Customer.email.exclusive.f4ce9c50" on "default"."Customer" ((lower("email")));

-- step: create constraint std::exclusive on default::Order.lines
create unique index "Order.lines.exclusive" on "default"."Order.lines" ("target");

-- step: create index on ((.customer, .placed_at)) on default::Order
create index "Order.customer,placed_at.index" on "default"."Order" ("customer", "placed_at");

-- step: create index on (.status) on default::Order
create index "Order.status.index" on "default"."Order" ("status");

-- step: create index on (str_lower(.name)) on default::Product
create index "Product.expr.deb87fc2.index" on "default"."Product" ((lower("name")));

-- step: create constraint std::exclusive on default::Vendor.name
create unique index "Vendor.name.exclusive" on "default"."Vendor" ("name");
