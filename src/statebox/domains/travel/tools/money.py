"""Cancellations and money: cancelling flights and hotel stays, refunds, travel credits, compensation."""

from __future__ import annotations

from datetime import date
from typing import Literal

from statebox.domains.travel.tools.common import (
    SEGMENT_VIEW,
    BookingId,
    StayIdWithExample,
    booking_row,
    card_payment,
    holder_of,
    passenger_count,
    segment_row,
)
from statebox.kit import lookup, money, now_iso, today
from statebox.tools import InvalidArguments, PreconditionFailed, tool
from statebox.world import Row, Session

RefundReason = Literal["voluntary_cancellation", "schedule_change", "carrier_cancellation", "hotel_cancellation",
                       "twenty_four_hour_rule"]
CreditReason = Literal["voluntary_cancellation", "weather_waiver", "flex_fare_difference"]

_stay_row = lookup("hotel_stays", "HTL", "get_booking lists a booking's stays.")


def _years_later(day: str, years: int) -> str:
    d = date.fromisoformat(day)
    return (d.replace(year=d.year + years) if not (d.month == 2 and d.day == 29)
            else date(d.year + years, 2, 28)).isoformat()


def _settle_booking(db: Session, booking_id: str) -> str:
    """The booking is cancelled once nothing on it is confirmed or flown."""
    live = db.one("SELECT (SELECT COUNT(*) FROM segments WHERE booking_id = ? AND status != 'cancelled') + "
                  "(SELECT COUNT(*) FROM hotel_stays WHERE booking_id = ? AND status != 'cancelled') AS n",
                  booking_id, booking_id)
    if live is not None and live["n"] == 0:
        db.update("bookings", booking_id, status="cancelled", updated_at=now_iso(db))
        return "cancelled"
    return "confirmed"


@tool(writes=True)
def cancel_flights(db: Session, booking_id: BookingId) -> Row:
    """Cancel every unflown (confirmed) flight segment of a booking. Moves no money: refund or credit
    what the handbook allows with issue_refund / issue_travel_credit.
    """
    b = booking_row(db, booking_id)
    segs = db.all(SEGMENT_VIEW + "WHERE s.booking_id = ? AND s.status = 'confirmed' ORDER BY s.seq", b["id"])
    if not segs:
        raise PreconditionFailed(f"booking {b['id']} has no confirmed flight segment to cancel.")
    pax = passenger_count(db, b["id"])
    for s in segs:
        db.update("segments", s["segment_id"], status="cancelled", updated_at=now_iso(db))
    status = _settle_booking(db, b["id"])
    return {"booking_id": b["id"], "booking_status": status, "passengers": pax,
            "cancelled": [{"segment_id": s["segment_id"], "flight_number": s["flight_number"], "date": s["date"],
                           "fare_family": s["fare_family"], "fare_per_pax": s["fare_per_pax"],
                           "taxes_per_pax": s["taxes_per_pax"]} for s in segs]}


@tool(writes=True)
def cancel_hotel_stay(db: Session, stay_id: StayIdWithExample) -> Row:
    """Cancel a confirmed hotel stay before its check-in date. Moves no money (see issue_refund)."""
    h = _stay_row(db, stay_id)
    if h["status"] != "confirmed":
        raise PreconditionFailed(f"stay {h['id']} is {h['status']}.")
    if h["check_in"] <= today(db):
        raise PreconditionFailed(f"stay {h['id']} checked in on {h['check_in']}; it can no longer be cancelled.")
    db.update("hotel_stays", h["id"], status="cancelled", updated_at=now_iso(db))
    status = _settle_booking(db, h["booking_id"])
    return {"stay_id": h["id"], "status": "cancelled", "booking_status": status, "rate_plan": h["rate_plan"],
            "cancel_deadline": h["cancel_deadline"], "nightly_rate": h["nightly_rate"], "total": h["total"]}


