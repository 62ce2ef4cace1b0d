-- The retail support desk backend. Every primary key is a TEXT `id`.
-- Money is stored in dollars (REAL, two decimals); timestamps are ISO 8601 UTC text;
-- plain dates are YYYY-MM-DD.

CREATE TABLE customers (
    id TEXT PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    phone TEXT,
    date_of_birth TEXT,
    tier TEXT NOT NULL CHECK (tier IN ('standard', 'silver', 'gold', 'platinum')),
    loyalty_points INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT
);

CREATE TABLE addresses (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers(id),
    line1 TEXT NOT NULL,
    line2 TEXT,
    city TEXT NOT NULL,
    region TEXT NOT NULL,
    postal_code TEXT NOT NULL,
    country TEXT NOT NULL DEFAULT 'US',
    is_default INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE products (
    id TEXT PRIMARY KEY,
    sku TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    category TEXT NOT NULL,
    price REAL NOT NULL,
    warranty_months INTEGER NOT NULL DEFAULT 0,
    installable INTEGER NOT NULL DEFAULT 0,
    brand TEXT
);

CREATE TABLE inventory (
    id TEXT PRIMARY KEY,
    product_id TEXT NOT NULL UNIQUE REFERENCES products(id),
    warehouse TEXT NOT NULL,
    on_hand INTEGER NOT NULL,
    reserved INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE promotions (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL,
    percent_off REAL,
    amount_off REAL,
    min_subtotal REAL NOT NULL DEFAULT 0,
    category TEXT,              -- NULL: applies to every category
    min_tier TEXT,              -- NULL: every tier
    starts_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);

CREATE TABLE orders (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers(id),
    status TEXT NOT NULL CHECK (status IN
        ('placed', 'paid', 'shipped', 'delivered', 'cancelled', 'returned')),
    placed_at TEXT NOT NULL,
    promised_delivery TEXT NOT NULL,
    delivered_at TEXT,
    shipping_address_id TEXT REFERENCES addresses(id),
    subtotal REAL NOT NULL,
    discount REAL NOT NULL DEFAULT 0,
    shipping_fee REAL NOT NULL DEFAULT 0,
    total REAL NOT NULL,
    promo_code TEXT,
    replacement_for TEXT,       -- the original order, for free replacement orders
    cancelled_at TEXT,
    cancel_reason TEXT,
    updated_at TEXT
);

CREATE TABLE order_items (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(id),
    product_id TEXT NOT NULL REFERENCES products(id),
    quantity INTEGER NOT NULL,
    unit_price REAL NOT NULL,
    final_sale INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE payments (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(id),
    method TEXT NOT NULL CHECK (method IN ('card', 'paypal', 'gift_card')),
    card_brand TEXT,
    card_last4 TEXT,
    amount REAL NOT NULL,
    refunded_amount REAL NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN
        ('authorized', 'captured', 'partially_refunded', 'refunded', 'voided')),
    captured_at TEXT
);

-- Ledger: money sent back to a customer's payment method.
CREATE TABLE refunds (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(id),
    payment_id TEXT NOT NULL REFERENCES payments(id),
    return_id TEXT,
    amount REAL NOT NULL,
    reason TEXT NOT NULL,
    method TEXT NOT NULL,
    card_last4 TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE shipments (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(id),
    carrier TEXT NOT NULL,
    tracking_number TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN
        ('label_created', 'in_transit', 'out_for_delivery', 'delivered', 'exception', 'investigating')),
    shipped_at TEXT,
    delivered_at TEXT
);

CREATE TABLE tracking_events (
    id TEXT PRIMARY KEY,
    shipment_id TEXT NOT NULL REFERENCES shipments(id),
    occurred_at TEXT NOT NULL,
    location TEXT NOT NULL,
    description TEXT NOT NULL
);

CREATE TABLE carrier_investigations (
    id TEXT PRIMARY KEY,
    shipment_id TEXT NOT NULL REFERENCES shipments(id),
    carrier TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'found', 'lost')),
    opened_at TEXT NOT NULL
);

CREATE TABLE returns (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(id),
    items TEXT NOT NULL,         -- JSON list of order_item ids, sorted
    reason TEXT NOT NULL CHECK (reason IN
        ('changed_mind', 'defective', 'damaged_in_transit', 'wrong_item', 'not_as_described')),
    resolution TEXT NOT NULL CHECK (resolution IN ('refund', 'replacement')),
    status TEXT NOT NULL CHECK (status IN ('requested', 'approved', 'received', 'refunded', 'rejected')),
    restocking_fee REAL NOT NULL DEFAULT 0,
    refund_amount REAL NOT NULL DEFAULT 0,
    customer_comment TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT
);

CREATE TABLE warranty_contracts (
    id TEXT PRIMARY KEY,
    order_item_id TEXT NOT NULL REFERENCES order_items(id),
    plan TEXT NOT NULL CHECK (plan IN ('protect', 'protect_plus')),
    covers_accidental INTEGER NOT NULL DEFAULT 0,
    starts_on TEXT NOT NULL,
    ends_on TEXT NOT NULL,
    price REAL NOT NULL
);

CREATE TABLE warranty_claims (
    id TEXT PRIMARY KEY,
    order_item_id TEXT NOT NULL REFERENCES order_items(id),
    contract_id TEXT REFERENCES warranty_contracts(id),
    issue_type TEXT NOT NULL CHECK (issue_type IN ('malfunction', 'accidental_damage', 'cosmetic')),
    issue_description TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('submitted', 'approved', 'denied', 'repaired')),
    created_at TEXT NOT NULL
);

CREATE TABLE installation_slots (
    id TEXT PRIMARY KEY,        -- SLT-YYYY-MM-DD-AM / -PM
    date TEXT NOT NULL,
    period TEXT NOT NULL CHECK (period IN ('AM', 'PM')),
    capacity INTEGER NOT NULL,
    booked INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE installation_jobs (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(id),
    order_item_id TEXT NOT NULL REFERENCES order_items(id),
    slot_id TEXT REFERENCES installation_slots(id),
    status TEXT NOT NULL CHECK (status IN ('scheduled', 'completed', 'cancelled')),
    reschedule_count INTEGER NOT NULL DEFAULT 0,
    technician TEXT,
    updated_at TEXT
);

-- Ledger: loyalty points earned, granted or spent (1 point = $0.01 of store credit).
CREATE TABLE loyalty_transactions (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers(id),
    points INTEGER NOT NULL,
    reason TEXT NOT NULL,
    order_id TEXT,
    created_at TEXT NOT NULL
);

CREATE INDEX idx_orders_customer ON orders(customer_id);
CREATE INDEX idx_items_order ON order_items(order_id);
CREATE INDEX idx_payments_order ON payments(order_id);
CREATE INDEX idx_shipments_order ON shipments(order_id);
CREATE INDEX idx_events_shipment ON tracking_events(shipment_id);
CREATE INDEX idx_returns_order ON returns(order_id);
CREATE INDEX idx_addresses_customer ON addresses(customer_id);
CREATE INDEX idx_customers_phone ON customers(phone);
