"""Installation appointments: reading them, free slots, and rescheduling."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from statebox.domains.retail.tools.common import InstallationIdWithExample, now_iso
from statebox.kit import lookup
from statebox.tools import InvalidArguments, NotFound, PreconditionFailed, tool
from statebox.world import Row, Session

SLOT_START = {"AM": "08:00", "PM": "13:00"}


_job = lookup("installation_jobs", "INS", "get_order lists the installations booked for an order.", what="installation")


@tool(writes=False)
def get_installation(db: Session, installation_id: InstallationIdWithExample) -> Row:
    """An installation job: the item, its slot (date, AM/PM, start time), status and times moved."""
    job = _job(db, installation_id)
    slot = db.one("SELECT date, period FROM installation_slots WHERE id = ?", job["slot_id"]) or {}
    return {"installation_id": job["id"], "order_id": job["order_id"], "order_item_id": job["order_item_id"],
            "status": job["status"], "slot_id": job["slot_id"], "date": slot.get("date"),
            "period": slot.get("period"), "starts_at": SLOT_START.get(slot.get("period", "")),
            "reschedule_count": job["reschedule_count"], "technician": job["technician"]}


@tool(writes=False)
def list_installation_slots(db: Session, from_date: str, to_date: str | None = None) -> list[Row]:
    """Installation slots with free capacity between two dates (at most 21 days; no Sundays).

    Args:
        from_date: first day, YYYY-MM-DD
        to_date: last day, YYYY-MM-DD (default: from_date + 6 days)
    """
    try:
        start = dt.date.fromisoformat(from_date.strip())
        end = dt.date.fromisoformat(to_date.strip()) if to_date else start + dt.timedelta(days=6)
    except ValueError:
        raise InvalidArguments("dates must look like 2025-10-07.") from None
    if end < start or (end - start).days > 21:
        raise InvalidArguments("to_date must be on or after from_date, at most 21 days later.")
    rows = db.all("SELECT id AS slot_id, date, period, capacity - booked AS free FROM installation_slots "
                  "WHERE date BETWEEN ? AND ? AND booked < capacity ORDER BY date, period",
                  start.isoformat(), end.isoformat())
    return [{**r, "starts_at": SLOT_START[r["period"]]} for r in rows]


@tool(writes=True)
def reschedule_installation(db: Session, installation_id: str, date: str, period: Literal["AM", "PM"]) -> Row:
    """Move a scheduled installation to another slot with free capacity.

    Args:
        installation_id: the installation id
        date: the new day, YYYY-MM-DD
        period: AM (from 08:00) or PM (from 13:00)
    """
    job = _job(db, installation_id)
    if job["status"] != "scheduled":
        raise PreconditionFailed(f"installation {job['id']} is {job['status']} and cannot be moved.")
    slot_id = f"SLT-{date.strip()}-{period}"
    slot = db.one("SELECT * FROM installation_slots WHERE id = ?", slot_id)
    if slot is None:
        raise NotFound(f"there is no installation slot on {date} {period}.",
                       hint="list_installation_slots shows the open slots (none on Sundays).")
    if slot_id == job["slot_id"]:
        raise PreconditionFailed("the installation is already in that slot.")
    if f"{slot['date']}T{SLOT_START[period]}" <= db.now.strftime("%Y-%m-%dT%H:%M"):
        raise PreconditionFailed("that slot has already started.")
    if slot["booked"] >= slot["capacity"]:
        raise PreconditionFailed(f"the {date} {period} slot is full.", hint="list_installation_slots shows free slots.")
    db.execute("UPDATE installation_slots SET booked = max(0, booked - 1) WHERE id = ?", job["slot_id"])
    db.execute("UPDATE installation_slots SET booked = booked + 1 WHERE id = ?", slot_id)
    count = job["reschedule_count"] + 1
    db.update("installation_jobs", job["id"], slot_id=slot_id, reschedule_count=count, updated_at=now_iso(db))
    return {"installation_id": job["id"], "slot_id": slot_id, "date": slot["date"], "period": period,
            "starts_at": SLOT_START[period], "reschedule_count": count}
