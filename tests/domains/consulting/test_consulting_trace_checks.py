"""Consulting's trace checks: the work email before anything, codes judged on the trace, agreement before acting."""

from __future__ import annotations

from statebox.domains.consulting import DOMAIN
from statebox.judge.reference_trace import reference_trace
from statebox.judge.replay import judge_attempt, replay, required_effects, rules_for
from statebox.judge.trace import Event, violations
from statebox.judge.verdict import Verdict
from statebox.kit import one_time_code
from statebox.suites import load_suite
from statebox.tasks import RefCall, Task
from statebox.tasks.dialogue import states
from statebox.tools.surface import ToolOutcome

SUITE = load_suite("consulting")
TASKS = {t.id: t for t in SUITE.tasks}
HOME = "failed_laptop_remote_home_delivery_verified"
MFA = "mfa_reset_new_handset_verified"


def trace_of(task: Task, calls: list[RefCall]) -> tuple[Verdict, list[Event]]:
    """The state verdict of running `calls`, and the trace of a careful agent making them."""
    played: list[tuple[RefCall, ToolOutcome]] = []
    effects = replay(SUITE, task, calls, played=played)
    return judge_attempt(effects, required_effects(SUITE, task), rules_for(SUITE, task)), reference_trace(task, played)


def broken(task: Task, trace: list[Event]) -> list[str]:
    return [d.check or "" for d in violations(task.checks, trace, task.customer.facts)]


def with_code_sent_twice(task: Task) -> list[RefCall]:
    """The reference with the code sent once more, and the second code read back."""
    at = next(i for i, c in enumerate(task.reference) if c.tool == "send_verification_code")
    owner = task.reference[at].args["employee_id"]
    second = one_time_code(owner, "OTP-50002")
    calls = [*task.reference[: at + 1], *task.reference[at:]]
    return [c.model_copy(update={"args": {**c.args, "code": second}}) if c.tool == "check_verification_code" else c
            for c in calls]


def test_every_task_carries_the_domain_checks() -> None:
    names = {c.name for c in DOMAIN.trace_checks}
    assert len(names) == 3
    for task in SUITE.tasks:
        assert names <= {c.name for c in task.checks}, f"{task.id}: {[c.name for c in task.checks]}"


def test_a_code_sent_before_refusing_a_home_delivery_is_no_mistake() -> None:
    task = TASKS["hybrid_worker_home_delivery_refused"]
    send = RefCall(tool="send_verification_code", args={"employee_id": "EMP-9062"})
    verdict, trace = trace_of(task, [*task.reference[:3], send, *task.reference[3:]])
    assert verdict.passed, verdict.discrepancies
    assert broken(task, trace) == []


def test_a_code_sent_twice_is_no_mistake() -> None:
    task = TASKS[MFA]
    verdict, trace = trace_of(task, with_code_sent_twice(task))
    assert verdict.passed, verdict.discrepancies
    assert broken(task, trace) == []


def test_an_mfa_reset_without_the_code_check_passes_the_state_but_breaks_verify_before() -> None:
    task = TASKS[MFA]
    verdict, trace = trace_of(task, [c for c in task.reference if c.tool != "check_verification_code"])
    assert verdict.passed, verdict.discrepancies
    assert broken(task, trace) == ["verify_before(reset_mfa)"]


def test_a_home_delivery_without_the_code_check_breaks_the_tasks_own_check() -> None:
    task = TASKS[HOME]
    verdict, trace = trace_of(task, [c for c in task.reference if c.tool != "check_verification_code"])
    assert verdict.passed, verdict.discrepancies
    assert broken(task, trace) == ["verify_before(order_device)"]


def test_an_office_delivery_needs_no_code() -> None:
    task = TASKS["hybrid_worker_home_delivery_refused"]
    assert "verify_before(order_device)" not in {c.name for c in task.checks}


def test_acting_on_an_employee_the_customer_never_gave_the_email_of_breaks_verify_before() -> None:
    task = TASKS[MFA]
    email = next(f for f in task.customer.facts if f.key == "email")
    _, trace = trace_of(task, task.reference)
    unnamed = [e for e in trace if not (e.kind == "customer" and e.index > 0 and states(email, e.text))]
    found = violations(task.checks, unnamed, task.customer.facts)
    assert {d.check for d in found} == {DOMAIN.trace_checks[1].name}  # the email check, not the code one
    assert [d.field for d in found] == ["create_ticket", "get_employee", "reset_mfa"]


def test_resetting_without_the_employees_agreement_breaks_confirm_before() -> None:
    task = TASKS[MFA]
    _, trace = trace_of(task, task.reference)
    unasked = [e for e in trace if "Please confirm" not in e.text]
    assert [n.split("(")[0] for n in broken(task, unasked)] == ["confirm_before"]
