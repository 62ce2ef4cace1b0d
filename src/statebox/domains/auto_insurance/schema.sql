-- Cedarline Auto Insurance: policyholders, policies, vehicles, drivers, coverages, billing,
-- endorsements, claims. Helpdesk, email, hand-off and customer-side tables come from the kit.

CREATE TABLE policyholders (
    id TEXT PRIMARY KEY,              -- PH-1001
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    phone TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,      -- YYYY-MM-DD
    line1 TEXT NOT NULL,              -- mailing address
    city TEXT NOT NULL,
    state TEXT NOT NULL,
    postal_code TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT
);

CREATE TABLE payment_methods (
    id TEXT PRIMARY KEY,              -- PMT-10001
    policyholder_id TEXT NOT NULL REFERENCES policyholders(id),
    kind TEXT NOT NULL,               -- card | bank_account
    brand TEXT,                       -- visa, mastercard, ... (cards)
    last4 TEXT NOT NULL,
    is_default INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE policies (
    id TEXT PRIMARY KEY,              -- POL-10001
    policyholder_id TEXT NOT NULL REFERENCES policyholders(id),
    state TEXT NOT NULL,              -- OR | WA: the state the policy is written in
    term_start TEXT NOT NULL,         -- YYYY-MM-DD, 365-day terms
    term_end TEXT NOT NULL,
    status TEXT NOT NULL,             -- active | lapsed | cancelled | expired
    payment_plan TEXT NOT NULL,       -- paid_in_full | monthly
    annual_premium REAL NOT NULL,     -- the rated premium for the term, kept current by endorsements
    lapsed_on TEXT,
    cancelled_on TEXT,
    cancelled_by TEXT,                -- policyholder | company
    cancel_reason TEXT,
    reinstated_on TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT
);

CREATE TABLE vehicles (
    id TEXT PRIMARY KEY,              -- VEH-10001
    policy_id TEXT NOT NULL REFERENCES policies(id),
    vin TEXT NOT NULL,
    year INTEGER NOT NULL,
    make TEXT NOT NULL,
    model TEXT NOT NULL,
    use TEXT NOT NULL,                -- pleasure | commute | business
    actual_cash_value REAL,           -- current valuation in dollars
    garaging_line1 TEXT NOT NULL,
    garaging_city TEXT NOT NULL,
    garaging_state TEXT NOT NULL,
    garaging_postal_code TEXT NOT NULL,
    status TEXT NOT NULL,             -- active | removed
    added_on TEXT NOT NULL,
    removed_on TEXT
);

CREATE TABLE drivers (
    id TEXT PRIMARY KEY,              -- DRV-10001
    policy_id TEXT NOT NULL REFERENCES policies(id),
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    license_number TEXT NOT NULL,
    license_state TEXT NOT NULL,
    relationship TEXT NOT NULL,       -- named_insured | spouse | child | other_household
    status TEXT NOT NULL,             -- listed | excluded | removed
    added_on TEXT NOT NULL,
    status_changed_on TEXT
);

CREATE TABLE coverages (
    id TEXT PRIMARY KEY,              -- COV-100001
    vehicle_id TEXT NOT NULL REFERENCES vehicles(id),
    coverage TEXT NOT NULL,           -- liability | collision | comprehensive | uninsured_motorist | rental | roadside
    option TEXT NOT NULL,             -- limits ("100/300/100"), deductible ("500"), rental ("30x30"), roadside ("standard")
    deductible REAL,                  -- collision / comprehensive only
    daily_cap REAL,                   -- rental only
    max_days INTEGER,                 -- rental only
    annual_premium REAL NOT NULL,
    status TEXT NOT NULL,             -- active | removed
    effective_on TEXT NOT NULL,
    removed_on TEXT
);

CREATE TABLE installments (
    id TEXT PRIMARY KEY,              -- INS-100001
    policy_id TEXT NOT NULL REFERENCES policies(id),
    number INTEGER NOT NULL,
    due_date TEXT NOT NULL,
    amount REAL NOT NULL,
    late_fee REAL NOT NULL DEFAULT 0,
    late_fee_waived INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL,             -- paid | due | overdue | cancelled
    paid_on TEXT
);

CREATE TABLE billing_payments (        -- ledger: money we collected
    id TEXT PRIMARY KEY,              -- BPY-100001
    policy_id TEXT NOT NULL,
    payment_method_id TEXT NOT NULL,
    amount REAL NOT NULL,
    purpose TEXT NOT NULL,            -- installments | reinstatement_fee
    installment_ids TEXT NOT NULL,    -- JSON list
    created_at TEXT NOT NULL
);

CREATE TABLE premium_refunds (         -- ledger: money we returned on cancellation
    id TEXT PRIMARY KEY,              -- PRF-10001
    policy_id TEXT NOT NULL,
    payment_method_id TEXT NOT NULL,
    amount REAL NOT NULL,
    method TEXT NOT NULL,             -- pro_rata | short_rate
    created_at TEXT NOT NULL
);

CREATE TABLE endorsements (
    id TEXT PRIMARY KEY,              -- END-10001
    policy_id TEXT NOT NULL REFERENCES policies(id),
    kind TEXT NOT NULL,               -- add_vehicle | remove_vehicle | add_driver | exclude_driver | remove_driver | coverage_change | address_change
    subject_id TEXT,                  -- the vehicle, driver or coverage changed
    effective_date TEXT NOT NULL,
    annual_change REAL NOT NULL,      -- change of the annual premium (rating table)
    premium_change REAL NOT NULL,     -- prorated to the rest of the term: charged (+) or credited (-)
    document_id TEXT,                 -- a signed form, when one is needed
    created_at TEXT NOT NULL
);

CREATE TABLE repair_shops (
    id TEXT PRIMARY KEY,              -- RSH-101
    name TEXT NOT NULL,
    city TEXT NOT NULL,
    state TEXT NOT NULL,
    phone TEXT NOT NULL,
    network INTEGER NOT NULL,         -- 1 = direct-repair network shop
    glass_only INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE adjusters (
    id TEXT PRIMARY KEY,              -- ADJ-101
    name TEXT NOT NULL,
    specialty TEXT NOT NULL,          -- physical_damage | total_loss | injury
    states TEXT NOT NULL,             -- JSON list of states licensed in
    open_claims INTEGER NOT NULL,
    active INTEGER NOT NULL
);

CREATE TABLE claims (
    id TEXT PRIMARY KEY,              -- CLM-10001
    policy_id TEXT NOT NULL REFERENCES policies(id),
    vehicle_id TEXT NOT NULL REFERENCES vehicles(id),
    driver_id TEXT,                   -- the policy's driver at the wheel
    driver_name TEXT,                 -- someone not on the policy (permissive use), as reported
    loss_date TEXT NOT NULL,
    loss_type TEXT NOT NULL,          -- collision | hit_and_run | theft | vandalism | weather | animal | glass
    description TEXT NOT NULL,
    at_fault TEXT NOT NULL,           -- insured | other_party | no_fault | unknown
    injuries INTEGER NOT NULL DEFAULT 0,
    police_report_number TEXT,
    other_party_insurer TEXT,
    status TEXT NOT NULL,             -- open | pending_documents | under_review | approved | denied | closed
    adjuster_id TEXT,
    repair_shop_id TEXT,
    total_loss INTEGER NOT NULL DEFAULT 0,
    reported_at TEXT NOT NULL,
    updated_at TEXT
);

CREATE TABLE claim_lines (
    id TEXT PRIMARY KEY,              -- CLL-100001
    claim_id TEXT NOT NULL REFERENCES claims(id),
    coverage TEXT NOT NULL,
    deductible REAL NOT NULL DEFAULT 0,
    status TEXT NOT NULL,             -- open | approved | denied | paid
    approved_amount REAL,
    decision_reason TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE estimates (
    id TEXT PRIMARY KEY,              -- EST-10001
    claim_id TEXT NOT NULL REFERENCES claims(id),
    repair_shop_id TEXT NOT NULL,
    amount REAL NOT NULL,
    repair_days INTEGER NOT NULL,
    glass_work TEXT,                  -- repair | replacement (glass claims)
    created_on TEXT NOT NULL
);

CREATE TABLE claim_documents (
    id TEXT PRIMARY KEY,              -- CDC-10001
    claim_id TEXT NOT NULL REFERENCES claims(id),
    document_id TEXT NOT NULL,
    kind TEXT NOT NULL,               -- damage_photos | police_report | exclusion_form | other
    attached_at TEXT NOT NULL
);

CREATE TABLE rental_authorizations (
    id TEXT PRIMARY KEY,              -- RNT-10001
    claim_id TEXT NOT NULL REFERENCES claims(id),
    daily_rate REAL NOT NULL,
    days INTEGER NOT NULL,
    start_date TEXT NOT NULL,
    status TEXT NOT NULL,             -- authorized | ended
    created_at TEXT NOT NULL
);

CREATE TABLE claim_payments (          -- ledger: money paid on claims
    id TEXT PRIMARY KEY,              -- CPY-10001
    claim_id TEXT NOT NULL,
    claim_line_id TEXT NOT NULL,
    payee TEXT NOT NULL,              -- insured | repair_shop
    payee_id TEXT NOT NULL,           -- the policyholder or the shop
    amount REAL NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE subrogations (
    id TEXT PRIMARY KEY,              -- SUB-10001
    claim_id TEXT NOT NULL REFERENCES claims(id),
    other_party_insurer TEXT NOT NULL,
    amount REAL NOT NULL,             -- what we pursue: paid out plus the insured's deductible
    status TEXT NOT NULL,             -- open | recovered | closed
    created_at TEXT NOT NULL
);