@tool(writes=True)
def issue_refund(db: Session, booking_id: BookingId, amount: float, reason: RefundReason) -> Row:
    """Refund money to the card that paid for the booking.

    Args:
        amount: dollars to refund, e.g. 245.60
        reason: what the refund is for
    """
    b = booking_row(db, booking_id)
    amount = money(amount)
    if amount <= 0:
        raise InvalidArguments("amount must be more than 0.")
    pay = card_payment(db, b["id"])
    left = money(pay["amount"] - pay["refunded_amount"])
    if amount > left:
        raise PreconditionFailed(f"only {left} is left to refund on the booking's card.")
    rid = db.next_id("refunds")
    db.insert("refunds", {"id": rid, "booking_id": b["id"], "payment_id": pay["id"], "amount": amount,
                          "reason": reason, "created_at": now_iso(db)})
    refunded = money(pay["refunded_amount"] + amount)
    db.update("payments", pay["id"], refunded_amount=refunded,
              status="refunded" if refunded >= pay["amount"] else "partially_refunded")
    return {"refund_id": rid, "amount": amount, "card_brand": pay["card_brand"], "refunded_total": refunded}


@tool(writes=True)
def issue_travel_credit(db: Session, booking_id: str, amount: float, reason: CreditReason) -> Row:
    """Give the booking's account holder a travel credit (valid 12 months from today).

    Args:
        booking_id: the booking the credit comes from
        amount: dollars of credit
        reason: why the credit is given
    """
    b = booking_row(db, booking_id)
    amount = money(amount)
    if amount <= 0:
        raise InvalidArguments("amount must be more than 0.")
    cid = db.next_id("travel_credits")
    expires = _years_later(today(db), 1)
    db.insert("travel_credits", {"id": cid, "traveller_id": b["traveller_id"], "kind": "travel_credit",
                                 "amount": amount, "balance": amount, "issued_at": now_iso(db), "expires_on": expires,
                                 "source_booking_id": b["id"], "reason": reason, "reinstated": 0,
                                 "updated_at": None})
    return {"credit_id": cid, "amount": amount, "expires_on": expires}


@tool(writes=True)
def award_compensation(db: Session, segment_id: str, reason: Literal["delay", "cancellation", "missed_connection"],
                       amount: float,
                       form: Literal["card", "voucher"]) -> Row:
    """Compensate all passengers of a disrupted segment, in one award: paid to the booking's card, or as
    a voucher for the account holder (valid 24 months).

    Args:
        segment_id: the delayed or cancelled segment
        reason: delay, cancellation, or missed_connection (compensated on the missed segment)
        amount: the total the traveller receives, in dollars (for a voucher: the voucher's value)
        form: card or voucher
    """
    s = segment_row(db, segment_id)
    amount = money(amount)
    if amount <= 0:
        raise InvalidArguments("amount must be more than 0.")
    if db.one("SELECT id FROM compensations WHERE segment_id = ?", s["segment_id"]) is not None:
        raise PreconditionFailed(f"segment {s['segment_id']} was already compensated.", hint="see get_booking.")
    if form == "card":
        card_payment(db, s["booking_id"])
    credit_id = None
    if form == "voucher":
        credit_id = db.next_id("travel_credits")
        holder = holder_of(db, s["booking_id"])
        db.insert("travel_credits", {"id": credit_id, "traveller_id": holder["id"], "kind": "voucher",
                                     "amount": amount, "balance": amount, "issued_at": now_iso(db),
                                     "expires_on": _years_later(today(db), 2), "source_booking_id": s["booking_id"],
                                     "reason": f"{reason} compensation", "reinstated": 0, "updated_at": None})
    cmp_id = db.next_id("compensations")
    db.insert("compensations", {"id": cmp_id, "booking_id": s["booking_id"], "segment_id": s["segment_id"],
                                "reason": reason, "passengers": passenger_count(db, s["booking_id"]),
                                "amount": amount, "form": form, "credit_id": credit_id, "created_at": now_iso(db)})
    return {"compensation_id": cmp_id, "amount": amount, "form": form, "voucher_id": credit_id}
