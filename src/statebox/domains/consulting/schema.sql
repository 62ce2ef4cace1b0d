-- Corvane Partners internal service desk: people, engagements, software, devices, training, leave,
-- expenses, approvals and directory accounts. Helpdesk, email, hand-off and customer-side tables
-- come from the domain kit.

CREATE TABLE offices (
    id TEXT PRIMARY KEY,            -- OFC-01..
    city TEXT NOT NULL,
    country TEXT NOT NULL,
    line1 TEXT NOT NULL,
    postal_code TEXT NOT NULL
);

CREATE TABLE practices (
    id TEXT PRIMARY KEY,            -- PRC-01..
    name TEXT NOT NULL,
    lead_id TEXT                    -- the practice lead (an employee)
);

CREATE TABLE employees (
    id TEXT PRIMARY KEY,            -- EMP-1001..
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    phone TEXT NOT NULL,
    level TEXT NOT NULL,            -- analyst consultant senior_consultant manager senior_manager director partner
    practice_id TEXT NOT NULL REFERENCES practices(id),
    office_id TEXT NOT NULL REFERENCES offices(id),
    manager_id TEXT,                -- line manager
    status TEXT NOT NULL,           -- active on_leave pending_start leaver
    work_mode TEXT NOT NULL,        -- office hybrid remote
    leave_until TEXT,               -- for on_leave: last day of the absence
    delegate_id TEXT,               -- for on_leave: who approves in their place
    start_date TEXT NOT NULL,
    end_date TEXT                   -- for leavers and people serving notice: last working day
);

CREATE TABLE accounts (
    employee_id TEXT PRIMARY KEY REFERENCES employees(id),
    username TEXT NOT NULL,
    status TEXT NOT NULL,           -- not_created active disabled
    activate_on TEXT,
    disable_on TEXT,
    mfa_status TEXT NOT NULL,       -- enrolled reset_pending none
    mfa_reset_at TEXT
);

CREATE TABLE engagements (
    id TEXT PRIMARY KEY,            -- ENG-2001..
    name TEXT NOT NULL,
    client TEXT NOT NULL,
    status TEXT NOT NULL,           -- active closed pipeline
    billable INTEGER NOT NULL,
    partner_id TEXT NOT NULL,
    manager_id TEXT NOT NULL,
    starts_on TEXT NOT NULL,
    ends_on TEXT NOT NULL
);

CREATE TABLE assignments (
    id TEXT PRIMARY KEY,            -- ASG-10001..
    employee_id TEXT NOT NULL,
    engagement_id TEXT NOT NULL,
    role TEXT NOT NULL,
    starts_on TEXT NOT NULL,
    ends_on TEXT NOT NULL
);

CREATE TABLE blackouts (
    id TEXT PRIMARY KEY,            -- BLK-101..
    engagement_id TEXT NOT NULL,
    starts_on TEXT NOT NULL,
    ends_on TEXT NOT NULL,
    reason TEXT NOT NULL
);

CREATE TABLE cities (
    id TEXT PRIMARY KEY,            -- CTY-101..
    name TEXT NOT NULL,
    country TEXT NOT NULL,
    band TEXT NOT NULL              -- A B C
);

CREATE TABLE software (
    id TEXT PRIMARY KEY,            -- SW-101..
    name TEXT NOT NULL,
    vendor TEXT NOT NULL,
    category TEXT NOT NULL,
    annual_cost REAL NOT NULL,      -- per named user per year, USD
    restricted INTEGER NOT NULL     -- 1: handles client data outside the firm's tenancy
);

CREATE TABLE access_grants (
    id TEXT PRIMARY KEY,            -- ACC-10001..
    employee_id TEXT NOT NULL,
    software_id TEXT NOT NULL,
    engagement_id TEXT,             -- charged to this engagement; NULL = practice overhead
    approval_id TEXT,
    status TEXT NOT NULL,           -- active pending_approval revoked
    granted_at TEXT NOT NULL,
    revoke_on TEXT,                 -- scheduled revocation date
    revoked_at TEXT
);

