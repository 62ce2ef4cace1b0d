"""The travel backend: the size of a real agency's desk, the same every time, and in line with its handbook."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from statebox.domains.travel import DOMAIN
from statebox.domains.travel.rules import bag_price, band_of, points_for, seat_fee
from statebox.domains.travel.seed import NOW, build_rows
from statebox.kit import money
from statebox.tools.policy_search import policy_sections
from statebox.world import Session, Snapshot


@pytest.fixture(scope="module")
def snapshot() -> Snapshot:
    return DOMAIN.build_snapshot()


@pytest.fixture
def db(snapshot: Snapshot) -> Iterator[Session]:
    session = Session(snapshot)
    yield session
    session.close()


def count(db: Session, table: str) -> int:
    row = db.one(f'SELECT count(*) AS n FROM "{table}"')
    assert row is not None
    return int(row["n"])


@pytest.mark.parametrize(("table", "at_least"), [
    ("travellers", 250), ("bookings", 600), ("segments", 1000), ("flights", 80), ("hotel_stays", 150),
    ("departures", 80 * 90), ("travel_credits", 50), ("weather_waivers", 3), ("schedule_changes", 10),
])
def test_seed_is_the_size_the_issue_asks_for(db: Session, table: str, at_least: int) -> None:
    assert count(db, table) >= at_least, f"{table}: {count(db, table)} rows, want {at_least}+"


def test_seed_is_deterministic() -> None:
    assert build_rows() == build_rows()


def test_every_booking_has_passengers_a_segment_and_a_card_payment(db: Session) -> None:
    bare = db.all("SELECT id FROM bookings b WHERE NOT EXISTS (SELECT 1 FROM passengers p WHERE p.booking_id = b.id) "
                  "OR NOT EXISTS (SELECT 1 FROM segments s WHERE s.booking_id = b.id) "
                  "OR NOT EXISTS (SELECT 1 FROM payments y WHERE y.booking_id = b.id AND y.method = 'card')")
    assert bare == []


def test_every_payment_covers_the_flights_and_stays_it_paid_for(db: Session) -> None:
    short = db.all(
        "SELECT y.booking_id, y.amount, "
        "(SELECT SUM((s.fare_per_pax + s.taxes_per_pax) * (SELECT COUNT(*) FROM passengers p "
        "  WHERE p.booking_id = s.booking_id)) FROM segments s WHERE s.booking_id = y.booking_id) AS flights "
        "FROM payments y WHERE y.amount + 0.01 < (SELECT SUM((s.fare_per_pax + s.taxes_per_pax) * "
        "(SELECT COUNT(*) FROM passengers p WHERE p.booking_id = s.booking_id)) FROM segments s "
        "WHERE s.booking_id = y.booking_id)")
    assert short == []


def test_seed_bag_prices_follow_the_bag_table(db: Session) -> None:
    for bag in db.all("SELECT b.*, t.tier FROM bag_purchases b JOIN bookings k ON k.id = b.booking_id "
                      "JOIN travellers t ON t.id = k.traveller_id"):
        kms = [r["distance_km"] for r in db.all(
            "SELECT f.distance_km FROM segments s JOIN departures d ON d.id = s.departure_id "
            "JOIN flights f ON f.id = d.flight_id WHERE s.booking_id = ?", bag["booking_id"])]
        assert bag["amount"] == bag_price([band_of(k) for k in kms], bag["bags"], bag["tier"]), bag["id"]


def test_seed_points_follow_the_earning_table(db: Session) -> None:
    rows = db.all("SELECT p.points, f.distance_km, s.fare_family, t.tier FROM points_ledger p "
                  "JOIN segments s ON s.id = p.segment_id JOIN departures d ON d.id = s.departure_id "
                  "JOIN flights f ON f.id = d.flight_id JOIN travellers t ON t.id = p.traveller_id")
    assert rows
    wrong = [r for r in rows if r["points"] != points_for(r["distance_km"], r["fare_family"], r["tier"])]
    assert wrong == []


def test_seed_ids_stay_below_the_generated_ranges_and_task_locators(db: Session) -> None:
    assert db.all("SELECT id FROM bookings WHERE locator LIKE 'Z%'") == []
    assert db.all("SELECT id FROM refunds WHERE id >= 'RFD-50001' AND length(id) = 9") == []
    assert db.all("SELECT id FROM travel_credits WHERE CAST(substr(id, 5) AS INTEGER) >= 50001") == []


def test_policy_has_twelve_sections_and_states_the_fixed_now() -> None:
    sections = policy_sections(DOMAIN.policy)
    assert len(sections) >= 12
    assert "Tuesday 17 February 2026, 14:00 UTC" in DOMAIN.policy
    assert NOW.isoformat() == "2026-02-17T14:00:00+00:00"


def test_the_policy_examples_agree_with_its_rounding_rule() -> None:
    assert money(2.40 * 130) == 312.00
    assert money(123.45 * 1.3) == 160.49
    assert points_for(2000, "classic", "gold") == 1500
    assert bag_price(["short", "long"], 2, "silver") == 210.0
    assert bag_price(["short", "long"], 2, "gold") == 105.0
    assert "$312.00" in DOMAIN.policy and "$160.49" in DOMAIN.policy and "1,500 points" in DOMAIN.policy
    assert re.search(r"\$210; for a gold member only the second bag is paid: \$105", DOMAIN.policy)


def test_seed_seat_fees_follow_the_seat_table(db: Session) -> None:
    rows = db.all("SELECT a.kind, a.fee, s.fare_family, t.tier, f.distance_km FROM seat_assignments a "
                  "JOIN segments s ON s.id = a.segment_id JOIN departures d ON d.id = s.departure_id "
                  "JOIN flights f ON f.id = d.flight_id JOIN bookings b ON b.id = s.booking_id "
                  "JOIN travellers t ON t.id = b.traveller_id")
    assert len(rows) > 100
    wrong = [r for r in rows if r["fee"] != seat_fee(r["kind"], r["fare_family"], r["tier"], band_of(r["distance_km"]))]
    assert wrong == []
