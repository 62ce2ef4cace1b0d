"""The consulting desk's tools on real SQLite sessions: what they write, and what they refuse with a hint."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from statebox.domains.consulting import DOMAIN
from statebox.domains.consulting.seed import FirmSeed
from statebox.domains.consulting.tools.common import working_days
from statebox.suites import Suite, load_suite
from statebox.tools import ToolOutcome
from statebox.world import Session


@pytest.fixture(scope="module")
def suite() -> Suite:
    return load_suite("consulting")


def session_for(suite: Suite, task_id: str) -> Session:
    task = next(t for t in suite.tasks if t.id == task_id)
    return suite.open_session(task)


@pytest.fixture
def leave_task(suite: Suite) -> Iterator[Session]:
    s = session_for(suite, "easter_week_leave_four_working_days_approval")
    yield s
    s.close()


def call(session: Session, name: str, **args: Any) -> ToolOutcome:
    return DOMAIN.tools.call(session, name, args)


def ok(session: Session, name: str, **args: Any) -> Any:
    outcome = call(session, name, **args)
    assert not outcome.is_error, outcome.text
    return outcome.data


def test_the_seed_is_the_size_of_a_real_firm() -> None:
    rows = FirmSeed().build()
    sizes = {t: len(rows[t]) for t in ("employees", "engagements", "devices", "approval_requests")}
    catalogue = len(rows["software"]) + len(rows["device_models"]) + len(rows["courses"])
    assert sizes["employees"] >= 300 and sizes["engagements"] >= 60, sizes
    assert sizes["devices"] >= 500 and sizes["approval_requests"] >= 400, sizes
    assert catalogue >= 150, catalogue


def test_the_seed_is_deterministic() -> None:
    assert FirmSeed().build() == FirmSeed().build()


def test_the_tool_count_is_within_25_to_40_and_every_argument_is_described() -> None:
    names = DOMAIN.tools.names
    assert 25 <= len(names) <= 40, len(names)
    for name in names:
        spec = DOMAIN.tools[name].spec
        assert len(spec.description) > 20, name
        for arg, schema in spec.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{name}: {arg} has no description"


def test_working_days_skip_weekends_and_the_easter_holidays() -> None:
    from datetime import date

    assert working_days(date(2026, 4, 1), date(2026, 4, 8)) == 4
    assert working_days(date(2026, 5, 18), date(2026, 5, 25)) == 5
    assert working_days(date(2026, 3, 14), date(2026, 3, 15)) == 0


def test_find_employee_with_a_wrong_email_is_not_found_with_a_hint(leave_task: Session) -> None:
    outcome = call(leave_task, "find_employee", email="kasia.brennan@corvane.com")
    assert outcome.error_kind == "not_found"
    assert "Hint:" in outcome.text


# Each list tool: the table it reads, the key its rows' ids are shown under, and the column naming the employee.
LIST_TOOLS = {
    "list_devices": ("devices", "asset_id", "employee_id"),
    "list_access_grants": ("access_grants", "grant_id", "employee_id"),
    "list_expense_claims": ("expense_claims", "expense_id", "employee_id"),
    "list_approval_requests": ("approval_requests", "approval_id", "requester_id"),
}


@pytest.mark.parametrize("tool", sorted(LIST_TOOLS))
def test_a_list_tool_shows_all_the_employees_rows_under_their_own_id_key_without_the_employee(
    suite: Suite, tool: str,
) -> None:
    table, key, owner = LIST_TOOLS[tool]
    s = Session(suite.snapshot("consulting"))
    busiest = s.one(f"SELECT {owner} AS e FROM {table} GROUP BY {owner} ORDER BY count(*) DESC, {owner} LIMIT 1")
    assert busiest is not None
    rows = ok(s, tool, employee_id=busiest["e"].lower())
    held = {r["id"] for r in s.all(f"SELECT id FROM {table} WHERE {owner} = ?", busiest["e"])}
    assert len(rows) > 1 and {r[key] for r in rows} == held, rows
    assert not [r for r in rows if "id" in r or owner in r], rows
    s.close()


@pytest.mark.parametrize("tool", sorted(LIST_TOOLS))
def test_a_list_tool_does_not_find_an_unknown_employee_and_says_how_to_find_one(suite: Suite, tool: str) -> None:
    s = Session(suite.snapshot("consulting"))
    outcome = call(s, tool, employee_id="EMP-0001")
    assert outcome.error_kind == "not_found" and "find_employee" in outcome.text, outcome.text
    s.close()


def test_leave_linked_to_a_pending_approval_waits_and_takes_the_days_at_once(leave_task: Session) -> None:
    approval = ok(leave_task, "create_approval_request", requester_id="EMP-9086", approver_id="EMP-9087",
                  kind="leave")
    assert approval["status"] == "pending"
    booked = ok(leave_task, "book_leave", employee_id="EMP-9086", leave_type="annual", starts_on="2026-04-01",
                ends_on="2026-04-08", approval_id=approval["approval_id"])
    assert (booked["status"], booked["days"], booked["balance_left"]) == ("pending_approval", 4.0, 5.0)


def test_cancelling_leave_gives_the_days_back(leave_task: Session) -> None:
    booked = ok(leave_task, "book_leave", employee_id="EMP-9086", leave_type="annual", starts_on="2026-03-26",
                ends_on="2026-03-27")
    assert booked["balance_left"] == 7.0
    assert ok(leave_task, "cancel_leave", leave_id=booked["leave_id"])["balance_left"] == 9.0


def test_nobody_approves_their_own_request(leave_task: Session) -> None:
    outcome = call(leave_task, "create_approval_request", requester_id="EMP-9086", approver_id="EMP-9086",
                   kind="leave")
    assert outcome.error_kind == "precondition_failed"
    assert leave_task.effects().is_empty()


def test_a_written_approval_must_be_uploaded_before_it_is_evidence(suite: Suite) -> None:
    s = session_for(suite, "jmp_written_approval_from_practice_lead")
    held = call(s, "create_approval_request", requester_id="EMP-9133", approver_id="EMP-9134", kind="software",
                evidence_document_id="DOC-90133")
    assert held.error_kind == "not_found" and "upload" in held.text
    DOMAIN.customer_tools.call(s, "upload_document", {"document_id": "DOC-90133"})
    approval = ok(s, "create_approval_request", requester_id="EMP-9133", approver_id="EMP-9134", kind="software",
                  item_id="SW-142", amount=1650, evidence_document_id="DOC-90133")
    assert approval["status"] == "approved"
    grant = ok(s, "grant_software_access", employee_id="EMP-9133", software_id="SW-142",
               approval_id=approval["approval_id"])
    assert grant["status"] == "active"
    s.close()


def test_a_title_already_held_cannot_be_granted_twice(suite: Suite) -> None:
    s = session_for(suite, "figma_already_held_not_granted")
    outcome = call(s, "grant_software_access", employee_id="EMP-9138", software_id="SW-116")
    assert outcome.error_kind == "precondition_failed" and "ACC-90138" in outcome.text
    s.close()


def test_a_future_revocation_is_scheduled_and_today_revokes_at_once(suite: Suite) -> None:
    s = session_for(suite, "leaver_offboarding_by_manager")
    assert ok(s, "revoke_software_access", grant_id="ACC-90127", revoke_on="2026-03-20")["status"] == "active"
    assert ok(s, "revoke_software_access", grant_id="ACC-90128")["status"] == "revoked"
    s.close()


def test_a_home_delivery_needs_the_whole_address(suite: Suite) -> None:
    s = session_for(suite, "failed_laptop_remote_home_delivery_verified")
    outcome = call(s, "order_device", employee_id="EMP-9050", model_id="MDL-101", ship_to="home",
                   line1="48 Larkspur Lane")
    assert outcome.error_kind == "invalid_arguments"
    assert s.effects().is_empty()
    s.close()


def test_a_replaced_device_can_be_returned_only_once(suite: Suite) -> None:
    s = session_for(suite, "old_laptop_standard_replacement_office")
    ok(s, "request_asset_return", asset_id="AST-90045", reason="replaced")
    again = call(s, "request_asset_return", asset_id="AST-90045", reason="replaced")
    assert again.error_kind == "precondition_failed" and "return_requested" in again.text
    s.close()


def test_a_full_course_puts_the_enrolment_on_the_waitlist_without_taking_a_seat(suite: Suite) -> None:
    s = session_for(suite, "full_prince2_course_waitlist")
    assert ok(s, "enrol_in_course", employee_id="EMP-9078", course_id="CRS-9008")["status"] == "waitlisted"
    assert s.one("SELECT enrolled FROM courses WHERE id = 'CRS-9008'") == {"enrolled": 12}
    s.close()


def test_only_an_approved_claim_is_reimbursed(suite: Suite) -> None:
    s = session_for(suite, "duplicate_taxi_claim_refused")
    paid = ok(s, "reimburse_expense", expense_id="EXP-90107")
    assert paid["amount"] == 46.2
    again = call(s, "reimburse_expense", expense_id="EXP-90107")
    assert again.error_kind == "precondition_failed"
    s.close()


def test_an_unlisted_city_is_reported_as_not_listed(suite: Suite) -> None:
    s = session_for(suite, "unlisted_city_hotel_band_c_cap")
    assert ok(s, "get_city_band", city="Boise") == {"city": "Boise", "listed": False, "band": None}
    assert ok(s, "get_city_band", city="chicago")["band"] == "B"
    s.close()


def test_a_disabled_account_cannot_have_its_mfa_reset(suite: Suite) -> None:
    s = session_for(suite, "mfa_reset_new_handset_verified")
    s.execute("UPDATE accounts SET status = 'disabled' WHERE employee_id = 'EMP-9120'")
    outcome = call(s, "reset_mfa", employee_id="EMP-9120")
    assert outcome.error_kind == "precondition_failed" and "hr_advisory" in outcome.text
    s.close()
