"""Neobank's trace checks: a passed code or private-facts check is judged on the trace, a failed one on the state."""

from __future__ import annotations

from statebox.domains.neobank import DOMAIN
from statebox.judge.reference_trace import CONFIRM_QUESTION, reference_trace
from statebox.judge.replay import judge_attempt, replay, required_effects, rules_for
from statebox.judge.trace import violations
from statebox.judge.verdict import Verdict
from statebox.kit import one_time_code
from statebox.suites import load_suite
from statebox.tasks import RefCall, Task
from statebox.tools.surface import ToolOutcome

SUITE = load_suite("neobank")
TASKS = {t.id: t for t in SUITE.tasks}
CONFIRM, VERIFY, CODE_ONLY = (c.name for c in DOMAIN.trace_checks)
HANDOFF = "verify_before(handoff_to_human)"


def attempt(task: Task, calls: list[RefCall], confirm: bool = True) -> tuple[Verdict, list[str]]:
    """The state verdict of running `calls`, and the trace checks a careful agent doing so breaks.

    With `confirm=False` the agent asks no confirmation question before any call.
    """
    played: list[tuple[RefCall, ToolOutcome]] = []
    effects = replay(SUITE, task, calls, played=played)
    verdict = judge_attempt(effects, required_effects(SUITE, task), rules_for(SUITE, task))
    trace = reference_trace(task, played)
    if not confirm:
        trace = [e for e in trace if e.text != CONFIRM_QUESTION]
    return verdict, [d.check or "" for d in violations(task.checks, trace, task.customer.facts)]


CODE_CALLS = ("send_verification_code", "read_phone_messages", "check_verification_code")


def without(task: Task, *tools: str) -> list[RefCall]:
    return [c for c in task.reference if c.tool not in tools]


def facts_check(task: Task) -> RefCall:
    """verify_identity with the customer's true date of birth and postcode (from the task's profile)."""
    c = task.initial_rows["customers"][0]
    return RefCall(tool="verify_identity",
                   args={"customer_id": c["id"], "date_of_birth": c["date_of_birth"], "postcode": c["postcode"]})


def test_every_task_carries_the_domain_checks_and_every_verified_hand_off_its_own() -> None:
    assert [n.split("(")[0] for n in (CONFIRM, VERIFY, CODE_ONLY)] == ["confirm_before", "verify_before",
                                                                       "verify_before"]
    for task in SUITE.tasks:
        names = {c.name for c in task.checks}
        assert {CONFIRM, VERIFY, CODE_ONLY} <= names, f"{task.id}: {sorted(names)}"
        hands_off = any(c.tool == "handoff_to_human" for c in task.reference)
        verifies = any(c.tool in ("check_verification_code", "verify_identity") for c in task.reference)
        failed_twice = task.id == "identity_check_fails_twice_account_security"
        assert (HANDOFF in names) == (hands_off and verifies and not failed_twice), task.id


def test_a_code_sent_twice_is_no_mistake() -> None:
    task = TASKS["freeze_card_left_at_friends_place"]
    at = next(i for i, c in enumerate(task.reference) if c.tool == "send_verification_code")
    owner = task.reference[at].args["customer_id"]
    second = one_time_code(owner, "OTP-50002")  # the second sending replaces the first code
    again = [c.model_copy(update={"args": {**c.args, "code": second}}) if c.tool == "check_verification_code" else c
             for c in [*task.reference[: at + 1], *task.reference[at:]]]
    verdict, broken = attempt(task, again)
    assert verdict.passed, verdict.discrepancies
    assert broken == []


def test_private_facts_checked_twice_are_no_mistake() -> None:
    task = TASKS["rent_transfer_refused_phone_stolen"]
    at = next(i for i, c in enumerate(task.reference) if c.tool == "verify_identity")
    verdict, broken = attempt(task, [*task.reference[: at + 1], *task.reference[at:]])
    assert verdict.passed, verdict.discrepancies
    assert broken == []


def test_a_refusal_without_verifying_passes_the_state_but_breaks_verify_before() -> None:
    task = TASKS["shoe_refund_already_on_its_way"]
    verdict, broken = attempt(task, without(task, *CODE_CALLS))
    assert verdict.passed, verdict.discrepancies
    assert broken == [VERIFY]  # the outcome comment told an unverified caller about their money


def test_a_transfer_on_private_facts_breaks_the_code_only_check() -> None:
    task = TASKS["rent_transfer_app_keeps_crashing"]
    at = next(i for i, c in enumerate(task.reference) if c.tool == "send_verification_code")
    verdict, broken = attempt(task, [*task.reference[:at], facts_check(task), *without(task, *CODE_CALLS)[at:]])
    assert verdict.passed, verdict.discrepancies
    assert broken == [CODE_ONLY]


def test_a_transfer_without_the_customers_agreement_breaks_confirm_before() -> None:
    task = TASKS["rent_transfer_app_keeps_crashing"]
    verdict, broken = attempt(task, task.reference, confirm=False)
    assert verdict.passed, verdict.discrepancies
    assert broken == [CONFIRM]


def test_a_hand_off_without_verifying_breaks_the_tasks_own_check() -> None:
    task = TASKS["formal_complaint_about_slow_dispute"]
    verdict, broken = attempt(task, without(task, *CODE_CALLS))
    assert verdict.passed, verdict.discrepancies
    assert broken == [HANDOFF]


def test_a_freeze_and_hand_off_without_private_facts_breaks_both_checks() -> None:
    task = TASKS["sim_swap_someone_has_my_number"]
    verdict, broken = attempt(task, without(task, "verify_identity"))
    assert verdict.passed, verdict.discrepancies
    assert broken == [VERIFY, HANDOFF]


def test_a_hand_off_after_two_failed_checks_breaks_nothing_and_a_failed_check_left_out_is_caught() -> None:
    task = TASKS["identity_check_fails_twice_account_security"]
    verdict, broken = attempt(task, task.reference)
    assert verdict.passed and broken == []
    first = next(i for i, c in enumerate(task.reference) if c.tool == "verify_identity")
    verdict, _ = attempt(task, [c for i, c in enumerate(task.reference) if i != first])
    found = [(d.kind, d.table, d.field, d.expected, d.actual) for d in verdict.discrepancies]
    assert found == [("wrong_value", "customers", "failed_identity_checks", 2, 1)]


def test_a_limit_raised_on_private_facts_breaks_the_tasks_code_only_check() -> None:
    task = TASKS["cash_limit_raise_capped_at_plus_maximum"]
    at = next(i for i, c in enumerate(task.reference) if c.tool == "send_verification_code")
    verdict, broken = attempt(task, [*task.reference[:at], facts_check(task), *without(task, *CODE_CALLS)[at:]])
    assert verdict.passed, verdict.discrepancies
    assert broken == ["verify_before(update_card_settings)"]
