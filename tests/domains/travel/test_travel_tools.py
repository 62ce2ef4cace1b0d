"""The travel tools: documented, honest about hard preconditions, deterministic in what they write."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from statebox.domains.travel import DOMAIN
from statebox.suites import load_suite
from statebox.tools import ToolOutcome
from statebox.world import Session

SUITE = load_suite("travel")
TASKS = {t.id: t for t in SUITE.tasks}


def at_start_of(task_id: str) -> Iterator[Session]:
    session = SUITE.open_session(TASKS[task_id])
    yield session
    session.close()


@pytest.fixture
def change_desk() -> Iterator[Session]:
    """Ines (gold), classic AU100 LIS-MAD on 24 Feb at $160, one passenger, card ending 4471."""
    yield from at_start_of("classic_date_change_gold_lisbon_madrid")


@pytest.fixture
def credit_desk() -> Iterator[Session]:
    """Rafael (platinum), classic MR114 for two, travel credit CRD-90003 with $150 left, expired on 2026-01-31."""
    yield from at_start_of("platinum_classic_madrid_rome_paid_with_credit")


def call(session: Session, name: str, **args: Any) -> ToolOutcome:
    return DOMAIN.tools.call(session, name, args)


def ok(session: Session, name: str, **args: Any) -> Any:
    outcome = call(session, name, **args)
    assert not outcome.is_error, outcome.text
    return outcome.data


def error(session: Session, name: str, **args: Any) -> str:
    outcome = call(session, name, **args)
    assert outcome.is_error, f"{name} should have failed: {outcome.text}"
    return outcome.text


def test_there_are_25_to_40_tools() -> None:
    assert 25 <= len(DOMAIN.tools.names) <= 40


@pytest.mark.parametrize("name", DOMAIN.tools.names)
def test_every_tool_has_a_description_and_documented_arguments(name: str) -> None:
    spec = DOMAIN.tools[name].spec
    assert len(spec.description) > 20, f"{name}: description too short"
    for arg, schema in spec.input_schema.get("properties", {}).items():
        assert schema.get("description"), f"{name}.{arg} has no description"


def test_find_booking_needs_a_passenger_name_on_it(change_desk: Session) -> None:
    assert ok(change_desk, "find_booking", locator="zq4km7", last_name="ferreira")["booking_id"] == "BKG-90001"
    text = error(change_desk, "find_booking", locator="ZQ4KM7", last_name="Smith")
    assert "not_found" in text and "confirmation" in text


def test_no_read_tool_shows_the_card_digits(change_desk: Session) -> None:
    booking = call(change_desk, "get_booking", booking_id="BKG-90001").text
    assert "4471" not in booking and "card_brand" in booking


def test_verify_card_records_every_check(change_desk: Session) -> None:
    assert ok(change_desk, "verify_card", booking_id="BKG-90001", card_last4="1111")["verified"] is False
    assert ok(change_desk, "verify_card", booking_id="BKG-90001", card_last4="4471")["verified"] is True
    checks = change_desk.all("SELECT passed FROM identity_checks WHERE booking_id = 'BKG-90001' ORDER BY id")
    assert [c["passed"] for c in checks] == [0, 1]


def test_only_failed_card_checks_count_on_the_booking(change_desk: Session) -> None:
    ok(change_desk, "verify_card", booking_id="BKG-90001", card_last4="4471")
    assert ok(change_desk, "verify_card", booking_id="BKG-90001", card_last4="1111")["failed_card_checks"] == 1
    assert ok(change_desk, "verify_card", booking_id="BKG-90001", card_last4="2222")["failed_card_checks"] == 2
    booking = change_desk.one("SELECT failed_card_checks FROM bookings WHERE id = 'BKG-90001'")
    assert booking == {"failed_card_checks": 2}


def test_change_flight_charges_the_fee_and_the_higher_fare(change_desk: Session) -> None:
    out = ok(change_desk, "change_flight", segment_id="SEG-90001", new_departure_id="AU100-2026-02-26", change_fee=45)
    assert out["fare_difference"] == 25.0 and out["charged"]["fare_difference"] == 25.0
    charges = change_desk.all("SELECT kind, amount FROM charges WHERE booking_id = 'BKG-90001' ORDER BY id")
    assert [(c["kind"], c["amount"]) for c in charges] == [("change_fee", 45.0), ("fare_difference", 25.0)]
    seg = change_desk.one("SELECT departure_id, fare_per_pax, change_count FROM segments WHERE id = 'SEG-90001'")
    assert seg == {"departure_id": "AU100-2026-02-26", "fare_per_pax": 185.0, "change_count": 1}


def test_change_flight_refuses_another_route_and_a_full_flight(change_desk: Session) -> None:
    assert "same route" in error(change_desk, "change_flight", segment_id="SEG-90001",
                                 new_departure_id="AU101-2026-02-26", change_fee=0)
    change_desk.execute("UPDATE departures SET seats_economy = 0 WHERE id = 'AU100-2026-02-27'")
    assert "waitlist" in error(change_desk, "change_flight", segment_id="SEG-90001",
                               new_departure_id="AU100-2026-02-27", change_fee=0)


def test_a_waived_change_charges_nothing(change_desk: Session) -> None:
    ok(change_desk, "change_flight", segment_id="SEG-90001", new_departure_id="AU100-2026-02-26", change_fee=0,
       waive_fare_difference=True)
    assert change_desk.all("SELECT id FROM charges WHERE booking_id = 'BKG-90001'") == []


def test_paying_with_a_reinstated_travel_credit_lowers_its_balance(credit_desk: Session) -> None:
    ok(credit_desk, "reinstate_credit", credit_id="CRD-90003")
    ok(credit_desk, "change_flight", segment_id="SEG-90043", new_departure_id="MR114-2026-03-13", change_fee=0,
       pay_with="travel_credit", credit_id="CRD-90003")
    assert credit_desk.one("SELECT balance FROM travel_credits WHERE id = 'CRD-90003'") == {"balance": 90.0}


def test_an_expired_credit_cannot_pay(credit_desk: Session) -> None:
    assert "expired" in error(credit_desk, "change_flight", segment_id="SEG-90043",
                              new_departure_id="MR114-2026-03-13", change_fee=0, pay_with="travel_credit",
                              credit_id="CRD-90003")


def test_cancel_flights_moves_no_money_and_closes_an_empty_booking(change_desk: Session) -> None:
    out = ok(change_desk, "cancel_flights", booking_id="BKG-90001")
    assert out["booking_status"] == "cancelled" and out["cancelled"][0]["taxes_per_pax"] == 28.16
    assert change_desk.all("SELECT id FROM refunds WHERE booking_id = 'BKG-90001'") == []
    assert change_desk.all("SELECT id FROM travel_credits WHERE traveller_id = 'TRV-9001'") == []
    assert "no confirmed flight" in error(change_desk, "cancel_flights", booking_id="BKG-90001")


def test_a_refund_never_exceeds_what_is_left_on_the_card(change_desk: Session) -> None:
    ok(change_desk, "issue_refund", booking_id="BKG-90001", amount=100.0, reason="voluntary_cancellation")
    assert "88.16" in error(change_desk, "issue_refund", booking_id="BKG-90001", amount=100.0,
                            reason="voluntary_cancellation")
    assert change_desk.one("SELECT status FROM payments WHERE id = 'PAY-90001'") == {"status": "partially_refunded"}


def test_a_travel_credit_runs_twelve_months(change_desk: Session) -> None:
    out = ok(change_desk, "issue_travel_credit", booking_id="BKG-90001", amount=88.5, reason="weather_waiver")
    assert out["expires_on"] == "2027-02-17" and out["credit_id"] == "CRD-50001"


def test_a_voucher_compensation_issues_a_24_month_voucher_once() -> None:
    for db in at_start_of("delay_compensation_reykjavik_voucher_two_passengers"):
        out = ok(db, "award_compensation", segment_id="SEG-90003", reason="delay", amount=624.0, form="voucher")
        voucher = db.one("SELECT kind, amount, expires_on FROM travel_credits WHERE id = ?", out["voucher_id"])
        assert voucher == {"kind": "voucher", "amount": 624.0, "expires_on": "2028-02-17"}
        assert db.one("SELECT passengers FROM compensations WHERE id = ?", out["compensation_id"]) == {"passengers": 2}
        assert "already compensated" in error(db, "award_compensation", segment_id="SEG-90003", reason="delay",
                                              amount=480.0, form="card")


def test_flight_status_reports_the_arrival_delay_and_its_cause() -> None:
    for db in at_start_of("delay_compensation_reykjavik_voucher_two_passengers"):
        out = ok(db, "get_flight_status", flight_number="mr 170", date="2026-02-10")
        assert (out["arrival_delay_minutes"], out["delay_cause"], out["distance_km"]) == (310, "carrier", 1895)


def test_reinstating_a_credit_gives_90_days_and_only_once() -> None:
    for db in at_start_of("expired_voucher_reinstated_platinum_sms"):
        assert ok(db, "reinstate_credit", credit_id="crd-90001")["expires_on"] == "2026-05-18"
        assert "has not expired" in error(db, "reinstate_credit", credit_id="CRD-90001")
        db.execute("UPDATE travel_credits SET expires_on = '2026-02-01' WHERE id = 'CRD-90001'")
        assert "already reinstated" in error(db, "reinstate_credit", credit_id="CRD-90001")


def test_missing_points_are_credited_once_per_segment() -> None:
    for db in at_start_of("missing_points_istanbul_flight_sms_verified_gold"):
        assert ok(db, "credit_missing_points", traveller_id="TRV-9011", segment_id="SEG-90016",
                  points=1378)["points_balance"] == 30250 + 1378
        assert "already has points" in error(db, "credit_missing_points", traveller_id="TRV-9011",
                                             segment_id="SEG-90017", points=1378)


def test_a_hotel_stay_cannot_be_cancelled_on_its_check_in_date() -> None:
    for db in at_start_of("amsterdam_hotel_cancelled_after_deadline_first_night_kept"):
        db.execute("UPDATE hotel_stays SET check_in = '2026-02-17' WHERE id = 'HTL-90002'")
        assert "can no longer be cancelled" in error(db, "cancel_hotel_stay", stay_id="HTL-90002")


def test_a_waitlist_is_only_for_a_full_departure(change_desk: Session) -> None:
    assert "change the flight instead" in error(change_desk, "join_waitlist", segment_id="SEG-90001",
                                                departure_id="AU100-2026-02-26")
