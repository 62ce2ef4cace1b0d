"""Flights: status and delays, searching departures, waivers, changing segments, waitlists, schedule changes."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from statebox.domains.travel.tools.common import (
    departure_row,
    holder_of,
    passenger_count,
    segment_row,
)
from statebox.kit import compact, lookup, money, now_iso, today
from statebox.tools import InvalidArguments, NotFound, PreconditionFailed, tool
from statebox.world import Row, Session

_paying_credit_row = lookup("travel_credits", "CRD", "list_travel_credits shows the account holder's credits.")
_schedule_change_row = lookup("schedule_changes", "SCH", "get_booking lists a booking's schedule changes.")


def _minutes(later: str, earlier: str) -> int:
    return round((datetime.fromisoformat(later) - datetime.fromisoformat(earlier)).total_seconds() / 60)


@tool(writes=False)
def get_flight_status(db: Session, flight_number: str, date: str) -> Row:
    """A flight on one date: scheduled and actual times, arrival delay in minutes, cause, status, distance.

    Args:
        flight_number: the flight number, e.g. AU312
        date: the departure date, YYYY-MM-DD
    """
    d = departure_row(db, f"{flight_number.strip().upper().replace(' ', '')}-{date.strip()}")
    out = {"departure_id": d["id"], "flight_number": d["flight_id"], "carrier": d["carrier"], "origin": d["origin"],
           "destination": d["destination"], "distance_km": d["distance_km"], "status": d["status"],
           "scheduled_departure": d["scheduled_departure"], "scheduled_arrival": d["scheduled_arrival"]}
    late = 0
    if d["actual_arrival"]:
        late = _minutes(d["actual_arrival"], d["scheduled_arrival"])
        out["actual_arrival"] = d["actual_arrival"]
        out["arrival_delay_minutes"] = late
    if d["status"] == "cancelled" or late > 15:
        out["delay_cause"] = d["delay_cause"] or "not reported by the carrier yet"
    return out


@tool(writes=False)
def search_flights(db: Session, origin: str, destination: str, date: str) -> list[Row]:
    """Departures from one airport to another on a date, with seats left and the fare of each family.

    Args:
        origin: the departure airport code, e.g. LIS
        destination: the arrival airport code, e.g. JFK
        date: the travel date, YYYY-MM-DD
    """
    rows = db.all("SELECT d.id AS departure_id, d.flight_id AS flight_number, f.carrier, d.scheduled_departure, "
                  "d.scheduled_arrival, d.status, d.seats_economy, d.seats_business, d.fare_light, d.fare_classic, "
                  "d.fare_flex, d.fare_business FROM departures d JOIN flights f ON f.id = d.flight_id "
                  "WHERE f.origin = ? AND f.destination = ? AND d.date = ? ORDER BY d.scheduled_departure",
                  origin.strip().upper(), destination.strip().upper(), date.strip())
    if not rows:
        raise NotFound(f"no departures from {origin} to {destination} on {date}.",
                       hint="airport codes are three letters (LIS, JFK); the timetable runs to 2026-05-03.")
    return rows


@tool(writes=False)
def list_weather_waivers(db: Session, airport: str | None = None) -> list[Row]:
    """Weather waivers issued by the carriers: airport, travel dates covered and the rebook-by date.

    Args:
        airport: only waivers for this airport code (optional)
    """
    if airport:
        return db.all("SELECT * FROM weather_waivers WHERE airport = ? ORDER BY travel_from", airport.strip().upper())
    return db.all("SELECT * FROM weather_waivers ORDER BY travel_from")


def _credit_for(db: Session, credit_id: str, traveller_id: str, amount: float) -> Row:
    c = _paying_credit_row(db, credit_id)
    if c["traveller_id"] != traveller_id:
        raise PreconditionFailed(f"credit {c['id']} belongs to another traveller.")
    if c["expires_on"] < today(db):
        raise PreconditionFailed(f"credit {c['id']} expired on {c['expires_on']}.")
    if c["balance"] < amount:
        raise PreconditionFailed(f"credit {c['id']} has only {c['balance']} left; {amount} is due.",
                                 hint="charge the card instead.")
    return c


def _departure_to_move_to(db: Session, s: Row, departure_id: str) -> Row:
    """The departure a confirmed segment can move to: the same route, bookable, a seat left in its cabin."""
    if s["status"] != "confirmed":
        raise PreconditionFailed(f"segment {s['segment_id']} is {s['status']}; only confirmed segments move.")
    new = departure_row(db, departure_id)
    if (new["origin"], new["destination"]) != (s["origin"], s["destination"]):
        raise PreconditionFailed(f"{new['id']} flies {new['origin']}-{new['destination']}, not "
                                 f"{s['origin']}-{s['destination']}.", hint="search_flights on the same route.")
    if new["id"] == s["departure_id"] or new["status"] != "scheduled" or new["scheduled_departure"] <= now_iso(db):
        raise PreconditionFailed(f"{new['id']} cannot be booked (it is the current flight, cancelled or past).")
    if new[f"seats_{s['cabin']}"] <= 0:
        raise PreconditionFailed(f"{new['id']} has no {s['cabin']} seats left.", hint="see the waitlist rules.")
    return new


def _paying_credit(db: Session, booking_id: str, pay_with: str, credit_id: str | None, due: float) -> Row | None:
    """The booking holder's travel credit that pays `due` when paying with travel credit; None for the card."""
    holder = holder_of(db, booking_id)
    if pay_with == "travel_credit":
        if not credit_id:
            raise InvalidArguments("name the credit_id that pays.")
        return _credit_for(db, credit_id, holder["id"], due)
    if credit_id:
        raise InvalidArguments("credit_id goes only with pay_with travel_credit.")
    return None


