"""Employees, the org chart and engagements."""

from __future__ import annotations

from statebox.domains.consulting.tools.common import employee_row, engagement_row
from statebox.kit import compact
from statebox.tools import InvalidArguments, NotFound, tool
from statebox.world import Row, Session


@tool(writes=False)
def find_employee(db: Session, email: str) -> Row:
    """Find an employee by work email address.

    Args:
        email: the work email, e.g. maya.okafor@corvane.com
    """
    if "@" not in email:
        raise InvalidArguments("give a full work email address, like name.surname@corvane.com.")
    e = db.one("SELECT id, first_name, last_name, level, status FROM employees WHERE lower(email) = lower(?)",
               email.strip())
    if e is None:
        raise NotFound(f"no employee with email {email.strip()!r}.",
                       hint="ask the employee to spell their work email again.")
    return {"employee_id": e["id"], "name": f"{e['first_name']} {e['last_name']}", "level": e["level"],
            "status": e["status"]}


@tool(writes=False)
def get_employee(db: Session, employee_id: str) -> Row:
    """An employee's profile: level, practice and its lead, office, line manager, status (with leave and
    delegate), work mode, dates, directory account and engagement assignments.

    Args:
        employee_id: the employee id, e.g. EMP-1042
    """
    e = employee_row(db, employee_id)
    practice = db.one("SELECT id, name, lead_id FROM practices WHERE id = ?", e["practice_id"])
    office = db.one("SELECT id, city, country, line1, postal_code FROM offices WHERE id = ?", e["office_id"])
    account = db.one("SELECT username, status, activate_on, disable_on, mfa_status FROM accounts "
                     "WHERE employee_id = ?", e["id"])
    assignments = db.all("SELECT a.engagement_id, g.name, a.role, a.starts_on, a.ends_on FROM assignments a "
                         "JOIN engagements g ON g.id = a.engagement_id WHERE a.employee_id = ? "
                         "ORDER BY a.starts_on, a.id", e["id"])
    return {"employee_id": e["id"], **compact(e, "id"), "practice": practice, "office": office,
            "account": compact(account) if account else None, "assignments": assignments}


@tool(writes=False)
def get_engagement(db: Session, engagement_id: str) -> Row:
    """An engagement by code: client, status, billable, dates, partner and manager, and its blackout periods.

    Args:
        engagement_id: the engagement code, e.g. ENG-2041
    """
    g = engagement_row(db, engagement_id)
    blackouts = db.all("SELECT starts_on, ends_on, reason FROM blackouts WHERE engagement_id = ? ORDER BY starts_on",
                       g["id"])
    return {**g, "billable": bool(g["billable"]), "blackouts": blackouts}
