CREATE TABLE members (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, phone TEXT, street TEXT NOT NULL,
    verified INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE enrolments (
    member_id TEXT NOT NULL, course TEXT NOT NULL, fee REAL NOT NULL, status TEXT NOT NULL,
    PRIMARY KEY (member_id, course)
);