CREATE TABLE device_models (
    id TEXT PRIMARY KEY,            -- MDL-101..
    kind TEXT NOT NULL,             -- laptop phone monitor dock headset
    name TEXT NOT NULL,
    cost REAL NOT NULL,
    standard INTEGER NOT NULL
);

CREATE TABLE devices (
    id TEXT PRIMARY KEY,            -- AST-10001..
    employee_id TEXT,
    model_id TEXT NOT NULL,
    serial TEXT NOT NULL,
    purchased_on TEXT NOT NULL,
    condition TEXT NOT NULL,        -- good worn damaged failed
    battery_health INTEGER,         -- percent of design capacity (laptops and phones)
    status TEXT NOT NULL            -- in_use return_requested returned retired
);

CREATE TABLE device_orders (
    id TEXT PRIMARY KEY,            -- DOR-50001..
    employee_id TEXT NOT NULL,
    model_id TEXT NOT NULL,
    replaces_asset_id TEXT,
    ship_to TEXT NOT NULL,          -- office home
    office_id TEXT,
    ship_line1 TEXT,
    ship_city TEXT,
    ship_postal_code TEXT,
    ship_country TEXT,
    approval_id TEXT,
    status TEXT NOT NULL,           -- ordered awaiting_approval
    created_at TEXT NOT NULL
);

CREATE TABLE asset_returns (
    id TEXT PRIMARY KEY,            -- RTN-50001..
    asset_id TEXT NOT NULL,
    employee_id TEXT NOT NULL,
    reason TEXT NOT NULL,           -- replaced offboarding surplus
    created_at TEXT NOT NULL
);

CREATE TABLE courses (
    id TEXT PRIMARY KEY,            -- CRS-301..
    title TEXT NOT NULL,
    provider TEXT NOT NULL,
    cost REAL NOT NULL,
    starts_on TEXT NOT NULL,
    capacity INTEGER NOT NULL,
    enrolled INTEGER NOT NULL
);

CREATE TABLE enrolments (
    id TEXT PRIMARY KEY,            -- ENR-10001..
    employee_id TEXT NOT NULL,
    course_id TEXT NOT NULL,
    status TEXT NOT NULL,           -- enrolled pending_approval waitlisted cancelled completed
    cost REAL NOT NULL,
    approval_id TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE leave_balances (
    employee_id TEXT NOT NULL,
    leave_type TEXT NOT NULL,       -- annual sick study
    days_remaining REAL NOT NULL,
    PRIMARY KEY (employee_id, leave_type)
);

CREATE TABLE leave_requests (
    id TEXT PRIMARY KEY,            -- LVE-10001..
    employee_id TEXT NOT NULL,
    leave_type TEXT NOT NULL,
    starts_on TEXT NOT NULL,
    ends_on TEXT NOT NULL,
    days REAL NOT NULL,
    status TEXT NOT NULL,           -- approved pending_approval cancelled
    approval_id TEXT,
    document_id TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE expense_claims (
    id TEXT PRIMARY KEY,            -- EXP-10001..
    employee_id TEXT NOT NULL,
    category TEXT NOT NULL,         -- meals lodging transport mileage client_entertainment
    expense_date TEXT NOT NULL,
    city TEXT NOT NULL,
    amount REAL NOT NULL,           -- what the employee spent
    reimbursable_amount REAL NOT NULL,
    engagement_id TEXT,             -- billed to this engagement; NULL = practice overhead
    receipt_document_id TEXT,
    approval_id TEXT,
    status TEXT NOT NULL,           -- approved awaiting_approval reimbursed rejected
    description TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE reimbursements (
    id TEXT PRIMARY KEY,            -- RMB-50001..
    expense_id TEXT NOT NULL,
    employee_id TEXT NOT NULL,
    amount REAL NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE approval_requests (
    id TEXT PRIMARY KEY,            -- APR-10001..
    requester_id TEXT NOT NULL,
    approver_id TEXT NOT NULL,
    kind TEXT NOT NULL,             -- software device training leave expense
    item_id TEXT,                   -- the software, device model or course concerned
    amount REAL,
    status TEXT NOT NULL,           -- pending approved rejected
    evidence_document_id TEXT,      -- a written approval the employee uploaded
    note TEXT,
    created_at TEXT NOT NULL
);
