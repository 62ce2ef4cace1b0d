"""Expense claims, city bands and reimbursements."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from statebox.domains.consulting.tools.common import (
    ByEmployee,
    EmployeeId,
    approval_row,
    employee_row,
    engagement_row,
    parse_day,
    uploaded_document,
)
from statebox.kit import compact, lookup, money, now_iso
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

Category = Literal["meals", "lodging", "transport", "mileage", "client_entertainment"]
ExpenseId = Annotated[str, Field(description="the claim, e.g. EXP-10234")]

_claim = lookup("expense_claims", "EXP", "claim ids look like EXP-10234; see list_expense_claims.")
_claims = ByEmployee("expense_id",
                     "SELECT * FROM expense_claims WHERE employee_id = ? ORDER BY expense_date DESC, id DESC")


@tool(writes=False)
def get_city_band(db: Session, city: str) -> Row:
    """The expense band (A, B or C) of a city.

    Args:
        city: the city's name, e.g. Chicago
    """
    row = db.one("SELECT name, country, band FROM cities WHERE lower(name) = lower(?)", city.strip())
    if row is None:
        return {"city": city.strip(), "listed": False, "band": None}
    return {"city": row["name"], "country": row["country"], "listed": True, "band": row["band"]}


@tool(writes=False)
def list_expense_claims(db: Session, employee_id: EmployeeId) -> list[Row]:
    """An employee's expense claims, newest expense first."""
    return _claims(db, employee_id)


@tool(writes=True)
def file_expense_claim(
    db: Session, employee_id: str, category: Category, expense_date: str, city: str, amount: float,
    reimbursable_amount: float, engagement_id: str | None = None, receipt_document_id: str | None = None,
    approval_id: str | None = None, description: str | None = None,
) -> Row:
    """File an expense claim: approved, or awaiting_approval when linked to a pending approval.

    Args:
        employee_id: who spent the money
        category: meals, lodging, transport, mileage or client_entertainment
        expense_date: the day of the expense (for lodging, the night), YYYY-MM-DD
        city: where it was spent
        amount: what was spent, in dollars (for mileage: the mileage amount)
        reimbursable_amount: what the firm pays back under the handbook's limits
        engagement_id: the engagement billed for it; empty for practice overhead
        receipt_document_id: the uploaded receipt
        approval_id: the sign-off request, when one is needed
        description: what the expense was
    """
    e = employee_row(db, employee_id)
    day = parse_day(expense_date, "expense_date")
    if amount <= 0 or reimbursable_amount < 0 or reimbursable_amount > amount:
        raise InvalidArguments("amount must be positive and reimbursable_amount between 0 and amount.")
    g = engagement_row(db, engagement_id)["id"] if engagement_id else None
    doc = uploaded_document(db, receipt_document_id, e) if receipt_document_id else None
    a = approval_row(db, approval_id, e)
    xid = db.next_id("expense_claims")
    row = {"id": xid, "employee_id": e["id"], "category": category, "expense_date": day.isoformat(),
           "city": city.strip(), "amount": money(amount), "reimbursable_amount": money(reimbursable_amount),
           "engagement_id": g, "receipt_document_id": doc["id"] if doc else None,
           "approval_id": a["id"] if a else None,
           "status": "awaiting_approval" if a and a["status"] == "pending" else "approved",
           "description": description, "created_at": now_iso(db)}
    db.insert("expense_claims", row)
    return {"expense_id": xid, **compact(row, "id", "description")}


@tool(writes=True)
def reimburse_expense(db: Session, expense_id: ExpenseId) -> Row:
    """Pay an approved claim's reimbursable amount to the employee (the claim becomes reimbursed)."""
    x = _claim(db, expense_id)
    if x["status"] != "approved":
        raise PreconditionFailed(f"claim {x['id']} is {x['status']}; only approved claims are reimbursed.")
    rid = db.next_id("reimbursements")
    db.insert("reimbursements", {"id": rid, "expense_id": x["id"], "employee_id": x["employee_id"],
                                 "amount": x["reimbursable_amount"], "created_at": now_iso(db)})
    db.update("expense_claims", x["id"], status="reimbursed")
    return {"reimbursement_id": rid, "expense_id": x["id"], "amount": x["reimbursable_amount"]}
