"""Lookups the travel tools share: rows by id with recoverable errors, and a segment's flight details."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from statebox.kit import found, lookup, normalize_id
from statebox.tools import PreconditionFailed
from statebox.world import Row, Session

# Arguments described once, for every tool that takes them (a tool's own Args: line says it otherwise).
PassengerId = Annotated[str, Field(description="the passenger id")]
TravellerId = Annotated[str, Field(description="the traveller id")]
BookingId = Annotated[str, Field(description="the booking id")]
# Ids described with an example of how one looks, for the tools that show it.
TravellerIdWithExample = Annotated[str, Field(description="the traveller id, e.g. TRV-1042")]
BookingIdWithExample = Annotated[str, Field(description="the booking id, e.g. BKG-10234")]
PassengerIdWithExample = Annotated[str, Field(description="the passenger id, e.g. PAX-100234")]
CreditIdWithExample = Annotated[str, Field(description="the credit or voucher id, e.g. CRD-10234")]
StayIdWithExample = Annotated[str, Field(description="the hotel stay id, e.g. HTL-10234")]

SEGMENT_VIEW = (
    "SELECT s.id AS segment_id, s.booking_id, s.seq, d.flight_id AS flight_number, f.carrier, f.origin, "
    "f.destination, d.date, d.scheduled_departure, d.scheduled_arrival, f.distance_km, s.cabin, s.fare_family, "
    "s.fare_per_pax, s.taxes_per_pax, s.status, s.change_count, s.departure_id, d.status AS flight_status "
    "FROM segments s JOIN departures d ON d.id = s.departure_id JOIN flights f ON f.id = d.flight_id "
)


traveller_row = lookup(
    "travellers", "TRV",
    "traveller ids look like TRV-1042; find the account with find_traveller (email or phone).",
)


booking_row = lookup(
    "bookings", "BKG",
    "booking ids look like BKG-10234; find a booking by its six-character reference and a "
    "passenger's last name with find_booking.",
)


passenger_row = lookup(
    "passengers", "PAX",
    "passenger ids look like PAX-100234; get_booking lists a booking's passengers.",
)


def segment_row(db: Session, segment_id: str) -> Row:
    sid = normalize_id(segment_id, "SEG")
    return found(db.one(SEGMENT_VIEW + "WHERE s.id = ?", sid), f"no flight segment with id {sid!r}.",
                 "segment ids look like SEG-100234; get_booking lists a booking's segments.")


def departure_row(db: Session, departure_id: str) -> Row:
    dep = db.one("SELECT d.*, f.carrier, f.origin, f.destination, f.distance_km FROM departures d "
                 "JOIN flights f ON f.id = d.flight_id WHERE d.id = ?", departure_id.strip().upper())
    return found(dep, f"no departure {departure_id!r}.",
                 "departure ids look like AU312-2026-02-20 (flight number and date); search_flights lists them.")


def card_payment(db: Session, booking_id: str) -> Row:
    pay = db.one("SELECT * FROM payments WHERE booking_id = ? AND method = 'card' ORDER BY id LIMIT 1", booking_id)
    if pay is None:
        raise PreconditionFailed(f"booking {booking_id} was not paid by card.",
                                 hint="money paid with travel credit comes back as travel credit.")
    return pay


def passenger_count(db: Session, booking_id: str) -> int:
    row = db.one("SELECT COUNT(*) AS n FROM passengers WHERE booking_id = ?", booking_id)
    return int(row["n"]) if row else 0


def holder_of(db: Session, booking_id: str) -> Row:
    b = booking_row(db, booking_id)
    return traveller_row(db, b["traveller_id"])
