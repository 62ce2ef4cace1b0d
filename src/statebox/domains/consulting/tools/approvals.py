"""Approval requests: one approver each, pending until they decide, or approved by a written approval."""

from __future__ import annotations

from typing import Literal

from statebox.domains.consulting.tools.common import ByEmployee, employee_row, uploaded_document
from statebox.kit import compact, money, now_iso
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

Kind = Literal["software", "device", "training", "leave", "expense"]

_requested = ByEmployee("approval_id", "SELECT * FROM approval_requests WHERE requester_id = ? "
                                       "ORDER BY created_at DESC, id DESC", owner="requester_id")


@tool(writes=True)
def create_approval_request(
    db: Session, requester_id: str, approver_id: str, kind: Kind, item_id: str | None = None,
    amount: float | None = None, evidence_document_id: str | None = None, note: str | None = None,
) -> Row:
    """Ask one approver to approve a request. With evidence (an uploaded written approval) it is approved at once.

    Args:
        requester_id: the employee who asks
        approver_id: the one employee who approves (see the handbook's routing rules)
        kind: software, device, training, leave or expense
        item_id: the catalogue item concerned (software SW-..., device model MDL-..., course CRS-...), if any
        amount: the cost concerned in dollars (annual licence cost, device or course cost, claim amount)
        evidence_document_id: an uploaded document with the approver's written approval
        note: what is being asked, in a sentence
    """
    requester = employee_row(db, requester_id)
    approver = employee_row(db, approver_id)
    if approver["id"] == requester["id"]:
        raise PreconditionFailed("nobody approves their own request.", hint="route it to the next approver.")
    if amount is not None and amount < 0:
        raise InvalidArguments("amount cannot be negative.")
    doc = uploaded_document(db, evidence_document_id, requester) if evidence_document_id else None
    aid = db.next_id("approval_requests")
    row = {"id": aid, "requester_id": requester["id"], "approver_id": approver["id"], "kind": kind,
           "item_id": item_id.strip().upper() if item_id else None,
           "amount": money(amount) if amount is not None else None,
           "status": "approved" if doc else "pending", "evidence_document_id": doc["id"] if doc else None,
           "note": note, "created_at": now_iso(db)}
    db.insert("approval_requests", row)
    return {"approval_id": aid, **compact(row, "id")}


@tool(writes=False)
def list_approval_requests(db: Session, employee_id: str) -> list[Row]:
    """Approval requests an employee has made, newest first.

    Args:
        employee_id: the requester's id
    """
    return _requested(db, employee_id)
