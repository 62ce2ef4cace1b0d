-- Skylark Journeys, a travel agency's booking and support backend. All times are UTC ISO-8601 text.

CREATE TABLE travellers (
    id TEXT PRIMARY KEY,                 -- TRV-1001
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    phone TEXT,
    date_of_birth TEXT,
    tier TEXT NOT NULL CHECK (tier IN ('blue', 'silver', 'gold', 'platinum')),
    points_balance INTEGER NOT NULL DEFAULT 0,
    member_since TEXT NOT NULL,
    updated_at TEXT
);

CREATE TABLE airports (
    id TEXT PRIMARY KEY,                 -- IATA code, e.g. LIS
    city TEXT NOT NULL,
    country TEXT NOT NULL
);

CREATE TABLE flights (                 -- the timetable: one row per flight number
    id TEXT PRIMARY KEY,                 -- flight number, e.g. AU312
    carrier TEXT NOT NULL,
    origin TEXT NOT NULL REFERENCES airports(id),
    destination TEXT NOT NULL REFERENCES airports(id),
    departs_at TEXT NOT NULL,            -- HH:MM UTC
    duration_min INTEGER NOT NULL,
    distance_km INTEGER NOT NULL
);

CREATE TABLE departures (              -- one flight on one date
    id TEXT PRIMARY KEY,                 -- AU312-2026-02-20
    flight_id TEXT NOT NULL REFERENCES flights(id),
    date TEXT NOT NULL,
    scheduled_departure TEXT NOT NULL,
    scheduled_arrival TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('scheduled', 'arrived', 'cancelled')),
    actual_arrival TEXT,
    delay_cause TEXT CHECK (delay_cause IN ('carrier', 'weather', 'air_traffic_control', 'security')),
    seats_economy INTEGER NOT NULL,
    seats_business INTEGER NOT NULL,
    fare_light REAL NOT NULL,
    fare_classic REAL NOT NULL,
    fare_flex REAL NOT NULL,
    fare_business REAL NOT NULL
);

CREATE TABLE bookings (
    id TEXT PRIMARY KEY,                 -- BKG-10001
    locator TEXT NOT NULL UNIQUE,        -- six-character booking reference, e.g. QX7T4P
    traveller_id TEXT NOT NULL REFERENCES travellers(id),
    status TEXT NOT NULL CHECK (status IN ('confirmed', 'cancelled', 'completed')),
    failed_card_checks INTEGER NOT NULL DEFAULT 0,  -- verify_card calls that did not match (judged)
    created_at TEXT NOT NULL,
    updated_at TEXT
);

CREATE TABLE passengers (
    id TEXT PRIMARY KEY,                 -- PAX-100001
    booking_id TEXT NOT NULL REFERENCES bookings(id),
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    date_of_birth TEXT,
    passport_number TEXT,
    passport_expiry TEXT,
    nationality TEXT,
    is_lead INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT
);

CREATE TABLE segments (
    id TEXT PRIMARY KEY,                 -- SEG-100001
    booking_id TEXT NOT NULL REFERENCES bookings(id),
    seq INTEGER NOT NULL,
    departure_id TEXT NOT NULL REFERENCES departures(id),
    cabin TEXT NOT NULL CHECK (cabin IN ('economy', 'business')),
    fare_family TEXT NOT NULL CHECK (fare_family IN ('light', 'classic', 'flex', 'business')),
    fare_per_pax REAL NOT NULL,
    taxes_per_pax REAL NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('confirmed', 'cancelled', 'flown')),
    change_count INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT
);

CREATE TABLE hotel_stays (
    id TEXT PRIMARY KEY,                 -- HTL-10001
    booking_id TEXT NOT NULL REFERENCES bookings(id),
    hotel_name TEXT NOT NULL,
    city TEXT NOT NULL,
    check_in TEXT NOT NULL,              -- YYYY-MM-DD
    check_out TEXT NOT NULL,
    room_type TEXT NOT NULL,
    rate_plan TEXT NOT NULL CHECK (rate_plan IN ('flexible', 'non_refundable')),
    nightly_rate REAL NOT NULL,
    total REAL NOT NULL,
    cancel_deadline TEXT,                -- flexible plans: free cancellation until this instant
    status TEXT NOT NULL CHECK (status IN ('confirmed', 'cancelled', 'completed')),
    updated_at TEXT
);

