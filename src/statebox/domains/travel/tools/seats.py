"""Seats: one per passenger and segment, chosen from the cabin's rows; the fee is charged to the card."""

from __future__ import annotations

import re

from statebox.domains.travel.tools.common import PassengerId, passenger_row, segment_row
from statebox.kit import money, now_iso
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

BUSINESS_ROWS = range(1, 5)  # seats A, C, D, F
ECONOMY_ROWS = range(10, 36)  # seats A-F; rows 10-12 have extra legroom
EXTRA_LEGROOM_ROWS = range(10, 13)


def seat_kind(seat: str, cabin: str) -> str:
    """The kind of a seat in a cabin, or InvalidArguments naming the cabin's seats."""
    m = re.fullmatch(r"(\d{1,2})([A-F])", seat)
    row = int(m.group(1)) if m else 0
    if cabin == "business":
        if m is None or row not in BUSINESS_ROWS or m.group(2) not in "ACDF":
            raise InvalidArguments(f"{seat!r} is not a business seat; business has rows 1-4, seats A, C, D, F.")
        return "business"
    if m is None or row not in ECONOMY_ROWS:
        raise InvalidArguments(f"{seat!r} is not an economy seat; economy has rows 10-35, seats A-F "
                               "(rows 10-12 have extra legroom).")
    return "extra_legroom" if row in EXTRA_LEGROOM_ROWS else "standard"


@tool(writes=True)
def assign_seat(db: Session, passenger_id: PassengerId, segment_id: str, seat: str, fee: float) -> Row:
    """Give a passenger a seat on one segment (replacing any seat they had there); the fee is charged
    to the booking's card.

    Args:
        segment_id: the segment, e.g. SEG-100234
        seat: row and letter, e.g. 14C (economy rows 10-35, extra legroom in rows 10-12; business rows 1-4)
        fee: the seat fee in dollars for this segment (0 when free)
    """
    p = passenger_row(db, passenger_id)
    s = segment_row(db, segment_id)
    if s["booking_id"] != p["booking_id"]:
        raise PreconditionFailed(f"segment {s['segment_id']} is not on this passenger's booking.")
    if s["status"] != "confirmed":
        raise PreconditionFailed(f"segment {s['segment_id']} is {s['status']}.")
    code = seat.strip().upper()
    kind = seat_kind(code, s["cabin"])
    if fee < 0:
        raise InvalidArguments("fee cannot be negative.")
    taken = db.one("SELECT a.passenger_id FROM seat_assignments a JOIN segments x ON x.id = a.segment_id "
                   "WHERE x.departure_id = ? AND a.seat = ? AND a.passenger_id != ?",
                   s["departure_id"], code, p["id"])
    if taken is not None:
        raise PreconditionFailed(f"seat {code} on {s['flight_number']} {s['date']} is taken.",
                                 hint="offer the traveller another seat of the same kind.")
    row = {"passenger_id": p["id"], "segment_id": s["segment_id"], "seat": code, "kind": kind, "fee": money(fee),
           "assigned_at": now_iso(db)}
    db.execute("DELETE FROM seat_assignments WHERE passenger_id = ? AND segment_id = ?", p["id"], s["segment_id"])
    db.insert("seat_assignments", row)
    return row
