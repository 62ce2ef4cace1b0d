"""The auto-insurance tools on real SQLite sessions: what they write, and what they refuse with a hint."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from statebox.domains.auto_insurance import DOMAIN
from statebox.domains.auto_insurance.rating import RATES, driver_surcharge
from statebox.suites import Suite, load_suite
from statebox.tools import ToolOutcome
from statebox.world import Session


@pytest.fixture(scope="module")
def suite() -> Suite:
    return load_suite("auto_insurance")


def session_for(suite: Suite, task_id: str) -> Session:
    task = next(t for t in suite.tasks if t.id == task_id)
    return suite.open_session(task)


@pytest.fixture
def seed_session(suite: Suite) -> Iterator[Session]:
    s = Session(suite.snapshot("auto_insurance"))
    yield s
    s.close()


def call(session: Session, name: str, **args: Any) -> ToolOutcome:
    return DOMAIN.tools.call(session, name, args)


def ok(session: Session, name: str, **args: Any) -> Any:
    outcome = call(session, name, **args)
    assert not outcome.is_error, outcome.text
    return outcome.data


def count(session: Session, table: str) -> int:
    row = session.one(f'SELECT count(*) AS n FROM "{table}"')
    assert row is not None
    return int(row["n"])


def test_the_seed_is_the_size_the_issue_asks(seed_session: Session) -> None:
    sizes = {t: count(seed_session, t) for t in ("policyholders", "policies", "vehicles", "claims")}
    assert sizes["policyholders"] >= 200 and sizes["policies"] >= 300, sizes
    assert sizes["vehicles"] >= 400 and sizes["claims"] >= 250, sizes


def test_the_seed_premiums_follow_the_rating_table(seed_session: Session) -> None:
    for cov in seed_session.all("SELECT coverage, option, annual_premium FROM coverages LIMIT 300"):
        assert cov["annual_premium"] == RATES[cov["coverage"]][cov["option"]][0], cov


def test_between_twenty_five_and_forty_tools_each_documented() -> None:
    assert 25 <= len(DOMAIN.tools.names) <= 40
    for name in DOMAIN.tools.names:
        spec = DOMAIN.tools[name].spec
        assert len(spec.description) > 20, f"{name}: description too short"
        for arg, schema in spec.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{name}: argument {arg!r} has no description"


def test_driver_surcharge_bands_follow_the_age_on_the_effective_date() -> None:
    assert driver_surcharge("2009-05-14", "2026-03-10") == 1100.0  # 16
    assert driver_surcharge("2005-03-10", "2026-03-10") == 520.0  # 21 on the day
    assert driver_surcharge("2001-03-11", "2026-03-10") == 520.0  # 24, turns 25 tomorrow
    assert driver_surcharge("2001-03-10", "2026-03-10") == 0.0  # 25


def test_an_unknown_policy_number_is_not_found_with_a_hint_to_check_the_id_card(seed_session: Session) -> None:
    outcome = call(seed_session, "find_policyholder", policy_id="POL-99999")
    assert outcome.error_kind == "not_found"
    assert "ID card" in outcome.text and "Hint:" in outcome.text


@pytest.mark.parametrize(("tool", "args", "unknown", "where_to_look"), [
    ("waive_late_fee", {"installment_id": "ins-999999"}, "INS-999999", "get_policy lists a policy's installments"),
    ("assign_adjuster", {"claim_id": "CLM-10001", "adjuster_id": "999"}, "ADJ-999", "list_adjusters lists them"),
    ("assign_repair_shop", {"claim_id": "CLM-10001", "repair_shop_id": "rsh-999"}, "RSH-999",
     "find_repair_shops lists them"),
])
def test_an_unknown_installment_adjuster_or_shop_is_not_found_with_the_tool_that_lists_them(
    seed_session: Session, tool: str, args: dict[str, str], unknown: str, where_to_look: str,
) -> None:
    outcome = call(seed_session, tool, **args)
    assert outcome.error_kind == "not_found", outcome.text
    assert unknown in outcome.text and where_to_look in outcome.text, outcome.text


def test_ids_are_accepted_the_way_people_type_them(suite: Suite) -> None:
    s = session_for(suite, "fnol_rear_ended_at_light_network_shop")
    assert ok(s, "get_policy", policy_id=" pol-90011 ")["policy_id"] == "POL-90011"
    assert ok(s, "get_policy", policy_id="90011")["policy_id"] == "POL-90011"
    s.close()


def test_adding_a_driver_rates_the_surcharge_and_records_the_agents_prorated_amount(suite: Suite) -> None:
    s = session_for(suite, "add_sixteen_year_old_daughter_driver")
    out = ok(s, "add_driver", policy_id="POL-90311", first_name="Zoe", last_name="Mensah",
             date_of_birth="2009-05-14", license_number="or4471903", license_state="or", relationship="child",
             effective_date="2026-03-10", premium_change=340.55)
    assert out["annual_change"] == 1100.0 and out["premium_change"] == 340.55
    assert out["new_annual_premium"] == 2610.0
    driver = s.one("SELECT * FROM drivers WHERE id = ?", out["driver_id"])
    assert driver is not None and driver["license_number"] == "OR4471903" and driver["status"] == "listed"
    s.close()


def test_an_endorsement_outside_the_term_is_refused(suite: Suite) -> None:
    s = session_for(suite, "raise_collision_deductible_for_credit")
    outcome = call(s, "change_coverage", vehicle_id="VEH-90401", coverage="collision", option="1000",
                   effective_date="2026-09-30", premium_change=0)
    assert outcome.error_kind == "precondition_failed" and "outside the term" in outcome.text
    assert s.effects().is_empty()
    s.close()


def test_an_unknown_coverage_option_lists_the_options(suite: Suite) -> None:
    s = session_for(suite, "raise_collision_deductible_for_credit")
    outcome = call(s, "change_coverage", vehicle_id="VEH-90401", coverage="collision", option="750",
                   effective_date="2026-03-10", premium_change=0)
    assert outcome.error_kind == "invalid_arguments" and "250, 500, 1000" in outcome.text
    s.close()


def test_rental_coverage_needs_physical_damage_coverage(suite: Suite) -> None:
    s = session_for(suite, "rental_on_liability_only_car_adds_comprehensive_first")
    outcome = call(s, "change_coverage", vehicle_id="VEH-90411", coverage="rental", option="30x21",
                   effective_date="2026-03-10", premium_change=15.0)
    assert outcome.error_kind == "precondition_failed" and "collision or comprehensive" in outcome.text
    s.close()


def test_the_only_vehicle_cannot_be_removed_it_is_a_cancellation(suite: Suite) -> None:
    s = session_for(suite, "sold_only_car_cancel_short_rate")
    outcome = call(s, "remove_vehicle", vehicle_id="VEH-90391", effective_date="2026-03-10", premium_change=-1)
    assert outcome.error_kind == "precondition_failed" and "cancellation" in outcome.text
    s.close()


def test_excluding_a_driver_needs_an_uploaded_form(suite: Suite) -> None:
    s = session_for(suite, "exclude_son_with_signed_exclusion_form")
    args = dict(driver_id="DRV-90342", status="excluded", effective_date="2026-03-10", premium_change=-213.97)
    held = call(s, "update_driver_status", exclusion_form_id="DOC-90341", **args)
    assert held.error_kind == "not_found" and "upload" in held.text
    DOMAIN.customer_tools.call(s, "upload_document", {"document_id": "DOC-90341"})
    out = ok(s, "update_driver_status", exclusion_form_id="DOC-90341", **args)
    assert out["annual_change"] == -1100.0 and out["status"] == "excluded"
    s.close()


def test_a_late_installment_is_charged_its_fee_unless_waived(suite: Suite) -> None:
    s = session_for(suite, "late_installment_first_fee_waived_then_paid")
    ok(s, "waive_late_fee", installment_id="INS-905207")
    paid = ok(s, "pay_installments", policy_id="POL-90521", installment_ids=["INS-905207"],
              payment_method_id="PMT-90521")
    assert paid["amount"] == 115.83
    s.close()
    s = session_for(suite, "late_fee_waiver_refused_second_late_payment")
    paid = ok(s, "pay_installments", policy_id="POL-90531", installment_ids=["INS-905309"],
              payment_method_id="PMT-90531")
    assert paid["amount"] == 130.83
    s.close()


def test_reinstatement_waits_for_the_overdue_installments(suite: Suite) -> None:
    s = session_for(suite, "reinstate_lapsed_policy_pay_from_checking")
    early = call(s, "reinstate_policy", policy_id="POL-90541", payment_method_id="PMT-90542")
    assert early.error_kind == "precondition_failed" and "pay_installments" in early.text
    ok(s, "pay_installments", policy_id="POL-90541", installment_ids=["INS-905406", "INS-905407"],
       payment_method_id="PMT-90542")
    out = ok(s, "reinstate_policy", policy_id="POL-90541", payment_method_id="PMT-90542")
    assert out["status"] == "active" and out["amount"] == 25.0
    s.close()


def test_a_payment_method_of_someone_else_is_not_found(suite: Suite) -> None:
    s = session_for(suite, "late_installment_first_fee_waived_then_paid")
    outcome = call(s, "pay_installments", policy_id="POL-90521", installment_ids=["INS-905207"],
                   payment_method_id="PMT-90531")
    assert outcome.error_kind == "not_found" and "website" in outcome.text
    s.close()


def test_cancelling_refunds_the_default_method_and_cancels_later_installments(suite: Suite) -> None:
    s = session_for(suite, "switching_insurer_monthly_short_rate_no_refund")
    out = ok(s, "cancel_policy", policy_id="POL-90481", effective_date="2026-03-10", requested_by="policyholder",
             reason="switching", refund_method="short_rate", refund_amount=0)
    assert out["refund_id"] is None
    later = s.all("SELECT status FROM installments WHERE policy_id = 'POL-90481' AND number > 4")
    assert {r["status"] for r in later} == {"cancelled"}
    # due on 9 March, before the cancellation date: still owed (billing collects the balance)
    assert s.one("SELECT status FROM installments WHERE id = 'INS-904804'") == {"status": "overdue"}
    s.close()


def test_a_refund_above_what_was_paid_is_refused(suite: Suite) -> None:
    s = session_for(suite, "sold_only_car_cancel_short_rate")
    outcome = call(s, "cancel_policy", policy_id="POL-90391", effective_date="2026-03-10",
                   requested_by="policyholder", reason="sold", refund_method="pro_rata", refund_amount=2000)
    assert outcome.error_kind == "invalid_arguments" and "1310" in outcome.text
    s.close()


def test_a_claim_is_filed_open_with_lines_and_a_driver_of_the_policy(suite: Suite) -> None:
    s = session_for(suite, "fnol_rear_ended_at_light_network_shop")
    claim = ok(s, "file_claim", policy_id="POL-90011", vehicle_id="VEH-90011", loss_date="2026-03-08",
               loss_type="collision", description="rear-ended", at_fault="other_party", driver_id="DRV-90011")
    assert claim["claim_id"] == "CLM-50001" and claim["status"] == "open"
    ok(s, "add_claim_line", claim_id=claim["claim_id"], coverage="collision", deductible=500)
    again = call(s, "add_claim_line", claim_id=claim["claim_id"], coverage="collision", deductible=500)
    assert again.error_kind == "precondition_failed"
    s.close()


def test_a_claim_cannot_name_a_driver_of_another_policy_or_a_future_date(suite: Suite) -> None:
    s = session_for(suite, "fnol_rear_ended_at_light_network_shop")
    base = dict(policy_id="POL-90011", vehicle_id="VEH-90011", loss_type="collision", description="x",
                at_fault="insured")
    assert call(s, "file_claim", loss_date="2026-03-08", driver_id="DRV-10001", **base).error_kind == "not_found"
    assert call(s, "file_claim", loss_date="2026-04-01", **base).error_kind == "invalid_arguments"
    s.close()


def test_only_approved_lines_are_paid_and_never_beyond_the_approved_amount(suite: Suite) -> None:
    s = session_for(suite, "collision_estimate_approved_rental_from_dropoff")
    early = call(s, "issue_claim_payment", claim_line_id="CLL-901911", payee="repair_shop", amount=2900,
                 repair_shop_id="RSH-113")
    assert early.error_kind == "precondition_failed"
    ok(s, "decide_claim_line", claim_line_id="CLL-901911", decision="approved", reason="covered", approved_amount=2900)
    over = call(s, "issue_claim_payment", claim_line_id="CLL-901911", payee="repair_shop", amount=3400,
                repair_shop_id="RSH-113")
    assert over.error_kind == "invalid_arguments" and "2900" in over.text
    ok(s, "issue_claim_payment", claim_line_id="CLL-901911", payee="repair_shop", amount=2900, repair_shop_id="RSH-113")
    line = s.one("SELECT status FROM claim_lines WHERE id = 'CLL-901911'")
    assert line is not None and line["status"] == "paid"
    s.close()


def test_a_rental_is_capped_by_the_coverage(suite: Suite) -> None:
    s = session_for(suite, "long_repair_rental_capped_at_twenty_one_days")
    outcome = call(s, "authorize_rental", claim_id="CLM-90611", daily_rate=30, days=25, start_date="2026-03-11")
    assert outcome.error_kind == "invalid_arguments" and "21 days" in outcome.text
    s.close()
    s = session_for(suite, "rental_reimbursement_without_coverage_then_add_rental")
    none = call(s, "authorize_rental", claim_id="CLM-90241", daily_rate=30, days=5, start_date="2026-03-10")
    assert none.error_kind == "precondition_failed" and "no rental coverage" in none.text
    s.close()


def test_an_inactive_adjuster_cannot_be_assigned(suite: Suite) -> None:
    s = session_for(suite, "total_loss_cx5_estimate_over_threshold")
    outcome = call(s, "assign_adjuster", claim_id="CLM-90211", adjuster_id="ADJ-112")
    assert outcome.error_kind == "precondition_failed" and "not active" in outcome.text
    s.close()


def test_a_document_is_attached_only_once_it_is_uploaded(suite: Suite) -> None:
    s = session_for(suite, "pending_photos_followup_upload_and_shop")
    before = call(s, "attach_claim_document", claim_id="CLM-90261", document_id="DOC-90261", kind="damage_photos")
    assert before.error_kind == "not_found" and "upload" in before.text
    DOMAIN.customer_tools.call(s, "upload_document", {"document_id": "DOC-90261"})
    ok(s, "attach_claim_document", claim_id="CLM-90261", document_id="DOC-90261", kind="damage_photos")
    s.close()


def test_garaging_cannot_move_to_another_state(suite: Suite) -> None:
    s = session_for(suite, "moving_portland_to_vancouver_wa_underwriting")
    outcome = call(s, "update_address", policyholder_id="PH-9046", line1="1 Main St", city="Vancouver", state="WA",
                   postal_code="98660", garaging_policy_id="POL-90461")
    assert outcome.error_kind == "precondition_failed" and "new policy" in outcome.text
    assert s.effects().is_empty()
    s.close()


def test_the_policy_is_searchable_with_a_typo(seed_session: Session) -> None:
    hits = ok(seed_session, "search_policy", query="totl loss threshold")
    assert "75%" in str(hits)
