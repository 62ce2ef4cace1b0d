"""Lookups the consulting tools share, and the firm's working-day calendar."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Annotated

from pydantic import Field

from statebox.kit import compact, lookup
from statebox.tools import InvalidArguments, NotFound, PreconditionFailed
from statebox.world import Row, Session

# Arguments described once, for every tool that takes them (a tool's own Args: line says it otherwise).
EmployeeId = Annotated[str, Field(description="the employee id")]
CoveringApproval = Annotated[str | None, Field(description="the approval request that covers it, when one is needed")]

HOLIDAYS = frozenset({date(2026, 4, 3), date(2026, 4, 6), date(2026, 5, 25)})


employee_row = lookup(
    "employees", "EMP",
    "employee ids look like EMP-1042; find the employee by work email with find_employee.",
)


engagement_row = lookup(
    "engagements", "ENG",
    "engagement codes look like ENG-2041; ask the employee to check the code.",
)


_approval = lookup(
    "approval_requests", "APR",
    "approval ids look like APR-50001; create one with create_approval_request.",
)


@dataclass(frozen=True)
class ByEmployee:
    """An employee's rows of one kind as a list tool shows them: `sql` selects them (its one ? is the employee's
    id); each row's id is shown as `key`, and the `owner` column, always that employee, is left out."""

    key: str
    sql: str
    owner: str = "employee_id"

    def __call__(self, db: Session, employee_id: str) -> list[Row]:
        e = employee_row(db, employee_id)
        return [{self.key: r["id"], **compact(r, "id", self.owner)} for r in db.all(self.sql, e["id"])]


def approval_row(db: Session, approval_id: str | None, requester: Row) -> Row | None:
    """The approval an item is linked to: it must be the requester's and not rejected."""
    if approval_id is None:
        return None
    a = _approval(db, approval_id)
    if a["requester_id"] != requester["id"]:
        raise PreconditionFailed(f"approval {a['id']} was requested by {a['requester_id']}, not {requester['id']}.")
    if a["status"] == "rejected":
        raise PreconditionFailed(f"approval {a['id']} was rejected; nothing can be linked to it.")
    return a


def uploaded_document(db: Session, document_id: str, owner: Row) -> Row:
    doc = db.one("SELECT * FROM documents WHERE id = ? AND status = 'uploaded'", document_id.strip().upper())
    if doc is None:
        raise NotFound(f"no uploaded document {document_id!r}.",
                       hint="ask the employee to upload it, then list their documents.")
    if doc["owner_id"] != owner["id"]:
        raise PreconditionFailed(f"document {doc['id']} belongs to another employee.")
    return doc


def parse_day(value: str, what: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise InvalidArguments(f"{what} must be a date like 2026-03-24, got {value!r}.") from None


def working_days(first: date, last: date) -> int:
    """Monday to Friday from first to last inclusive, without the firm's holidays."""
    n, day = 0, first
    while day <= last:
        if day.weekday() < 5 and day not in HOLIDAYS:
            n += 1
        day += timedelta(days=1)
    return n
