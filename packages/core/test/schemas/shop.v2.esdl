# A shop, v2: the duplicate-violation fixture — a new `exclusive on ((.sku, .vendor))` (rows
# with the same sku and vendor make the migration refuse) — plus a wider stock type and a
# changed default.
module default {
    scalar type Money extending decimal {
        constraint min_value(0);
    }
    scalar type Currency extending enum<EUR, USD, GBP>;
    scalar type OrderStatus extending enum<Pending, Paid, Shipped, Delivered, Cancelled>;

    type Vendor {
        required name: str { constraint exclusive; }
        country: str { constraint min_len_value(2); constraint max_len_value(2); }
    }

    type Product {
        required sku: str;
        required name: str;
        description: str;
        required price: Money;
        required currency: Currency { default := <Currency>'EUR'; }
        required stock: int64 { default := 0; constraint min_value(0); }
        required weight_grams: int32 { default := 0; }
        vendor: Vendor { on target delete allow; }
        multi categories: Category;
        tags: array<str>;
        index on (str_lower(.name));
        constraint exclusive on ((.sku, .vendor));
    }

    type Category {
        required name: str { constraint exclusive; }
        parent: Category;
    }

    type Customer {
        required email: str { constraint exclusive on (str_lower(__subject__)); }
        required name: str;
        phone: str;
        required created_at: datetime { default := datetime_current(); }
        required loyalty_points: int64 { default := 100; }
        marketing_opt_in: bool { default := false; }
    }

    type Order {
        required customer: Customer;
        required status: OrderStatus { default := <OrderStatus>'Pending'; }
        required placed_at: datetime { default := datetime_current(); }
        required total: Money;
        required currency: Currency;
        shipping_address: str;
        notes: str;
        multi lines: OrderLine { constraint exclusive; on target delete allow; }
        index on ((.customer, .placed_at));
        index on (.status);
    }

    type OrderLine {
        required product: Product;
        required quantity: int32 { constraint min_value(1); }
        required unit_price: Money;
        discount_pct: float64 { default := 0.0; constraint min_value(0); constraint max_value(100); }
    }
}
