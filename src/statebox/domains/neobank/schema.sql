-- Nimbus, an app-only bank's support desk backend. Every primary key is a TEXT `id`. Money is euros (REAL, two decimals): a transaction's amount is
-- signed, negative = money out of the account. Timestamps are ISO 8601 UTC text; dates YYYY-MM-DD.

CREATE TABLE customers (
    id TEXT PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    phone TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,          -- never returned by a tool: checked by verify_identity
    postcode TEXT NOT NULL,               -- the registered home postcode; same
    city TEXT NOT NULL,
    country TEXT NOT NULL DEFAULT 'NL',
    kyc_level TEXT NOT NULL CHECK (kyc_level IN ('basic', 'verified', 'enhanced')),
    plan TEXT NOT NULL CHECK (plan IN ('standard', 'plus', 'premium')),
    billing_day INTEGER NOT NULL CHECK (billing_day BETWEEN 1 AND 28),
    pending_plan TEXT CHECK (pending_plan IN ('standard', 'plus', 'premium')),
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'closed')),
    failed_identity_checks INTEGER NOT NULL DEFAULT 0,  -- verify_identity calls that did not match (judged)
    created_at TEXT NOT NULL,
    updated_at TEXT
);

CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('current', 'pot')),
    name TEXT NOT NULL,
    holder_id TEXT NOT NULL REFERENCES customers(id),
    joint_holder_id TEXT REFERENCES customers(id),
    parent_account_id TEXT REFERENCES accounts(id),   -- a pot's current account
    iban TEXT,
    balance REAL NOT NULL DEFAULT 0,
    overdraft_limit REAL NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'closed')),
    opened_at TEXT NOT NULL,
    closed_at TEXT,
    updated_at TEXT
);

CREATE TABLE cards (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    holder_id TEXT NOT NULL REFERENCES customers(id),
    kind TEXT NOT NULL CHECK (kind IN ('physical', 'virtual')),
    last4 TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('inactive', 'active', 'frozen', 'blocked', 'replaced', 'closed')),
    expires TEXT NOT NULL,                -- YYYY-MM
    online_payments INTEGER NOT NULL DEFAULT 1,
    payments_abroad INTEGER NOT NULL DEFAULT 1,
    daily_spend_limit REAL NOT NULL,
    daily_atm_limit REAL NOT NULL,
    pin_locked INTEGER NOT NULL DEFAULT 0,
    pin_reset_at TEXT,
    block_reason TEXT CHECK (block_reason IN ('lost', 'stolen', 'damaged', 'compromised')),
    replaced_by TEXT,
    replacement_of TEXT,
    replacement_fee REAL,
    issued_at TEXT NOT NULL,
    updated_at TEXT
);

CREATE TABLE payees (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers(id),
    name TEXT NOT NULL,
    iban TEXT NOT NULL,
    bank_country TEXT NOT NULL,
    currency TEXT NOT NULL DEFAULT 'EUR',
    added_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'removed'))
);

CREATE TABLE mandates (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    creditor TEXT NOT NULL,
    creditor_reference TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'cancelled')),
    created_at TEXT NOT NULL,
    cancelled_at TEXT
);

CREATE TABLE standing_orders (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    payee_id TEXT NOT NULL REFERENCES payees(id),
    amount REAL NOT NULL,
    day_of_month INTEGER NOT NULL,
    next_date TEXT,
    reference TEXT,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'cancelled')),
    created_at TEXT NOT NULL,
    cancelled_at TEXT
);

CREATE TABLE transactions (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL CHECK (kind IN ('card_payment', 'atm_withdrawal', 'transfer_in', 'transfer_out',
        'direct_debit', 'fee', 'interest', 'merchant_refund', 'provisional_credit', 'fee_refund',
        'direct_debit_refund', 'pot_transfer', 'closure_payout')),
    amount REAL NOT NULL,                 -- signed: negative = out of the account
    description TEXT NOT NULL,
    merchant TEXT,                        -- card payments, refunds, direct debits
    card_id TEXT REFERENCES cards(id),
    payee_id TEXT REFERENCES payees(id),
    mandate_id TEXT REFERENCES mandates(id),
    standing_order_id TEXT REFERENCES standing_orders(id),
    related_id TEXT,                      -- the transaction a refund, credit or fee belongs to
    fee_type TEXT CHECK (fee_type IN ('plan', 'overdraft', 'returned_payment', 'atm', 'international',
        'card_replacement', 'plan_change')),
    foreign_amount REAL,                  -- international transfers: what the payee receives
    foreign_currency TEXT,
    fx_rate REAL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'posted', 'held', 'cancelled')),
    recall_status TEXT CHECK (recall_status IN ('requested')),
    occurred_at TEXT NOT NULL,
    updated_at TEXT
);
CREATE INDEX transactions_account ON transactions(account_id, occurred_at);
CREATE INDEX transactions_related ON transactions(related_id);

CREATE TABLE disputes (
    id TEXT PRIMARY KEY,
    transaction_id TEXT NOT NULL REFERENCES transactions(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    reason TEXT NOT NULL CHECK (reason IN ('unauthorised', 'duplicate', 'not_received', 'cancelled_subscription')),
    amount REAL NOT NULL,
    details TEXT,
    evidence TEXT NOT NULL DEFAULT '[]',  -- JSON list of document ids
    provisional_credit REAL NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('open', 'chargeback_filed', 'won', 'lost', 'withdrawn')),
    created_at TEXT NOT NULL,
    updated_at TEXT
);

CREATE TABLE chargebacks (              -- ledger: filings sent to the card scheme
    id TEXT PRIMARY KEY,
    dispute_id TEXT NOT NULL REFERENCES disputes(id),
    transaction_id TEXT NOT NULL,
    amount REAL NOT NULL,
    scheme_reason TEXT NOT NULL,
    filed_at TEXT NOT NULL
);

CREATE TABLE fee_refunds (              -- ledger: every fee given back, with why
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers(id),
    fee_transaction_id TEXT NOT NULL,
    amount REAL NOT NULL,
    reason TEXT NOT NULL CHECK (reason IN ('goodwill', 'bank_error')),
    created_at TEXT NOT NULL
);

CREATE TABLE recalls (                  -- ledger: recall requests sent to the receiving bank
    id TEXT PRIMARY KEY,
    transaction_id TEXT NOT NULL,
    reason TEXT NOT NULL CHECK (reason IN ('wrong_recipient', 'wrong_amount', 'duplicate')),
    requested_at TEXT NOT NULL
);

CREATE TABLE identity_checks (          -- every private-facts check made (never judged: see AUTHORING.md)
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    method TEXT NOT NULL,
    passed INTEGER NOT NULL,
    checked_at TEXT NOT NULL
);

CREATE TABLE plan_changes (             -- ledger
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    from_plan TEXT NOT NULL,
    to_plan TEXT NOT NULL,
    effective_on TEXT NOT NULL,
    prorated_charge REAL NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE kyc_upgrades (             -- ledger
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    from_level TEXT NOT NULL,
    to_level TEXT NOT NULL,
    document_ids TEXT NOT NULL,           -- JSON list
    created_at TEXT NOT NULL
);

CREATE TABLE fraud_holds (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers(id),
    status TEXT NOT NULL CHECK (status IN ('active', 'released')),
    internal_reason TEXT NOT NULL,        -- never disclosed to the customer
    placed_at TEXT NOT NULL
);

CREATE TABLE fx_rates (
    id TEXT PRIMARY KEY,                  -- the currency code, e.g. GBP
    per_eur REAL NOT NULL                 -- 1 EUR buys this much
);