def _charge_change(db: Session, s: Row, fee: float, due_difference: float, pay_with: str, credit: Row | None) -> None:
    """Record the change fee and the fare difference due as charges on the booking (those above 0), and take
    them off the paying credit's balance."""
    paid_by = credit["id"] if credit else None
    for kind, amount in (("change_fee", fee), ("fare_difference", due_difference)):
        if amount > 0:
            db.insert("charges", {"id": db.next_id("charges"), "booking_id": s["booking_id"], "kind": kind,
                                  "amount": amount, "paid_with": pay_with, "credit_id": paid_by,
                                  "segment_id": s["segment_id"], "created_at": now_iso(db)})
    if credit is not None and fee + due_difference > 0:
        db.update("travel_credits", credit["id"], balance=money(credit["balance"] - fee - due_difference),
                  updated_at=now_iso(db))


def _move_seats(db: Session, s: Row, new: Row, pax: int) -> None:
    """The segment's passengers give their seats in its cabin back to its departure and take seats on `new`."""
    seats = f"seats_{s['cabin']}"
    old = departure_row(db, s["departure_id"])
    db.update("departures", old["id"], **{seats: old[seats] + pax})
    db.update("departures", new["id"], **{seats: new[seats] - pax})


@tool(writes=True)
def change_flight(
    db: Session,
    segment_id: str,
    new_departure_id: str,
    change_fee: float,
    waive_fare_difference: bool = False,
    pay_with: Literal["card", "travel_credit"] = "card",
    credit_id: str | None = None,
) -> Row:
    """Move a confirmed segment to another departure of the same route, for all its passengers.

    The system computes the fare difference, (new fare − fare paid) × passengers, and charges it
    when positive, unless waived; the change fee you give is charged as well. A lower new fare
    leaves the fare paid unchanged (the result shows the negative difference).

    Args:
        segment_id: the segment to move, e.g. SEG-100234
        new_departure_id: the departure to move to, e.g. AU312-2026-02-20 (from search_flights)
        change_fee: the total change fee in dollars for all passengers on this segment (0 when free)
        waive_fare_difference: true only when a waiver or a carrier disruption covers the fare difference
        pay_with: card (the booking's card) or travel_credit
        credit_id: the travel credit paying, when pay_with is travel_credit
    """
    s = segment_row(db, segment_id)
    new = _departure_to_move_to(db, s, new_departure_id)
    if change_fee < 0:
        raise InvalidArguments("change_fee cannot be negative.")
    pax = passenger_count(db, s["booking_id"])
    fare = new[f"fare_{s['fare_family']}"]
    difference = money((fare - s["fare_per_pax"]) * pax)
    due_difference = 0.0 if waive_fare_difference or difference <= 0 else difference
    fee = money(change_fee)
    credit = _paying_credit(db, s["booking_id"], pay_with, credit_id, money(fee + due_difference))
    _charge_change(db, s, fee, due_difference, pay_with, credit)
    _move_seats(db, s, new, pax)
    db.update("segments", s["segment_id"], departure_id=new["id"], change_count=s["change_count"] + 1,
              fare_per_pax=fare if due_difference > 0 else s["fare_per_pax"], updated_at=now_iso(db))
    return {"segment_id": s["segment_id"], "new_departure_id": new["id"], "scheduled_departure":
            new["scheduled_departure"], "passengers": pax, "fare_difference": difference,
            "charged": {"change_fee": fee, "fare_difference": due_difference, "paid_with": pay_with}}


@tool(writes=True)
def join_waitlist(db: Session, segment_id: str, departure_id: str) -> Row:
    """Put a segment's passengers on the waitlist of a full departure of the same route.

    Args:
        segment_id: the segment the traveller wants to move
        departure_id: the full departure they want, e.g. AU312-2026-02-20
    """
    s = segment_row(db, segment_id)
    dep = departure_row(db, departure_id)
    if (dep["origin"], dep["destination"]) != (s["origin"], s["destination"]):
        raise PreconditionFailed(f"{dep['id']} is not on the segment's route.")
    if dep[f"seats_{s['cabin']}"] > 0:
        raise PreconditionFailed(f"{dep['id']} still has {s['cabin']} seats.", hint="change the flight instead.")
    if db.one("SELECT id FROM waitlist WHERE segment_id = ? AND status = 'waiting'", s["segment_id"]):
        raise PreconditionFailed(f"segment {s['segment_id']} is already on a waitlist.")
    wid = db.next_id("waitlist")
    db.insert("waitlist", {"id": wid, "booking_id": s["booking_id"], "segment_id": s["segment_id"],
                           "departure_id": dep["id"], "status": "waiting", "created_at": now_iso(db)})
    return {"waitlist_id": wid, "segment_id": s["segment_id"], "departure_id": dep["id"], "status": "waiting"}


@tool(writes=True)
def resolve_schedule_change(db: Session, change_id: str,
                            outcome: Literal["accepted", "rebooked", "refunded"]) -> Row:
    """Record what the traveller chose after a carrier's schedule change.

    Args:
        change_id: the schedule change id, e.g. SCH-10012 (get_booking lists them)
        outcome: accepted (keeps the new time), rebooked (moved to another flight) or refunded
    """
    c = _schedule_change_row(db, change_id)
    if c["status"] != "open":
        raise PreconditionFailed(f"schedule change {c['id']} was already resolved ({c['status']}).")
    db.update("schedule_changes", c["id"], status=outcome, updated_at=now_iso(db))
    return {**compact(c, "updated_at"), "status": outcome}
