"""Bookings: finding and reading them, the card check, and changes to passengers and extras."""

from __future__ import annotations

from typing import Literal

from statebox.domains.travel.tools.common import (
    SEGMENT_VIEW,
    BookingId,
    BookingIdWithExample,
    PassengerId,
    PassengerIdWithExample,
    booking_row,
    card_payment,
    passenger_row,
    segment_row,
)
from statebox.kit import compact, now_iso
from statebox.tools import InvalidArguments, NotFound, PreconditionFailed, tool
from statebox.world import Row, Session


@tool(writes=False)
def find_booking(db: Session, locator: str, last_name: str) -> Row:
    """Find a booking by its six-character booking reference and the last name of any passenger on it.

    Args:
        locator: the booking reference, e.g. QX7T4P
        last_name: the last name of a passenger on the booking
    """
    code = locator.strip().upper().replace(" ", "")
    b = db.one("SELECT * FROM bookings WHERE locator = ?", code)
    names = db.all("SELECT lower(last_name) AS n FROM passengers WHERE booking_id = ?", b["id"]) if b else []
    if b is None or last_name.strip().lower() not in {r["n"] for r in names}:
        raise NotFound(f"no booking {code!r} with a passenger named {last_name.strip()!r}.",
                       hint="ask the traveller to read the six-character reference from the confirmation "
                            "email again and to give a passenger's last name as it is on the ticket.")
    return {"booking_id": b["id"], "locator": b["locator"], "status": b["status"], "traveller_id": b["traveller_id"]}


@tool(writes=False)
def get_booking(db: Session, booking_id: BookingIdWithExample) -> Row:
    """Everything on a booking: account holder, passengers, flight segments, seats, hotel stays,
    payments, refunds, charges, bags, assistance, compensations, schedule changes and waitlists.
    """
    b = booking_row(db, booking_id)
    bid = b["id"]
    holder = db.one("SELECT id AS traveller_id, first_name, last_name, tier FROM travellers WHERE id = ?",
                    b["traveller_id"])
    return {
        **compact(b, "updated_at"),
        "account_holder": holder,
        "passengers": [compact(p) for p in db.all(
            "SELECT id AS passenger_id, first_name, last_name, date_of_birth, passport_number, passport_expiry, "
            "nationality, is_lead FROM passengers WHERE booking_id = ? ORDER BY id", bid)],
        "segments": [compact(s, "booking_id") for s in db.all(SEGMENT_VIEW + "WHERE s.booking_id = ? ORDER BY s.seq",
                                                               bid)],
        "hotel_stays": [compact(h, "booking_id", "updated_at")
                        for h in db.all("SELECT * FROM hotel_stays WHERE booking_id = ? ORDER BY id", bid)],
        "payments": db.all("SELECT id AS payment_id, method, card_brand, amount, refunded_amount, status, created_at "
                           "FROM payments WHERE booking_id = ? ORDER BY id", bid),
        "refunds": db.all("SELECT id AS refund_id, amount, reason, created_at FROM refunds WHERE booking_id = ?", bid),
        "charges": [compact(c, "booking_id") for c in db.all("SELECT * FROM charges WHERE booking_id = ?", bid)],
        "seats": db.all("SELECT a.passenger_id, a.segment_id, a.seat, a.kind, a.fee FROM seat_assignments a "
                        "JOIN segments s ON s.id = a.segment_id WHERE s.booking_id = ? ORDER BY a.segment_id, "
                        "a.passenger_id", bid),
        "bag_purchases": db.all("SELECT id, passenger_id, bags, amount FROM bag_purchases WHERE booking_id = ?", bid),
        "assistance": db.all("SELECT a.id, a.passenger_id, a.segment_id, a.kind FROM assistance_requests a "
                             "JOIN passengers p ON p.id = a.passenger_id WHERE p.booking_id = ?", bid),
        "compensations": [compact(c, "booking_id") for c in db.all("SELECT * FROM compensations WHERE booking_id = ?",
                                                                   bid)],
        "schedule_changes": db.all("SELECT c.id AS change_id, c.segment_id, c.old_departure, c.new_departure, "
                                   "c.minutes, c.notified_at, c.status FROM schedule_changes c JOIN segments s "
                                   "ON s.id = c.segment_id WHERE s.booking_id = ?", bid),
        "waitlist": db.all("SELECT id, segment_id, departure_id, status FROM waitlist WHERE booking_id = ?", bid),
    }


