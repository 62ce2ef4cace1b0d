"""Travel's trace checks: a passed card or code check is judged on the trace, a failed card check on the state."""

from __future__ import annotations

from statebox.domains.travel import DOMAIN
from statebox.judge.reference_trace import reference_trace
from statebox.judge.replay import judge_attempt, replay, required_effects, rules_for
from statebox.judge.trace import violations
from statebox.judge.verdict import Verdict
from statebox.kit import one_time_code
from statebox.suites import load_suite
from statebox.tasks import RefCall, Task
from statebox.tools.surface import ToolOutcome

SUITE = load_suite("travel")
TASKS = {t.id: t for t in SUITE.tasks}


def attempt(task: Task, calls: list[RefCall]) -> tuple[Verdict, list[str]]:
    """The state verdict of running `calls`, and the names of the trace checks a careful agent doing so breaks."""
    played: list[tuple[RefCall, ToolOutcome]] = []
    effects = replay(SUITE, task, calls, played=played)
    verdict = judge_attempt(effects, required_effects(SUITE, task), rules_for(SUITE, task))
    broken = violations(task.checks, reference_trace(task, played), task.customer.facts)
    return verdict, [d.check or "" for d in broken]


def without(task: Task, tool: str) -> list[RefCall]:
    return [c for c in task.reference if c.tool != tool]


def test_every_task_carries_the_domain_checks() -> None:
    names = [c.name for c in DOMAIN.trace_checks]
    assert [n.split("(")[0] for n in names] == ["confirm_before", "verify_before"]
    for task in SUITE.tasks:
        assert set(names) <= {c.name for c in task.checks}, f"{task.id}: {[c.name for c in task.checks]}"


def test_a_card_check_before_a_refusal_is_no_mistake() -> None:
    task = TASKS["light_fare_change_refused_blue"]
    booking = task.initial_rows["bookings"][0]["id"]
    digits = task.initial_rows["payments"][0]["card_last4"]
    check = RefCall(tool="verify_card", args={"booking_id": booking, "card_last4": digits})
    verdict, broken = attempt(task, [*task.reference[:2], check, *task.reference[2:]])
    assert verdict.passed, verdict.discrepancies
    assert broken == []


def test_a_card_check_made_twice_is_no_mistake() -> None:
    task = TASKS["classic_date_change_gold_lisbon_madrid"]
    at = next(i for i, c in enumerate(task.reference) if c.tool == "verify_card")
    verdict, broken = attempt(task, [*task.reference[: at + 1], *task.reference[at:]])
    assert verdict.passed, verdict.discrepancies
    assert broken == []


def test_a_code_sent_twice_is_no_mistake() -> None:
    task = TASKS["expired_voucher_reinstated_platinum_sms"]
    at = next(i for i, c in enumerate(task.reference) if c.tool == "send_verification_code")
    second = one_time_code("TRV-9012", "OTP-50002")  # the second sending replaces the first code
    again = [c.model_copy(update={"args": {**c.args, "code": second}}) if c.tool == "check_verification_code" else c
             for c in [*task.reference[: at + 1], *task.reference[at:]]]
    verdict, broken = attempt(task, again)
    assert verdict.passed, verdict.discrepancies
    assert broken == []


def test_a_change_without_the_card_check_passes_the_state_but_breaks_verify_before() -> None:
    task = TASKS["classic_date_change_gold_lisbon_madrid"]
    verdict, broken = attempt(task, without(task, "verify_card"))
    assert verdict.passed, verdict.discrepancies
    assert broken == [DOMAIN.trace_checks[1].name]


def test_an_account_request_without_the_code_check_breaks_verify_before() -> None:
    task = TASKS["expired_voucher_reinstated_platinum_sms"]
    verdict, broken = attempt(task, without(task, "check_verification_code"))
    assert verdict.passed, verdict.discrepancies
    assert [b.split("(")[0] for b in broken] == ["verify_before"]


def test_a_failed_card_check_left_out_is_caught_on_the_booking() -> None:
    task = TASKS["card_digits_wrong_twice_account_security"]
    first = next(i for i, c in enumerate(task.reference) if c.tool == "verify_card")
    verdict, _ = attempt(task, [c for i, c in enumerate(task.reference) if i != first])
    found = [(d.kind, d.table, d.field, d.expected, d.actual) for d in verdict.discrepancies]
    assert found == [("wrong_value", "bookings", "failed_card_checks", 2, 1)]


def test_cancelling_without_the_travellers_agreement_breaks_confirm_before() -> None:
    task = TASKS["amsterdam_hotel_cancelled_after_deadline_first_night_kept"]
    played: list[tuple[RefCall, ToolOutcome]] = []
    replay(SUITE, task, task.reference, played=played)
    unasked = [e for e in reference_trace(task, played) if "Please confirm" not in e.text]
    broken = violations(task.checks, unasked, task.customer.facts)
    assert [(d.check or "").split("(")[0] for d in broken] == ["confirm_before", "confirm_before"]
    assert [d.field for d in broken] == ["cancel_hotel_stay", "issue_refund"]
