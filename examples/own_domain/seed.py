"""The backend: its tables, how they are judged, and the rows every attempt starts from."""

import sqlite3
from datetime import UTC, datetime

from statebox.world import Sequence, TableSpec

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # every attempt's frozen clock; the policy states it too

DDL = """
CREATE TABLE members (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    plan TEXT NOT NULL CHECK (plan IN ('basic', 'plus', 'family')),
    balance REAL NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'frozen')),
    frozen_until TEXT,
    updated_at TEXT NOT NULL
);
CREATE TABLE classes (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    starts_at TEXT NOT NULL,
    capacity INTEGER NOT NULL,
    booked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE bookings (
    id TEXT PRIMARY KEY,
    member_id TEXT NOT NULL,
    class_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('booked', 'cancelled')),
    late_fee REAL NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE payments (
    id TEXT PRIMARY KEY,
    member_id TEXT NOT NULL,
    amount REAL NOT NULL,
    paid_at TEXT NOT NULL
);
"""

HALF_CENT = 0.005
TABLES = [
    TableSpec("members", dont_care=frozenset({"updated_at"}), tolerance={"balance": HALF_CENT}),
    TableSpec("classes"),
    TableSpec("bookings", dont_care=frozenset({"created_at", "updated_at"}), tolerance={"late_fee": HALF_CENT}),
    TableSpec("payments", ledger=True, dont_care=frozenset({"paid_at"}), tolerance={"amount": HALF_CENT}),
]
# Ids the tools generate; seed and task rows stay below them (tasks use the 9xxx ranges).
SEQUENCES = {"bookings": Sequence("BKG-", 50001), "payments": Sequence("PAY-", 50001)}

MEMBERS = [
    ("MEM-1001", "Ines Duarte", "ines.duarte@example.com", "basic", 0.0, "active", None),
    ("MEM-1002", "Tomas Reyes", "tomas.reyes@example.com", "plus", 0.0, "active", None),
    ("MEM-1003", "Priya Natarajan", "priya.n@example.com", "family", 12.5, "active", None),
    ("MEM-1004", "Jonas Berg", "jonas.berg@example.com", "plus", 0.0, "frozen", "2026-04-10"),
]
CLASSES = [
    ("CLS-1001", "Bouldering basics", "2026-03-03T18:00:00+00:00", 12, 4),
    ("CLS-1002", "Lead climbing", "2026-03-04T19:00:00+00:00", 8, 8),
    ("CLS-1003", "Yoga for climbers", "2026-03-05T07:30:00+00:00", 15, 3),
]


def seed(conn: sqlite3.Connection) -> None:
    """The rows every task starts from (a task adds its own with `initial_rows`)."""
    conn.executemany(
        "INSERT INTO members VALUES (?, ?, ?, ?, ?, ?, ?, '2026-01-05T10:00:00+00:00')", MEMBERS
    )
    conn.executemany("INSERT INTO classes VALUES (?, ?, ?, ?, ?)", CLASSES)
