"""The neobank world: a seed the size of a real operation, deterministic, with ids below the tools' sequences."""

from __future__ import annotations

import sqlite3

from statebox.domains.neobank import DOMAIN
from statebox.domains.neobank.seed import BankSeed, seed
from statebox.world import Session


def count(session: Session, table: str) -> int:
    row = session.one(f'SELECT COUNT(*) AS n FROM "{table}"')
    assert row is not None
    return int(row["n"])


def test_the_seed_is_the_size_the_issue_asks_for(bank: Session) -> None:
    sizes = {t: count(bank, t) for t in ("customers", "accounts", "cards", "transactions")}
    assert sizes["customers"] >= 300 and sizes["accounts"] >= 450, sizes
    assert sizes["cards"] >= 400 and sizes["transactions"] >= 6000, sizes


def test_the_seed_is_the_same_every_time() -> None:
    assert BankSeed().build() == BankSeed().build()


def test_seed_ids_stay_below_the_sequences_and_the_task_ranges(bank: Session) -> None:
    highest = bank.one("SELECT MAX(CAST(substr(id, 5) AS INTEGER)) AS n FROM transactions")
    assert highest is not None and highest["n"] < 500001
    assert bank.one("SELECT id FROM customers WHERE id >= 'CUS-9000'") is None
    assert bank.one("SELECT id FROM accounts WHERE CAST(substr(id, 5) AS INTEGER) >= 50001") is None


def test_every_account_balance_is_the_sum_of_its_transactions(bank: Session) -> None:
    off = bank.all("SELECT a.id, a.balance, ROUND(COALESCE(SUM(t.amount), 0), 2) AS total FROM accounts a "
                   "LEFT JOIN transactions t ON t.account_id = a.id AND t.status != 'cancelled' "
                   "GROUP BY a.id HAVING ABS(a.balance - total) > 0.005")
    assert off == []


def test_the_seed_satisfies_the_schema_and_its_foreign_keys() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.executescript(DOMAIN.world.ddl)
    seed(conn)
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []


def test_the_policy_states_the_fixed_now_and_has_twelve_sections_or_more() -> None:
    assert "Wednesday 12 November 2025, 14:00 UTC" in DOMAIN.policy
    assert DOMAIN.policy.count("\n## ") >= 12
