"""Directory accounts: activation and disabling dates, multi-factor authentication resets."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from statebox.domains.consulting.tools.common import employee_row, parse_day
from statebox.kit import now_iso, today
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

AccountHolder = Annotated[str, Field(description="whose account")]


def _account(db: Session, employee_id: str) -> Row:
    e = employee_row(db, employee_id)
    acc = db.one("SELECT * FROM accounts WHERE employee_id = ?", e["id"])
    if acc is None:
        raise PreconditionFailed(f"{e['id']} has no directory account record.")
    return acc


@tool(writes=True)
def schedule_account_change(
    db: Session, employee_id: AccountHolder, action: Literal["activate", "disable"], on_date: str,
) -> Row:
    """Schedule a directory account to be activated (a joiner) or disabled (a leaver) on a date.

    Args:
        action: activate or disable
        on_date: the date, YYYY-MM-DD
    """
    acc = _account(db, employee_id)
    when = parse_day(on_date, "on_date").isoformat()
    if when < today(db):
        raise InvalidArguments("the date cannot be in the past.")
    if action == "activate":
        if acc["status"] != "not_created":
            raise PreconditionFailed(f"the account of {acc['employee_id']} is already {acc['status']}.")
        db.update("accounts", acc["employee_id"], activate_on=when)
    else:
        if acc["status"] != "active":
            raise PreconditionFailed(f"the account of {acc['employee_id']} is {acc['status']}.")
        db.update("accounts", acc["employee_id"], disable_on=when)
    return {"employee_id": acc["employee_id"], "action": action, "on_date": when}


@tool(writes=True)
def reset_mfa(db: Session, employee_id: AccountHolder) -> Row:
    """Reset multi-factor authentication: the employee enrols their phone again at next sign-in."""
    acc = _account(db, employee_id)
    if acc["status"] != "active":
        raise PreconditionFailed(f"the account of {acc['employee_id']} is {acc['status']}; it cannot be reset.",
                                 hint="disabled accounts go to hr_advisory.")
    db.update("accounts", acc["employee_id"], mfa_status="reset_pending", mfa_reset_at=now_iso(db))
    return {"employee_id": acc["employee_id"], "mfa_status": "reset_pending", "reset_at": today(db)}
