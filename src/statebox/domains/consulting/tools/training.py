"""Courses, training enrolments and waitlists."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from statebox.domains.consulting.tools.common import CoveringApproval, EmployeeId, approval_row, employee_row
from statebox.kit import lookup, now_iso
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

EnrolmentId = Annotated[str, Field(description="the enrolment, e.g. ENR-10234")]

_course = lookup("courses", "CRS", "course ids look like CRS-312; search them with search_courses.")
_enrolment = lookup("enrolments", "ENR", "enrolment ids look like ENR-10234; see get_training_summary.")


def _view(c: Row) -> Row:
    return {"course_id": c["id"], "title": c["title"], "provider": c["provider"], "cost": c["cost"],
            "starts_on": c["starts_on"], "capacity": c["capacity"], "enrolled": c["enrolled"],
            "seats_left": max(c["capacity"] - c["enrolled"], 0)}


@tool(writes=False)
def search_courses(db: Session, query: str) -> list[Row]:
    """Courses whose title or provider contains the words: cost, start date, capacity and seats left.

    Args:
        query: words of the course title, e.g. "financial modelling"
    """
    words = [w for w in query.lower().split() if w]
    if not words:
        raise InvalidArguments("give at least one word to search for.")
    rows = db.all("SELECT * FROM courses ORDER BY starts_on, id")
    return [_view(c) for c in rows if all(w in f"{c['title']} {c['provider']}".lower() for w in words)][:12]


@tool(writes=False)
def get_training_summary(db: Session, employee_id: EmployeeId) -> Row:
    """An employee's level and training enrolments (course, start date, cost, status)."""
    e = employee_row(db, employee_id)
    rows = db.all("SELECT n.id AS enrolment_id, n.course_id, c.title, c.starts_on, n.cost, n.status, n.approval_id "
                  "FROM enrolments n JOIN courses c ON c.id = n.course_id WHERE n.employee_id = ? "
                  "ORDER BY c.starts_on, n.id", e["id"])
    return {"employee_id": e["id"], "level": e["level"], "enrolments": rows}


@tool(writes=True)
def enrol_in_course(db: Session, employee_id: str, course_id: str, approval_id: CoveringApproval = None) -> Row:
    """Enrol an employee. A full course puts them on its waitlist; a pending approval leaves it pending_approval.

    Args:
        employee_id: who enrols
        course_id: the course, e.g. CRS-312
    """
    e = employee_row(db, employee_id)
    c = _course(db, course_id)
    if db.one("SELECT id FROM enrolments WHERE employee_id = ? AND course_id = ? AND status != 'cancelled'",
              e["id"], c["id"]):
        raise PreconditionFailed(f"{e['id']} is already enrolled in {c['id']}.")
    a = approval_row(db, approval_id, e)
    if c["enrolled"] >= c["capacity"]:
        status = "waitlisted"
    else:
        status = "pending_approval" if a and a["status"] == "pending" else "enrolled"
        db.update("courses", c["id"], enrolled=c["enrolled"] + 1)
    nid = db.next_id("enrolments")
    db.insert("enrolments", {"id": nid, "employee_id": e["id"], "course_id": c["id"], "status": status,
                             "cost": c["cost"], "approval_id": a["id"] if a else None, "created_at": now_iso(db)})
    return {"enrolment_id": nid, "course_id": c["id"], "status": status, "cost": c["cost"]}


@tool(writes=True)
def cancel_enrolment(db: Session, enrolment_id: EnrolmentId) -> Row:
    """Cancel an enrolment (a held seat goes back to the course)."""
    n = _enrolment(db, enrolment_id)
    if n["status"] in ("cancelled", "completed"):
        raise PreconditionFailed(f"enrolment {n['id']} is {n['status']}.")
    if n["status"] in ("enrolled", "pending_approval"):
        c = _course(db, n["course_id"])
        db.update("courses", c["id"], enrolled=max(c["enrolled"] - 1, 0))
    db.update("enrolments", n["id"], status="cancelled")
    return {"enrolment_id": n["id"], "status": "cancelled"}
