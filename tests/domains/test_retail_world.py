"""The retail backend: a small real shop, built quickly and the same every time."""

from __future__ import annotations

import re

from statebox.domains.retail import DOMAIN
from statebox.domains.retail.seed import build_rows
from statebox.world import Session


def count(session: Session, table: str) -> int:
    row = session.one(f'SELECT count(*) AS n FROM "{table}"')
    assert row is not None
    return int(row["n"])


def test_seed_is_the_size_of_a_small_real_shop(retail: Session) -> None:
    assert count(retail, "customers") >= 200
    assert count(retail, "orders") >= 1000
    for table in ("order_items", "payments", "shipments", "tracking_events", "returns", "warranty_contracts",
                  "warranty_claims", "installation_jobs", "tickets", "ticket_comments", "loyalty_transactions"):
        assert count(retail, table) > 0, f"{table} has no seed rows"


def test_seed_is_deterministic() -> None:
    assert build_rows() == build_rows()


def test_every_order_has_items_and_a_payment(retail: Session) -> None:
    bare = retail.all("SELECT id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id) "
                      "OR NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id)")
    assert bare == []


def test_sequences_start_above_every_seed_id(retail: Session) -> None:
    for name, seq in DOMAIN.world.sequences.items():
        ids = [r["id"] for r in retail.all(f'SELECT id FROM "{name}"')]
        numbers = [int(m.group(1)) for i in ids if (m := re.fullmatch(re.escape(seq.prefix) + r"(\d+)", i))]
        assert max(numbers, default=0) < seq.start, f"seed ids of {name} reach the sequence start {seq.start}"


def test_policy_states_the_frozen_now() -> None:
    assert DOMAIN.world.now.isoformat() == "2025-10-01T13:00:00+00:00"
    assert "1 October 2025, 13:00 UTC" in DOMAIN.policy
