"""The software catalogue and licence grants."""

from __future__ import annotations

from statebox.domains.consulting.tools.common import (
    ByEmployee,
    CoveringApproval,
    EmployeeId,
    approval_row,
    employee_row,
    engagement_row,
    parse_day,
)
from statebox.kit import compact, lookup, now_iso, today
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

_software = lookup(
    "software", "SW",
    "software ids look like SW-118; search the catalogue with search_software.", what="software title",
)
_grant = lookup(
    "access_grants", "ACC", "grant ids look like ACC-10234; list them with list_access_grants.", what="grant",
)
_grants = ByEmployee("grant_id", "SELECT g.*, s.name AS software, s.annual_cost FROM access_grants g JOIN software s "
                                 "ON s.id = g.software_id WHERE g.employee_id = ? ORDER BY g.granted_at, g.id")


@tool(writes=False)
def search_software(db: Session, query: str) -> list[Row]:
    """Catalogue titles whose name, vendor or category contains the words, with annual cost per user.

    Args:
        query: words of the title, e.g. "tableau" or "think-cell"
    """
    words = [w for w in query.lower().split() if w]
    if not words:
        raise InvalidArguments("give at least one word to search for.")
    rows = db.all("SELECT * FROM software ORDER BY id")
    hay = {r["id"]: f"{r['name']} {r['vendor']} {r['category']}".lower() for r in rows}
    found = [r for r in rows if all(w in hay[r["id"]] for w in words)]
    return [{"software_id": r["id"], "name": r["name"], "vendor": r["vendor"], "category": r["category"],
             "annual_cost": r["annual_cost"], "restricted": bool(r["restricted"])} for r in found[:15]]


@tool(writes=False)
def list_access_grants(db: Session, employee_id: EmployeeId) -> list[Row]:
    """An employee's software licences (active, pending approval, scheduled or done revocations)."""
    return _grants(db, employee_id)


@tool(writes=True)
def grant_software_access(
    db: Session, employee_id: str, software_id: str, engagement_id: str | None = None,
    approval_id: CoveringApproval = None,
) -> Row:
    """Give an employee a licence. Linked to a pending approval, the grant waits as pending_approval.

    Args:
        employee_id: who gets the licence
        software_id: the catalogue title, e.g. SW-118
        engagement_id: the engagement the licence is charged to; empty for practice overhead
    """
    e = employee_row(db, employee_id)
    s = _software(db, software_id)
    g = engagement_row(db, engagement_id)["id"] if engagement_id else None
    a = approval_row(db, approval_id, e)
    held = db.one("SELECT id, status FROM access_grants WHERE employee_id = ? AND software_id = ? "
                  "AND status IN ('active', 'pending_approval')", e["id"], s["id"])
    if held:
        raise PreconditionFailed(f"{e['id']} already has {s['name']} ({held['id']}, {held['status']}).")
    gid = db.next_id("access_grants")
    status = "pending_approval" if a and a["status"] == "pending" else "active"
    row = {"id": gid, "employee_id": e["id"], "software_id": s["id"], "engagement_id": g,
           "approval_id": a["id"] if a else None, "status": status, "granted_at": now_iso(db),
           "revoke_on": None, "revoked_at": None}
    db.insert("access_grants", row)
    return {"grant_id": gid, "software": s["name"], **compact(row, "id")}


@tool(writes=True)
def revoke_software_access(db: Session, grant_id: str, revoke_on: str | None = None) -> Row:
    """Revoke a licence today, or schedule its revocation for a later date.

    Args:
        grant_id: the grant, e.g. ACC-10234
        revoke_on: YYYY-MM-DD for a scheduled revocation; empty to revoke today
    """
    g = _grant(db, grant_id)
    if g["status"] == "revoked":
        raise PreconditionFailed(f"grant {g['id']} is already revoked.")
    on = parse_day(revoke_on, "revoke_on").isoformat() if revoke_on else today(db)
    if on < today(db):
        raise InvalidArguments("revoke_on cannot be in the past.")
    if on == today(db):
        db.update("access_grants", g["id"], status="revoked", revoke_on=on, revoked_at=now_iso(db))
        return {"grant_id": g["id"], "status": "revoked", "revoke_on": on}
    db.update("access_grants", g["id"], revoke_on=on)
    return {"grant_id": g["id"], "status": g["status"], "revoke_on": on}
