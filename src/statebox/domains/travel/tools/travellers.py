"""Traveller accounts: finding them, their bookings, travel credits and loyalty points."""

from __future__ import annotations

import re
from datetime import date, timedelta

from statebox.domains.travel.tools.common import (
    CreditIdWithExample,
    TravellerId,
    TravellerIdWithExample,
    segment_row,
    traveller_row,
)
from statebox.kit import compact, lookup, now_iso, today
from statebox.tools import InvalidArguments, NotFound, PreconditionFailed, tool
from statebox.world import Row, Session

_credit_row = lookup(
    "travel_credits", "CRD", "credit ids look like CRD-10234; list_travel_credits shows a traveller's credits.")


def _digits(phone: str) -> str:
    return re.sub(r"\D", "", phone)[-9:]


@tool(writes=False)
def find_traveller(db: Session, email: str | None = None, phone: str | None = None) -> list[Row]:
    """Find traveller accounts by the email address or the phone number on the account.

    Args:
        email: the account's email address (case does not matter)
        phone: the account's phone number, in any format
    """
    if email:
        rows = db.all("SELECT * FROM travellers WHERE lower(email) = lower(?)", email.strip())
    elif phone:
        rows = [r for r in db.all("SELECT * FROM travellers WHERE phone IS NOT NULL")
                if _digits(r["phone"]) == _digits(phone)]
    else:
        raise InvalidArguments("give an email address or a phone number.")
    if not rows:
        raise NotFound("no traveller account matches.",
                       hint="ask for the email address the traveller booked with, or find the booking with "
                            "find_booking (reference + last name).")
    return [{"traveller_id": r["id"], "first_name": r["first_name"], "last_name": r["last_name"], "tier": r["tier"]}
            for r in rows]


@tool(writes=False)
def get_traveller(db: Session, traveller_id: TravellerIdWithExample) -> Row:
    """A traveller's account: contact details, loyalty tier, points balance and member-since date."""
    return compact(traveller_row(db, traveller_id), "updated_at")


@tool(writes=False)
def list_traveller_bookings(db: Session, traveller_id: TravellerId) -> list[Row]:
    """The bookings a traveller holds, newest first, with their first flight."""
    rows = db.all(
        "SELECT b.id AS booking_id, b.locator, b.status, b.created_at, "
        "(SELECT d.flight_id || ' ' || d.date FROM segments s JOIN departures d ON d.id = s.departure_id "
        " WHERE s.booking_id = b.id ORDER BY s.seq LIMIT 1) AS first_flight "
        "FROM bookings b WHERE b.traveller_id = ? ORDER BY b.created_at DESC, b.id DESC",
        traveller_row(db, traveller_id)["id"])
    return [compact(r) for r in rows]


def _credit_view(db: Session, c: Row) -> Row:
    state = "expired" if c["expires_on"] < today(db) else "used" if c["balance"] <= 0 else "active"
    return {**compact(c, "updated_at"), "state": state}


@tool(writes=False)
def list_travel_credits(db: Session, traveller_id: TravellerId) -> list[Row]:
    """A traveller's travel credits and vouchers: amount, balance left, expiry date and state."""
    t = traveller_row(db, traveller_id)
    rows = db.all("SELECT * FROM travel_credits WHERE traveller_id = ? ORDER BY issued_at, id", t["id"])
    return [_credit_view(db, c) for c in rows]


@tool(writes=True)
def reinstate_credit(db: Session, credit_id: CreditIdWithExample) -> Row:
    """Bring an expired travel credit or voucher back to life: it runs 90 more days from today."""
    c = _credit_row(db, credit_id)
    if c["expires_on"] >= today(db):
        raise PreconditionFailed(f"credit {c['id']} has not expired (valid through {c['expires_on']}).")
    if c["reinstated"]:
        raise PreconditionFailed(f"credit {c['id']} was already reinstated once.")
    expires = (date.fromisoformat(today(db)) + timedelta(days=90)).isoformat()
    db.update("travel_credits", c["id"], expires_on=expires, reinstated=1, updated_at=now_iso(db))
    return {"credit_id": c["id"], "balance": c["balance"], "expires_on": expires}


@tool(writes=False)
def get_points_history(db: Session, traveller_id: TravellerId) -> list[Row]:
    """The traveller's loyalty points ledger (points earned per flown segment, credits, redemptions)."""
    t = traveller_row(db, traveller_id)
    return db.all("SELECT id AS entry_id, segment_id, points, reason, created_at FROM points_ledger "
                  "WHERE traveller_id = ? ORDER BY created_at, id", t["id"])


@tool(writes=True)
def credit_missing_points(db: Session, traveller_id: str, segment_id: str, points: int) -> Row:
    """Credit loyalty points for a flown segment that never earned them; the balance goes up.

    Args:
        traveller_id: the account that should have earned the points
        segment_id: the flown segment, e.g. SEG-100234
        points: whole points to credit
    """
    t = traveller_row(db, traveller_id)
    s = segment_row(db, segment_id)
    if points <= 0:
        raise InvalidArguments("points must be more than 0.")
    owner = db.one("SELECT traveller_id FROM bookings WHERE id = ?", s["booking_id"])
    if owner is None or owner["traveller_id"] != t["id"]:
        raise PreconditionFailed(f"segment {s['segment_id']} is on a booking of another account.")
    if s["status"] != "flown":
        raise PreconditionFailed(f"segment {s['segment_id']} is {s['status']}; only flown segments earn points.")
    if db.one("SELECT id FROM points_ledger WHERE segment_id = ?", s["segment_id"]) is not None:
        raise PreconditionFailed(f"segment {s['segment_id']} already has points in the ledger.",
                                 hint="see get_points_history.")
    entry = db.next_id("points_ledger")
    db.insert("points_ledger", {"id": entry, "traveller_id": t["id"], "segment_id": s["segment_id"],
                                "points": points, "reason": "missing_points", "created_at": now_iso(db)})
    balance = t["points_balance"] + points
    db.update("travellers", t["id"], points_balance=balance, updated_at=now_iso(db))
    return {"entry_id": entry, "points": points, "points_balance": balance}
