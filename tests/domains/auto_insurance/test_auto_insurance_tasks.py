"""The auto-insurance suite as data: every task valid, and the suite minimums of the domain issue met."""

from __future__ import annotations

import pytest

from statebox.domains.auto_insurance import DOMAIN
from statebox.judge.reference_trace import reference_trace
from statebox.judge.replay import judge_attempt, replay, required_effects, rules_for
from statebox.judge.trace import violations
from statebox.judge.validation import validate_task
from statebox.kit.customer_side import one_time_code
from statebox.suites import Suite, load_suite
from statebox.tasks import RefCall, Task
from statebox.tasks.checks import ConfirmBefore, VerifyBefore
from statebox.tools.surface import ToolOutcome

HELPDESK = {"create_ticket", "add_ticket_comment", "update_ticket_status", "set_ticket_priority"}


@pytest.fixture(scope="module")
def suite() -> Suite:
    return load_suite("auto_insurance")


def writes(reference: list[RefCall]) -> list[str]:
    return [c.tool for c in reference if c.tool in DOMAIN.tools and DOMAIN.tools[c.tool].writes]


def test_at_least_sixty_tasks_with_forty_distinct_reference_sequences(suite: Suite) -> None:
    assert len(suite.tasks) >= 60
    assert len({tuple(c.tool for c in t.reference) for t in suite.tasks}) >= 40


def test_the_suite_minimums(suite: Suite) -> None:
    tasks = suite.tasks
    many_writes = [t for t in tasks if len(writes(t.reference)) >= 3]
    waiting = [t for t in tasks if any(c.tool == "handoff_to_human" or c.args.get("status") in ("hold", "pending")
                                       for c in t.reference)]
    assert len(many_writes) >= 15
    assert len(waiting) >= 6
    assert sum("not_eligible" in t.tags for t in tasks) >= 6
    assert sum("recovery" in t.tags for t in tasks) >= 6
    assert sum(bool(t.rubrics) for t in tasks) >= 4
    assert sum(any(f.via for f in t.customer.facts) for t in tasks) >= 4
    assert sum(t.read_only for t in tasks) <= 2
    helpdesk_only = [t.id for t in tasks if set(writes(t.reference)) <= HELPDESK]
    assert len(helpdesk_only) <= len(tasks) // 4, helpdesk_only


def test_a_recovery_task_opens_with_an_identifier_that_exists_nowhere(suite: Suite) -> None:
    for t in suite.tasks:
        if "recovery" not in t.tags:
            continue
        session = suite.open_session(t)
        words = [w.strip(".,") for w in t.opening_message.split() if w[:4] in ("POL-", "CLM-")]
        assert words, t.id
        for w in words:
            table = "policies" if w.startswith("POL-") else "claims"
            assert session.one(f"SELECT id FROM {table} WHERE id = ?", w) is None, (t.id, w)
        session.close()


POLICY_CHANGES = {"add_driver", "update_driver_status", "add_vehicle", "remove_vehicle", "change_coverage",
                  "update_address", "cancel_policy", "pay_installments", "waive_late_fee", "reinstate_policy"}
CODE_CHECK = "check_verification_code"


def code_guard() -> VerifyBefore:
    """The domain's check that a texted code was checked successfully before a policy change."""
    guards = [c for c in DOMAIN.trace_checks if isinstance(c, VerifyBefore) and c.verified_by == [CODE_CHECK]]
    assert len(guards) == 1, [c.name for c in DOMAIN.trace_checks]
    return guards[0]


def test_every_policy_changing_tool_needs_a_checked_text_code_on_the_trace() -> None:
    assert sorted(POLICY_CHANGES - set(code_guard().tools)) == []
    assert code_guard().facts == []  # private facts alone never allow a change (policy 2)


def test_the_text_code_records_are_judged_on_the_trace_not_in_the_end_state() -> None:
    assert [t for t in ("verification_codes", "phone_messages") if not DOMAIN.world.table(t).ignored] == []


def test_claims_id_cards_codes_and_changes_need_a_date_of_birth_with_a_policy_number_or_email() -> None:
    guards = [c for c in DOMAIN.trace_checks if isinstance(c, VerifyBefore) and c.facts]
    assert [(sorted(c.facts), c.min_facts) for c in guards] == [(["date_of_birth", "email", "policy_number"], 2)]
    missing = {"file_claim", "issue_claim_payment", "send_email", "send_verification_code"} | POLICY_CHANGES
    assert sorted(missing - set(guards[0].tools)) == []


