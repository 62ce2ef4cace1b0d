"""The travel tasks: they replay cleanly, end with one ticket in a final state, and meet the suite minimums."""

from __future__ import annotations

import re
from typing import Any

import pytest

from statebox.domains.travel import DOMAIN
from statebox.suites import load_suite
from statebox.tasks import Task
from statebox.tasks.references import resolve

SUITE = load_suite("travel")
TASKS = {t.id: t for t in SUITE.tasks}
HELPDESK = {"create_ticket", "add_ticket_comment", "update_ticket_status", "set_ticket_priority", "handoff_to_human"}


def writes_of(task: Task) -> list[str]:
    return [c.tool for c in task.reference if c.actor == "agent" and DOMAIN.tools[c.tool].writes]


def replay(task: Task) -> dict[str, Any]:
    """Run the reference (customer steps with the customer's tools); the final status of each ticket."""
    session = SUITE.open_session(task)
    saved: dict[str, Any] = {}
    try:
        for i, call in enumerate(task.reference):
            tools = DOMAIN.customer_tools if call.actor == "customer" else DOMAIN.tools
            outcome = tools.call(session, call.tool, resolve(call.args, saved))
            assert not outcome.is_error, f"{task.id} step {i} ({call.tool}): {outcome.text}"
            if call.save_as:
                saved[call.save_as] = outcome.data
        return {c.key: (c.after or {}).get("status") for c in session.effects().changes if c.table == "tickets"}
    finally:
        session.close()


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_every_reference_ends_with_one_ticket_in_a_final_status(task_id: str) -> None:
    tickets = replay(TASKS[task_id])
    assert len(tickets) == 1, f"{task_id}: expected one ticket, got {tickets}"
    assert set(tickets.values()) <= {"solved", "hold", "pending", "open"}


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_a_handed_off_ticket_stays_open_and_gets_no_comment(task_id: str) -> None:
    tools = [c.tool for c in TASKS[task_id].reference]
    if "handoff_to_human" in tools:
        assert tools[-1] == "handoff_to_human", f"{task_id}: the hand-off must be the last action"
        assert "add_ticket_comment" not in tools and "update_ticket_status" not in tools


def test_recovery_identifiers_in_opening_messages_exist_nowhere() -> None:
    every_row = repr([t.initial_rows for t in SUITE.tasks])
    seed = SUITE.open_session(SUITE.tasks[0])
    try:
        for task in (t for t in SUITE.tasks if "recovery" in t.tags):
            wrong = re.findall(r"\bZ[A-Z0-9]{5}\b|[\w.]+@[\w.]+\.\w+", task.opening_message)
            assert wrong, f"{task.id}: a recovery task names a wrong identifier in its opening message"
            for value in wrong:
                assert value not in every_row, f"{task.id}: {value} exists in some task's rows"
                assert seed.one("SELECT id FROM bookings WHERE locator = ? UNION SELECT id FROM travellers "
                                "WHERE lower(email) = lower(?)", value, value) is None, f"{task.id}: {value} exists"
    finally:
        seed.close()


def test_the_suite_meets_the_issue_minimums() -> None:
    tasks = SUITE.tasks
    sequences = {tuple(c.tool for c in t.reference) for t in tasks}
    three_writes = [t for t in tasks if len(writes_of(t)) >= 3]
    waits = [t for t in tasks if any(c.tool == "handoff_to_human" or c.args.get("status") in ("hold", "pending")
                                     for c in t.reference)]
    helpdesk_only = [t for t in tasks if set(writes_of(t)) <= HELPDESK]
    customer_side = [t for t in tasks if any(f.via for f in t.customer.facts)]
    tagged = {tag: [t for t in tasks if tag in t.tags] for tag in ("not_eligible", "recovery")}
    assert len(tasks) >= 60
    assert len(sequences) >= 40
    assert len(three_writes) >= 15
    assert len(waits) >= 6
    assert len(tagged["not_eligible"]) >= 6 and len(tagged["recovery"]) >= 6
    assert sum(bool(t.rubrics) for t in tasks) >= 4
    assert len(customer_side) >= 4
    assert sum(t.read_only for t in tasks) <= 2
    assert len(helpdesk_only) <= len(tasks) // 4, [t.id for t in helpdesk_only]


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_every_change_is_preceded_by_an_identity_check(task_id: str) -> None:
    task = TASKS[task_id]
    checks = {"verify_card", "check_verification_code"}
    for i, call in enumerate(task.reference):
        if call.actor == "agent" and DOMAIN.tools[call.tool].writes and call.tool not in HELPDESK | checks \
                and call.tool != "send_verification_code":
            before = {c.tool for c in task.reference[:i]}
            assert before & checks, f"{task_id}: {call.tool} at step {i} comes before any identity check"