@tool(writes=True)
def verify_card(db: Session, booking_id: BookingId, card_last4: str) -> Row:
    """Check the last four digits of the card that paid for a booking; every check is recorded, and a
    failed one also counts on the booking (account security acts on those).

    Args:
        card_last4: the four digits the caller reads from their card
    """
    b = booking_row(db, booking_id)
    pay = card_payment(db, b["id"])
    digits = "".join(ch for ch in card_last4 if ch.isdigit())
    if len(digits) != 4:
        raise InvalidArguments("card_last4 must be exactly four digits.")
    passed = digits == pay["card_last4"]
    db.insert("identity_checks", {"id": db.next_id("identity_checks"), "booking_id": b["id"], "method": "card_last4",
                                  "passed": int(passed), "created_at": now_iso(db)})
    if passed:
        return {"booking_id": b["id"], "verified": True, "card_brand": pay["card_brand"]}
    failed = b["failed_card_checks"] + 1
    db.update("bookings", b["id"], failed_card_checks=failed, updated_at=now_iso(db))
    return {"booking_id": b["id"], "verified": False, "card_brand": pay["card_brand"], "failed_card_checks": failed}


def _before_departure(db: Session, booking_id: str) -> None:
    first = db.one("SELECT MIN(d.scheduled_departure) AS t FROM segments s JOIN departures d ON d.id = s.departure_id "
                   "WHERE s.booking_id = ? AND s.status = 'confirmed'", booking_id)
    if first is None or first["t"] is None or first["t"] <= now_iso(db):
        raise PreconditionFailed(f"booking {booking_id} has no confirmed flight still to depart.")


@tool(writes=True)
def correct_passenger_name(db: Session, passenger_id: PassengerIdWithExample, first_name: str, last_name: str) -> Row:
    """Correct the spelling of a passenger's name on every ticket of the booking.

    Args:
        first_name: the corrected first name, as on the passport
        last_name: the corrected last name, as on the passport
    """
    p = passenger_row(db, passenger_id)
    if not first_name.strip() or not last_name.strip():
        raise InvalidArguments("give both the first and the last name.")
    _before_departure(db, p["booking_id"])
    db.update("passengers", p["id"], first_name=first_name.strip(), last_name=last_name.strip(),
              updated_at=now_iso(db))
    return {"passenger_id": p["id"], "first_name": first_name.strip(), "last_name": last_name.strip()}


@tool(writes=True)
def update_passport(db: Session, passenger_id: PassengerId, passport_number: str, passport_expiry: str,
                    nationality: str) -> Row:
    """Store a passenger's passport details (number, expiry date, nationality) for the carrier.

    Args:
        passport_number: the passport number as printed
        passport_expiry: the expiry date, YYYY-MM-DD
        nationality: two-letter country code of the passport, e.g. PT
    """
    p = passenger_row(db, passenger_id)
    if len(passport_expiry.strip()) != 10:
        raise InvalidArguments("passport_expiry must be a date like 2031-05-30.")
    number = passport_number.strip().upper().replace(" ", "")
    db.update("passengers", p["id"], passport_number=number, passport_expiry=passport_expiry.strip(),
              nationality=nationality.strip().upper(), updated_at=now_iso(db))
    return {"passenger_id": p["id"], "passport_number": number, "passport_expiry": passport_expiry.strip()}


@tool(writes=True)
def add_checked_bags(db: Session, passenger_id: PassengerId, bags: int, amount: float) -> Row:
    """Buy extra checked bags for one passenger on all the booking's confirmed segments; the amount is
    charged to the booking's card.

    Args:
        bags: how many extra bags (1 or 2)
        amount: the total price in dollars for these bags on all segments (0 when free)
    """
    p = passenger_row(db, passenger_id)
    if bags not in (1, 2):
        raise InvalidArguments("bags must be 1 or 2.")
    if amount < 0:
        raise InvalidArguments("amount cannot be negative.")
    _before_departure(db, p["booking_id"])
    bag_id = db.next_id("bag_purchases")
    db.insert("bag_purchases", {"id": bag_id, "booking_id": p["booking_id"], "passenger_id": p["id"], "bags": bags,
                                "amount": round(amount, 2), "created_at": now_iso(db)})
    return {"bag_purchase_id": bag_id, "passenger_id": p["id"], "bags": bags, "amount": round(amount, 2)}


@tool(writes=True)
def request_special_assistance(db: Session, passenger_id: PassengerId, segment_ids: list[str],
                               kind: Literal["wheelchair", "visual", "hearing"]) -> list[Row]:
    """Request assistance at the airport and on board for a passenger, one request per segment.

    Args:
        segment_ids: the segments the passenger needs help on
        kind: wheelchair, visual or hearing assistance
    """
    p = passenger_row(db, passenger_id)
    if not segment_ids:
        raise InvalidArguments("name at least one segment.")
    out = []
    for raw in segment_ids:
        s = segment_row(db, raw)
        if s["booking_id"] != p["booking_id"]:
            raise NotFound(f"segment {s['segment_id']} is not on this passenger's booking.")
        if s["status"] != "confirmed":
            raise PreconditionFailed(f"segment {s['segment_id']} is {s['status']}.")
        rid = db.next_id("assistance_requests")
        db.insert("assistance_requests", {"id": rid, "passenger_id": p["id"], "segment_id": s["segment_id"],
                                          "kind": kind, "created_at": now_iso(db)})
        out.append({"request_id": rid, "segment_id": s["segment_id"], "kind": kind})
    return out
