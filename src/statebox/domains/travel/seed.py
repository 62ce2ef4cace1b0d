"""Deterministic seed: a travel agency with four months of bookings around the fixed "now"."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime, timedelta
from typing import Any

from statebox.domains.travel import network
from statebox.domains.travel.rules import bag_price, band_of, points_for, seat_fee
from statebox.kit import Rows, SeedRows, insert_rows

NOW = datetime(2026, 2, 17, 14, 0, tzinfo=UTC)
FIRST_DAY = NOW.date() - timedelta(days=45)
LAST_DAY = NOW.date() + timedelta(days=75)
N_TRAVELLERS = 260
N_BOOKINGS = 620
TIERS = ("blue", "silver", "gold", "platinum")
LOCATOR_LETTERS = "ACDEFGHJKLMNPQRTUVWXY3479"  # never Z: task locators start with Z
FAMILIES = ("light", "classic", "flex", "business")


def iso(t: datetime) -> str:
    return t.isoformat()


class TravelSeed(SeedRows):
    """Builds every seed row in memory from one fixed random stream."""

    def __init__(self, seed: int = 20260217) -> None:
        super().__init__(seed)
        self.locators: set[str] = set()
        self.departures: dict[str, dict[str, Any]] = {}
        self.flights: dict[str, dict[str, Any]] = {}
        self.seats_taken: dict[str, set[str]] = {}

    # -- timetable ----------------------------------------------------------------
    def build_network(self) -> None:
        for code, city, country, _, _ in network.AIRPORTS:
            self.add("airports", {"id": code, "city": city, "country": country})
        for i, (a, b) in enumerate(network.ROUTES):
            carrier = network.CARRIERS[i % len(network.CARRIERS)][0]
            for k, (o, d) in enumerate(((a, b), (b, a))):
                km = network.distance_km(o, d)
                fid = f"{carrier}{100 + 2 * i + k}"
                minute = self.r.randrange(6 * 60, 21 * 60, 5)
                self.flights[fid] = self.add("flights", {
                    "id": fid, "carrier": carrier, "origin": o, "destination": d,
                    "departs_at": f"{minute // 60:02d}:{minute % 60:02d}", "duration_min": 30 + round(km / 13.5),
                    "distance_km": km})
        for fid, f in self.flights.items():
            day = FIRST_DAY
            while day <= LAST_DAY:
                self.add_departure(fid, f, day)
                day += timedelta(days=1)

    def add_departure(self, fid: str, f: dict[str, Any], day: date) -> None:
        hh, mm = map(int, f["departs_at"].split(":"))
        dep = datetime(day.year, day.month, day.day, hh, mm, tzinfo=UTC)
        arr = dep + timedelta(minutes=f["duration_min"])
        light = float(round((39 + f["distance_km"] * 0.075) * self.r.uniform(0.85, 1.3)))
        row: dict[str, Any] = {
            "id": f"{fid}-{day.isoformat()}", "flight_id": fid, "date": day.isoformat(),
            "scheduled_departure": iso(dep), "scheduled_arrival": iso(arr), "status": "scheduled",
            "actual_arrival": None, "delay_cause": None,
            "seats_economy": 0 if self.r.random() < 0.08 else self.r.randint(1, 80),
            "seats_business": self.r.randint(0, 12),
            "fare_light": light, "fare_classic": float(round(light * 1.3)), "fare_flex": float(round(light * 1.9)),
            "fare_business": float(round(light * 3.6))}
        if arr < NOW:
            roll = self.r.random()
            row["status"] = "arrived"
            if roll < 0.02:
                row.update(status="cancelled", delay_cause=self.r.choice(("carrier", "weather")))
            elif roll < 0.10:
                row["actual_arrival"] = iso(arr + timedelta(minutes=self.r.randrange(125, 600, 5)))
                row["delay_cause"] = self.r.choice(("carrier", "carrier", "weather", "air_traffic_control"))
            else:
                row["actual_arrival"] = iso(arr + timedelta(minutes=self.r.randrange(-15, 45, 5)))
        self.departures[row["id"]] = self.add("departures", row)

    # -- people -------------------------------------------------------------------
    def build_travellers(self) -> None:
        for i in range(N_TRAVELLERS):
            first, last = self.r.choice(network.FIRST_NAMES), self.r.choice(network.LAST_NAMES)
            tier = self.r.choices(TIERS, weights=(50, 26, 16, 8))[0]
            self.add("travellers", {
                "id": f"TRV-{1001 + i}", "first_name": first, "last_name": last,
                "email": f"{first.lower()}.{last.lower()}{1001 + i}@example.net",
                "phone": f"+351-21-555-{1001 + i:04d}",
                "date_of_birth": date(self.r.randint(1950, 2003), self.r.randint(1, 12), self.r.randint(1, 28)
                                      ).isoformat(),
                "tier": tier, "points_balance": self.r.randint(0, 90000),
                "member_since": iso(datetime(self.r.randint(2012, 2025), self.r.randint(1, 12), 1, tzinfo=UTC)),
                "updated_at": None})

    def locator(self) -> str:
        while True:
            code = "".join(self.r.choice(LOCATOR_LETTERS) for _ in range(6))
            if code not in self.locators:
                self.locators.add(code)
                return code

    # -- bookings -------------------------------------------------------------------
    def build_bookings(self) -> None:
        travellers = self.rows["travellers"]
        flight_ids = sorted(self.flights)
        for i in range(N_BOOKINGS):
            self.add_booking(f"BKG-{10001 + i}", self.r.choice(travellers), self.r.choice(flight_ids))

    def pick_departure(self, fid: str, day: date) -> dict[str, Any] | None:
        for shift in range(4):
            dep = self.departures.get(f"{fid}-{(day + timedelta(days=shift)).isoformat()}")
            if dep is not None and dep["status"] != "cancelled":
                return dep
        return None

    def add_booking(self, bid: str, holder: dict[str, Any], fid: str) -> None:
        r = self.r
        created = NOW - timedelta(days=r.randint(2, 120), minutes=r.randint(0, 1400))
        first_day = max(created.date() + timedelta(days=r.randint(3, 60)), FIRST_DAY)
        out = self.pick_departure(fid, first_day)
        if out is None:
            return
        legs = [out]
        f = self.flights[fid]
        back_id = next(k for k, v in self.flights.items() if v["origin"] == f["destination"]
                       and v["destination"] == f["origin"])
        if r.random() < 0.78:
            back = self.pick_departure(back_id, date.fromisoformat(out["date"]) + timedelta(days=r.randint(2, 14)))
            if back is not None:
                legs.append(back)
        family = r.choices(FAMILIES, weights=(35, 35, 18, 12))[0]
        pax = r.choices((1, 2, 3, 4), weights=(50, 30, 12, 8))[0]
        cancelled = r.random() < 0.05
        done = all(datetime.fromisoformat(d["scheduled_arrival"]) < NOW for d in legs)
        status = "cancelled" if cancelled else "completed" if done else "confirmed"
        self.add("bookings", {"id": bid, "locator": self.locator(), "traveller_id": holder["id"], "status": status,
                              "created_at": iso(created), "updated_at": None})
        passengers = self.add_passengers(bid, holder, pax)
        total = 0.0
        segs = []
        for seq, dep in enumerate(legs, start=1):
            fare = dep[f"fare_{family}"]
            taxes = round(22 + self.flights[dep["flight_id"]]["distance_km"] * 0.012, 2)
            flown = datetime.fromisoformat(dep["scheduled_arrival"]) < NOW
            segs.append(self.add("segments", {
                "id": self.next_id("SEG-", 100001), "booking_id": bid, "seq": seq, "departure_id": dep["id"],
                "cabin": "business" if family == "business" else "economy", "fare_family": family,
                "fare_per_pax": fare, "taxes_per_pax": taxes,
                "status": "cancelled" if cancelled else "flown" if flown else "confirmed", "change_count": 0,
                "updated_at": None}))
            total += (fare + taxes) * pax
        if len(legs) == 2 and r.random() < 0.33:
            total += self.add_stay(bid, legs, status)
        if not cancelled and r.random() < 0.1:
            total += self.add_bags(bid, passengers[0]["id"], holder, legs)
        self.add_payment(bid, round(total, 2), created, cancelled)
        if not cancelled:
            self.add_points(holder, segs, family)
            self.add_seats(passengers, segs, holder)

    def add_passengers(self, bid: str, holder: dict[str, Any], pax: int) -> list[dict[str, Any]]:
        out = []
        for k in range(pax):
            first = holder["first_name"] if k == 0 else self.r.choice(network.FIRST_NAMES)
            last = holder["last_name"] if k == 0 or self.r.random() < 0.6 else self.r.choice(network.LAST_NAMES)
            out.append(self.add("passengers", {
                "id": self.next_id("PAX-", 100001), "booking_id": bid, "first_name": first, "last_name": last,
                "date_of_birth": holder["date_of_birth"] if k == 0 else date(
                    self.r.randint(1955, 2020), self.r.randint(1, 12), self.r.randint(1, 28)).isoformat(),
                "passport_number": f"P{self.r.randint(1000000, 9999999)}",
                "passport_expiry": date(self.r.randint(2027, 2035), self.r.randint(1, 12), 1).isoformat(),
                "nationality": self.r.choice(("PT", "ES", "FR", "DE", "IE", "US", "NL")), "is_lead": int(k == 0),
                "updated_at": None}))
        return out

    def add_stay(self, bid: str, legs: list[dict[str, Any]], status: str) -> float:
        city = next(a[1] for a in network.AIRPORTS if a[0] == self.flights[legs[0]["flight_id"]]["destination"])
        check_in, check_out = date.fromisoformat(legs[0]["date"]), date.fromisoformat(legs[1]["date"])
        nights = (check_out - check_in).days
        rate = float(self.r.randrange(80, 320, 5))
        plan = "flexible" if self.r.random() < 0.6 else "non_refundable"
        deadline = datetime(check_in.year, check_in.month, check_in.day, 14, 0, tzinfo=UTC) - timedelta(days=2)
        self.add("hotel_stays", {
            "id": self.next_id("HTL-", 10001), "booking_id": bid, "hotel_name": self.r.choice(network.HOTELS),
            "city": city, "check_in": check_in.isoformat(), "check_out": check_out.isoformat(),
            "room_type": self.r.choice(network.ROOM_TYPES), "rate_plan": plan, "nightly_rate": rate,
            "total": rate * nights, "cancel_deadline": iso(deadline) if plan == "flexible" else None,
            "status": "cancelled" if status == "cancelled" else "completed" if check_out < NOW.date()
            else "confirmed", "updated_at": None})
        return rate * nights

    def add_bags(self, bid: str, pax_id: str, holder: dict[str, Any], legs: list[dict[str, Any]]) -> float:
        bands = [band_of(self.flights[d["flight_id"]]["distance_km"]) for d in legs]
        amount = bag_price(bands, 1, holder["tier"])
        self.add("bag_purchases", {"id": self.next_id("BAG-", 10001), "booking_id": bid, "passenger_id": pax_id,
                                   "bags": 1, "amount": amount, "created_at": self.rows["bookings"][-1]["created_at"]})
        return amount

    def add_payment(self, bid: str, amount: float, created: datetime, cancelled: bool) -> None:
        pid = self.next_id("PAY-", 100001)
        self.add("payments", {
            "id": pid, "booking_id": bid, "method": "card",
            "card_brand": self.r.choice(("visa", "mastercard", "amex")), "card_last4": f"{self.r.randint(0, 9999):04d}",
            "amount": amount, "refunded_amount": amount if cancelled else 0.0,
            "status": "refunded" if cancelled else "captured", "created_at": iso(created)})
        if cancelled:
            self.add("refunds", {"id": self.next_id("RFD-", 100001), "booking_id": bid, "payment_id": pid,
                                 "amount": amount, "reason": "cancellation",
                                 "created_at": iso(created + timedelta(hours=5))})

    def add_points(self, holder: dict[str, Any], segs: list[dict[str, Any]], family: str) -> None:
        for s in segs:
            if s["status"] != "flown" or self.r.random() < 0.05:
                continue
            km = self.flights[self.departures[s["departure_id"]]["flight_id"]]["distance_km"]
            self.add("points_ledger", {
                "id": self.next_id("PTS-", 100001), "traveller_id": holder["id"], "segment_id": s["id"],
                "points": points_for(km, family, holder["tier"]), "reason": "flown",
                "created_at": self.departures[s["departure_id"]]["scheduled_arrival"]})

    def add_seats(self, passengers: list[dict[str, Any]], segs: list[dict[str, Any]], holder: dict[str, Any]) -> None:
        for s in segs:
            if s["status"] != "confirmed":
                continue
            dep = self.departures[s["departure_id"]]
            taken = self.seats_taken.setdefault(dep["id"], set())
            band = band_of(self.flights[dep["flight_id"]]["distance_km"])
            for p in passengers:
                if self.r.random() > 0.4:
                    continue
                if s["cabin"] == "business":
                    seat, kind = f"{self.r.randint(1, 4)}{self.r.choice('ACDF')}", "business"
                else:
                    row = self.r.randint(10, 35)
                    seat, kind = f"{row}{self.r.choice('ABCDEF')}", "extra_legroom" if row <= 12 else "standard"
                if seat in taken:
                    continue
                taken.add(seat)
                self.add("seat_assignments", {
                    "passenger_id": p["id"], "segment_id": s["id"], "seat": seat, "kind": kind,
                    "fee": seat_fee(kind, s["fare_family"], holder["tier"], band),
                    "assigned_at": self.rows["bookings"][-1]["created_at"]})

    # -- credits, waivers, schedule changes ---------------------------------------------
    def build_extras(self) -> None:
        travellers = self.rows["travellers"]
        for _ in range(90):
            t = self.r.choice(travellers)
            kind = self.r.choice(("travel_credit", "voucher"))
            issued = NOW - timedelta(days=self.r.randint(10, 700))
            months = 12 if kind == "travel_credit" else 24
            expires = date(issued.year + months // 12, issued.month, min(issued.day, 28))
            amount = float(self.r.randrange(40, 600, 5))
            self.add("travel_credits", {
                "id": self.next_id("CRD-", 10001), "traveller_id": t["id"], "kind": kind, "amount": amount,
                "balance": amount if self.r.random() < 0.7 else round(amount * self.r.uniform(0, 0.8), 2),
                "issued_at": iso(issued), "expires_on": expires.isoformat(), "source_booking_id": None,
                "reason": "cancellation" if kind == "travel_credit" else "delay compensation", "reinstated": 0,
                "updated_at": None})
        for row in WAIVERS:
            self.add("weather_waivers", dict(row))
        upcoming = [s for s in self.rows["segments"] if s["status"] == "confirmed"]
        for s in self.r.sample(upcoming, 12):
            dep = self.departures[s["departure_id"]]
            minutes = self.r.choice((45, 90, 200, 240, 300))
            new = datetime.fromisoformat(dep["scheduled_departure"])
            self.add("schedule_changes", {
                "id": self.next_id("SCH-", 10001), "segment_id": s["id"],
                "old_departure": iso(new - timedelta(minutes=minutes)), "new_departure": iso(new),
                "minutes": minutes, "notified_at": iso(NOW - timedelta(days=self.r.randint(1, 10))),
                "status": "open", "updated_at": None})


WAIVERS: tuple[dict[str, str], ...] = (
    {"id": "WVR-101", "airport": "ATH", "travel_from": "2026-01-09", "travel_to": "2026-01-11",
     "rebook_by": "2026-01-25", "issued_at": "2026-01-08T09:00:00+00:00", "description": "Storm over the Aegean"},
    {"id": "WVR-102", "airport": "KEF", "travel_from": "2026-02-16", "travel_to": "2026-02-19",
     "rebook_by": "2026-03-01", "issued_at": "2026-02-14T18:00:00+00:00", "description": "Blizzard in Iceland"},
    {"id": "WVR-103", "airport": "BOS", "travel_from": "2026-02-21", "travel_to": "2026-02-23",
     "rebook_by": "2026-03-06", "issued_at": "2026-02-16T12:00:00+00:00", "description": "Winter storm warning"},
    {"id": "WVR-104", "airport": "MUC", "travel_from": "2026-02-25", "travel_to": "2026-02-26",
     "rebook_by": "2026-03-08", "issued_at": "2026-02-17T08:00:00+00:00", "description": "Heavy snowfall expected"},
)


def build_rows() -> Rows:
    """All seed rows, by table. The same every time."""
    s = TravelSeed()
    return s.run(s.build_network, s.build_travellers, s.build_bookings, s.build_extras)


def seed(conn: sqlite3.Connection) -> None:
    """Insert the seed rows into a fresh database."""
    insert_rows(conn, build_rows())
