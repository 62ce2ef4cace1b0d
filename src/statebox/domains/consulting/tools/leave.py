"""Leave balances, leave requests and cancellations."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from statebox.domains.consulting.tools.common import (
    CoveringApproval,
    EmployeeId,
    approval_row,
    employee_row,
    parse_day,
    uploaded_document,
    working_days,
)
from statebox.kit import compact, lookup, now_iso
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

LeaveType = Literal["annual", "sick", "study"]
LeaveId = Annotated[str, Field(description="the leave request, e.g. LVE-10234")]

_leave = lookup("leave_requests", "LVE", "leave ids look like LVE-10234; see get_leave_summary.")


def _balance(db: Session, employee_id: str, leave_type: str) -> float:
    row = db.one("SELECT days_remaining FROM leave_balances WHERE employee_id = ? AND leave_type = ?",
                 employee_id, leave_type)
    return float(row["days_remaining"]) if row else 0.0


def _set_balance(db: Session, employee_id: str, leave_type: str, days: float) -> None:
    db.execute("INSERT INTO leave_balances (employee_id, leave_type, days_remaining) VALUES (?, ?, ?) "
               "ON CONFLICT (employee_id, leave_type) DO UPDATE SET days_remaining = excluded.days_remaining",
               employee_id, leave_type, days)


@tool(writes=False)
def get_leave_summary(db: Session, employee_id: EmployeeId) -> Row:
    """An employee's leave balances (days remaining by type) and leave requests, earliest first."""
    e = employee_row(db, employee_id)
    balances = {r["leave_type"]: r["days_remaining"] for r in
                db.all("SELECT leave_type, days_remaining FROM leave_balances WHERE employee_id = ?", e["id"])}
    rows = db.all("SELECT * FROM leave_requests WHERE employee_id = ? ORDER BY starts_on, id", e["id"])
    return {"employee_id": e["id"], "balances": balances,
            "requests": [{"leave_id": r["id"], **compact(r, "id", "employee_id")} for r in rows]}


@tool(writes=True)
def book_leave(
    db: Session,
    employee_id: str,
    leave_type: LeaveType,
    starts_on: str,
    ends_on: str,
    approval_id: CoveringApproval = None,
    document_id: str | None = None,
) -> Row:
    """Book leave from its first to its last day; the working days are taken from the balance at once.

    Linked to a pending approval, the leave waits as pending_approval.

    Args:
        employee_id: whose leave
        leave_type: annual, sick or study
        starts_on: first day of leave, YYYY-MM-DD
        ends_on: last day of leave, YYYY-MM-DD
        document_id: an uploaded supporting document (a medical certificate)
    """
    e = employee_row(db, employee_id)
    first, last = parse_day(starts_on, "starts_on"), parse_day(ends_on, "ends_on")
    if last < first:
        raise InvalidArguments("ends_on is before starts_on.")
    days = working_days(first, last)
    if days == 0:
        raise InvalidArguments("those dates contain no working day.")
    clash = db.one("SELECT id FROM leave_requests WHERE employee_id = ? AND status != 'cancelled' "
                   "AND starts_on <= ? AND ends_on >= ?", e["id"], last.isoformat(), first.isoformat())
    if clash:
        raise PreconditionFailed(f"{e['id']} already has leave {clash['id']} on some of those days.")
    a = approval_row(db, approval_id, e)
    doc = uploaded_document(db, document_id, e) if document_id else None
    lid = db.next_id("leave_requests")
    status = "pending_approval" if a and a["status"] == "pending" else "approved"
    db.insert("leave_requests", {"id": lid, "employee_id": e["id"], "leave_type": leave_type,
                                 "starts_on": first.isoformat(), "ends_on": last.isoformat(), "days": float(days),
                                 "status": status, "approval_id": a["id"] if a else None,
                                 "document_id": doc["id"] if doc else None, "created_at": now_iso(db)})
    left = _balance(db, e["id"], leave_type) - days
    _set_balance(db, e["id"], leave_type, left)
    return {"leave_id": lid, "status": status, "days": float(days), "balance_left": left}


@tool(writes=True)
def cancel_leave(db: Session, leave_id: LeaveId) -> Row:
    """Cancel a leave request; its days go back to the balance."""
    lv = _leave(db, leave_id)
    if lv["status"] == "cancelled":
        raise PreconditionFailed(f"leave {lv['id']} is already cancelled.")
    db.update("leave_requests", lv["id"], status="cancelled")
    left = _balance(db, lv["employee_id"], lv["leave_type"]) + lv["days"]
    _set_balance(db, lv["employee_id"], lv["leave_type"], left)
    return {"leave_id": lv["id"], "status": "cancelled", "balance_left": left}