def test_irreversible_money_changes_need_the_customers_agreement() -> None:
    confirmed = {t for c in DOMAIN.trace_checks if isinstance(c, ConfirmBefore) for t in c.tools}
    assert sorted({"cancel_policy", "pay_installments", "reinstate_policy", "issue_claim_payment"} - confirmed) == []
    assert "make it only once they agree" in DOMAIN.policy.split("## 2.")[0]


def test_every_task_is_judged_by_the_domain_trace_checks(suite: Suite) -> None:
    without = [t.id for t in suite.tasks if t.checks[: len(DOMAIN.trace_checks)] != DOMAIN.trace_checks]
    assert without == []


def test_every_reference_that_changes_a_policy_checks_a_code_the_trace_check_accepts(suite: Suite) -> None:
    changing = [t for t in suite.tasks if any(c.tool in POLICY_CHANGES for c in t.reference)]
    assert len(changing) >= 30
    broken = {}
    for t in changing:
        played: list[tuple[RefCall, ToolOutcome]] = []
        replay(suite, t, t.reference, played=played)
        found = violations([code_guard()], reference_trace(t, played), t.customer.facts)
        if found:
            broken[t.id] = [d.actual for d in found]
    assert broken == {}


# A code misread once, then read right ----------------------------------------------------------

RETRY = "roadside_on_both_cars_code_misread_once"
MISREAD = "792662"


def retry_task(suite: Suite) -> Task:
    return next(t for t in suite.tasks if t.id == RETRY)


def with_codes(task: Task, *checks: RefCall) -> list[RefCall]:
    """The reference with its code steps (send, read, check) replaced by `checks`."""
    at = next(i for i, c in enumerate(task.reference) if c.tool == "send_verification_code")
    end = next(i for i, c in enumerate(task.reference) if c.tool == CODE_CHECK)
    return [*task.reference[:at], *checks, *task.reference[end + 1 :]]


def judged(suite: Suite, task: Task, calls: list[RefCall]) -> tuple[bool, list[str]]:
    """The end-state verdict of these calls, and the trace checks a careful conversation around them breaks."""
    played: list[tuple[RefCall, ToolOutcome]] = []
    effects = replay(suite, task, calls, played=played)
    verdict = judge_attempt(effects, required_effects(suite, task), rules_for(suite, task))
    found = violations(task.checks, reference_trace(task, played), task.customer.facts)
    return verdict.passed, [d.check for d in found if d.check]


def call(tool: str, code: str | None = None) -> RefCall:
    args = {"policyholder_id": "PH-9077"} | ({"code": code} if code else {})
    return RefCall(tool=tool, args=args)


def test_a_misread_code_then_the_right_one_passes(suite: Suite) -> None:
    task = retry_task(suite)
    calls = with_codes(task, call("send_verification_code"), call(CODE_CHECK, MISREAD),
                       call(CODE_CHECK, "792626"))
    assert judged(suite, task, calls) == (True, [])


def test_a_fresh_code_after_the_misread_one_passes_too(suite: Suite) -> None:
    task = retry_task(suite)
    second = one_time_code("PH-9077", "OTP-50002")  # the second sending's code
    calls = with_codes(task, call("send_verification_code"), call(CODE_CHECK, MISREAD),
                       call("send_verification_code"), call(CODE_CHECK, second))
    assert judged(suite, task, calls) == (True, [])


def test_a_change_after_only_the_misread_code_breaks_the_code_check(suite: Suite) -> None:
    task = retry_task(suite)
    calls = with_codes(task, call("send_verification_code"), call(CODE_CHECK, MISREAD))
    passed, broken = judged(suite, task, calls)
    assert passed  # the end state alone cannot tell: the trace check does
    assert broken == [code_guard().name, code_guard().name]  # both roadside changes


@pytest.mark.parametrize("task_id", [
    "fnol_excluded_son_backed_into_pillar",
    "total_loss_cx5_estimate_over_threshold",
    "exclude_son_with_signed_exclusion_form",
    "switching_insurer_monthly_short_rate_no_refund",
    "trade_in_civic_for_new_elantra",
    "roadside_on_both_cars_code_misread_once",
])
def test_a_sample_of_tasks_passes_every_validation_check(suite: Suite, task_id: str) -> None:
    task = next(t for t in suite.tasks if t.id == task_id)
    result = validate_task(suite, task)
    assert result.ok, result.problems
