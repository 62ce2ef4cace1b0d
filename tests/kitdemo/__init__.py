"""A small domain built only from the kit: members, a helpdesk, ledgers, customer-side state, a composite key."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from statebox.kit import (
    OwnWorld,
    Party,
    build_domain,
    customer_side,
    email_ledger,
    fetch,
    handoff_ledger,
    helpdesk,
    money,
    normalize_id,
)
from statebox.tools import PreconditionFailed, tool
from statebox.world import Row, Session, TableSpec

HERE = Path(__file__).parent
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

DDL = (HERE / "schema.sql").read_text(encoding="utf-8")
POLICY = (HERE / "policy.md").read_text(encoding="utf-8")
MEMBERS = Party("members", "MEM", "member_id")


def seed(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO members VALUES ('MEM-1', 'Ada Byron', 'ada@example.com', '+44-20-5550-0001', "
                 "'1 Old Road', 0)")
    conn.execute("INSERT INTO enrolments VALUES ('MEM-1', 'pottery', 120.05, 'active')")


@tool(writes=True)
def change_street(db: Session, member_id: str, street: str) -> Row:
    """Change a member's street address (after the code on their phone was checked).

    Args:
        member_id: the member id, e.g. MEM-1
        street: the new street line as the member dictates it
    """
    m = fetch(db, "members", normalize_id(member_id, "MEM"), "member", "ids look like MEM-1.")
    verified = db.one("SELECT 1 AS ok FROM verification_codes WHERE owner_id = ? AND status = 'verified'", m["id"])
    if verified is None:
        raise PreconditionFailed("the member's identity is not verified.", hint="send and check a code first.")
    db.update("members", m["id"], street=street.strip())
    return {"member_id": m["id"], "street": street.strip()}


@tool(writes=True)
def withdraw(db: Session, member_id: str, course: str) -> Row:
    """Withdraw a member from a course; refunds 80% of the fee.

    Args:
        member_id: the member id
        course: the course name
    """
    row = db.one("SELECT * FROM enrolments WHERE member_id = ? AND course = ?", member_id, course)
    if row is None:
        raise PreconditionFailed(f"{member_id} is not enrolled in {course}.")
    db.update("enrolments", [member_id, course], status="withdrawn", fee=money(row["fee"] * 0.2))
    return {"refund": money(row["fee"] * 0.8)}


DOMAIN = build_domain(
    HERE,
    description="A kit-only test domain.",
    world=OwnWorld(NOW, seed, [
        TableSpec("members", normalized=frozenset({"street"})),
        TableSpec("enrolments", primary_key=("member_id", "course"), tolerance={"fee": 0.005}),
    ]),
    tools=[change_street, withdraw],
    components=[
        helpdesk(requester=MEMBERS, hold_reasons=("registrar",)),
        email_ledger(recipient=MEMBERS, templates={"ticket_update": ("tickets", "ticket")}),
        handoff_ledger(teams=("registrar", "security"), status_after="hold"),
        customer_side(owner=MEMBERS),
    ],
)
