"""The retail backend as the world engine sees it: schema, seed, judged fields and id sequences."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from statebox.domains.retail.seed import NOW, seed
from statebox.domains.retail.tools.policy_search import policy_sections
from statebox.world import Sequence, TableSpec, WorldSpec

HERE = Path(__file__).parent
POLICY = (HERE / "policy.md").read_text(encoding="utf-8")

TABLES = {t.name: t for t in [
    TableSpec("customers", dont_care=frozenset({"updated_at"})),
    TableSpec("orders", free_text=frozenset({"cancel_reason"}), dont_care=frozenset({"updated_at"})),
    TableSpec("returns", free_text=frozenset({"customer_comment"}), dont_care=frozenset({"updated_at"})),
    TableSpec("warranty_claims", free_text=frozenset({"issue_description"})),
    TableSpec("installation_jobs", dont_care=frozenset({"updated_at"})),
    TableSpec("tickets", free_text=frozenset({"subject", "description"}), dont_care=frozenset({"updated_at"})),
    TableSpec("ticket_comments", free_text=frozenset({"body"})),
    TableSpec("refunds", ledger=True),
    TableSpec("loyalty_transactions", ledger=True),
    TableSpec("emails_sent", ledger=True, free_text=frozenset({"subject", "body"})),
    TableSpec("handoffs", ledger=True, free_text=frozenset({"summary"})),
]}

# Seed ids stay below these starts; task rows use the 9xxxx ranges (see AUTHORING.md).
SEQUENCES = {
    "addresses": Sequence("ADR-", 50001),
    "orders": Sequence("ORD-", 50001),
    "order_items": Sequence("ITM-", 500001),
    "refunds": Sequence("RFD-", 500001),
    "returns": Sequence("RMA-", 50001),
    "carrier_investigations": Sequence("CIV-", 50001),
    "warranty_claims": Sequence("CLM-", 50001),
    "loyalty_transactions": Sequence("LOY-", 500001),
    "tickets": Sequence("TCK-", 50001),
    "ticket_comments": Sequence("CMT-", 500001),
    "emails_sent": Sequence("EML-", 50001),
    "handoffs": Sequence("HND-", 50001),
}


def _seed(conn: sqlite3.Connection) -> None:
    seed(conn, policy_sections(POLICY))


WORLD = WorldSpec(
    name="retail",
    ddl=(HERE / "schema.sql").read_text(encoding="utf-8"),
    tables=TABLES,
    now=NOW,
    seed=_seed,
    sequences=SEQUENCES,
)