CREATE TABLE payments (
    id TEXT PRIMARY KEY,                 -- PAY-100001
    booking_id TEXT NOT NULL REFERENCES bookings(id),
    method TEXT NOT NULL CHECK (method IN ('card', 'travel_credit', 'points')),
    card_brand TEXT,
    card_last4 TEXT,                     -- never shown to the agent
    amount REAL NOT NULL,
    refunded_amount REAL NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('captured', 'partially_refunded', 'refunded')),
    created_at TEXT NOT NULL
);

CREATE TABLE refunds (
    id TEXT PRIMARY KEY,                 -- RFD-500001
    booking_id TEXT NOT NULL,
    payment_id TEXT NOT NULL,
    amount REAL NOT NULL,
    reason TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE charges (                 -- money collected for changes and extras
    id TEXT PRIMARY KEY,                 -- CHG-50001
    booking_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('change_fee', 'fare_difference', 'checked_bags')),
    amount REAL NOT NULL,
    paid_with TEXT NOT NULL CHECK (paid_with IN ('card', 'travel_credit')),
    credit_id TEXT,
    segment_id TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE travel_credits (
    id TEXT PRIMARY KEY,                 -- CRD-10001
    traveller_id TEXT NOT NULL REFERENCES travellers(id),
    kind TEXT NOT NULL CHECK (kind IN ('travel_credit', 'voucher')),
    amount REAL NOT NULL,
    balance REAL NOT NULL,
    issued_at TEXT NOT NULL,
    expires_on TEXT NOT NULL,            -- YYYY-MM-DD, usable through this day
    source_booking_id TEXT,
    reason TEXT NOT NULL,
    reinstated INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT
);

CREATE TABLE compensations (
    id TEXT PRIMARY KEY,                 -- CMP-50001
    booking_id TEXT NOT NULL,
    segment_id TEXT NOT NULL,
    reason TEXT NOT NULL CHECK (reason IN ('delay', 'cancellation', 'missed_connection')),
    passengers INTEGER NOT NULL,
    amount REAL NOT NULL,
    form TEXT NOT NULL CHECK (form IN ('card', 'voucher')),
    credit_id TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE points_ledger (
    id TEXT PRIMARY KEY,                 -- PTS-100001
    traveller_id TEXT NOT NULL,
    segment_id TEXT,
    points INTEGER NOT NULL,
    reason TEXT NOT NULL CHECK (reason IN ('flown', 'missing_points', 'redemption')),
    created_at TEXT NOT NULL
);

CREATE TABLE bag_purchases (
    id TEXT PRIMARY KEY,                 -- BAG-50001
    booking_id TEXT NOT NULL,
    passenger_id TEXT NOT NULL,
    bags INTEGER NOT NULL,
    amount REAL NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE assistance_requests (
    id TEXT PRIMARY KEY,                 -- SSR-50001
    passenger_id TEXT NOT NULL,
    segment_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE waitlist (
    id TEXT PRIMARY KEY,                 -- WTL-50001
    booking_id TEXT NOT NULL,
    segment_id TEXT NOT NULL,
    departure_id TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE weather_waivers (
    id TEXT PRIMARY KEY,                 -- WVR-101
    airport TEXT NOT NULL,
    travel_from TEXT NOT NULL,           -- first travel date covered, YYYY-MM-DD
    travel_to TEXT NOT NULL,             -- last travel date covered
    rebook_by TEXT NOT NULL,             -- new travel must be on or before this date
    issued_at TEXT NOT NULL,
    description TEXT NOT NULL
);

CREATE TABLE schedule_changes (
    id TEXT PRIMARY KEY,                 -- SCH-10001
    segment_id TEXT NOT NULL REFERENCES segments(id),
    old_departure TEXT NOT NULL,
    new_departure TEXT NOT NULL,
    minutes INTEGER NOT NULL,            -- how far the departure moved, either way
    notified_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'accepted', 'rebooked', 'refunded')),
    updated_at TEXT
);

CREATE TABLE identity_checks (
    id TEXT PRIMARY KEY,                 -- IDC-50001
    booking_id TEXT NOT NULL,
    method TEXT NOT NULL,
    passed INTEGER NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE seat_assignments (        -- one seat per passenger and segment
    passenger_id TEXT NOT NULL REFERENCES passengers(id),
    segment_id TEXT NOT NULL REFERENCES segments(id),
    seat TEXT NOT NULL,                  -- row + letter, e.g. 14C
    kind TEXT NOT NULL CHECK (kind IN ('standard', 'extra_legroom', 'business')),
    fee REAL NOT NULL DEFAULT 0,
    assigned_at TEXT NOT NULL,
    PRIMARY KEY (passenger_id, segment_id)
);
