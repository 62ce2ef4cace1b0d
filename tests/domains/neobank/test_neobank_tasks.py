"""The neobank tasks: every one passes validation, and the suite meets the issue's minimums."""

from __future__ import annotations

import re

import pytest

from statebox.domains.neobank import DOMAIN
from statebox.judge.validation import validate_task
from statebox.suites import load_suite
from statebox.tasks import Task

SUITE = load_suite("neobank")
TASKS = {t.id: t for t in SUITE.tasks}
HELPDESK = {"create_ticket", "add_ticket_comment", "update_ticket_status", "set_ticket_priority"}


def writes_of(task: Task) -> list[str]:
    return [c.tool for c in task.reference if c.actor != "customer" and DOMAIN.tools[c.tool].writes]


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_every_task_passes_every_validation_check(task_id: str) -> None:
    result = validate_task(SUITE, TASKS[task_id])
    assert result.ok, result.problems


def test_the_suite_meets_the_issue_minimums() -> None:
    tasks = list(TASKS.values())
    sequences = {tuple(c.tool for c in t.reference) for t in tasks}
    counts = {
        "tasks": len(tasks),
        "distinct sequences": len(sequences),
        "3+ writes": sum(len(writes_of(t)) >= 3 for t in tasks),
        "hold or hand-off": sum("handoff_to_human" in writes_of(t) or any(
            c.tool == "update_ticket_status" and c.args.get("status") == "hold" for c in t.reference) for t in tasks),
        "not eligible": sum("not_eligible" in t.tags for t in tasks),
        "recovery": sum("recovery" in t.tags for t in tasks),
        "rubrics": sum(bool(t.rubrics) for t in tasks),
        "customer side": sum(any(c.actor == "customer" for c in t.reference) for t in tasks),
    }
    minimums = {"tasks": 60, "distinct sequences": 40, "3+ writes": 15, "hold or hand-off": 6, "not eligible": 6,
                "recovery": 6, "rubrics": 4, "customer side": 4}
    assert {k: v for k, v in counts.items() if v < minimums[k]} == {}, counts
    assert sum(t.read_only for t in tasks) <= 2
    assert sum(set(writes_of(t)) <= HELPDESK for t in tasks) <= len(tasks) / 4


@pytest.mark.parametrize("task_id", sorted(t.id for t in SUITE.tasks if "recovery" in t.tags))
def test_a_recovery_task_opens_with_an_identifier_that_exists_nowhere(task_id: str) -> None:
    task = TASKS[task_id]
    wrong = re.findall(r"[\w.+-]+@[\w.-]+\.\w+|\+31 6 \d{4} \d{4}|TCK-\d+", task.opening_message)
    assert wrong, f"{task_id}: no identifier in the opening message"
    session = SUITE.open_session(task)
    try:
        for value in wrong:
            hits = session.all("SELECT id FROM customers WHERE lower(email) = lower(?) OR phone = ? "
                               "UNION SELECT id FROM tickets WHERE id = ?", value, value, value)
            assert hits == [], f"{task_id}: {value} exists: {hits}"
    finally:
        session.close()
