"""The retail tasks: they load, and every reference replays without a tool error."""

from __future__ import annotations

from typing import Any

import pytest

from statebox.suites import load_suite
from statebox.tasks import Task
from statebox.tasks.references import resolve
from statebox.world import Session

SUITE = load_suite("retail")
TASKS = {t.id: t for t in SUITE.tasks}
FIRST_SIX = {
    "late_delivery_broken_tumblers_gold", "headphones_return_window_closed_silver",
    "stalled_tent_carrier_investigation", "cancel_desk_wrong_order_number",
    "defective_blender_replacement_gold", "washer_installation_reschedule",
}


def replay(task: Task) -> dict[str, Any]:
    """Run the reference on a fresh session; return the final ticket status per ticket id."""
    domain = SUITE.domain_of(task)
    session = SUITE.open_session(task)
    saved: dict[str, Any] = {}
    try:
        for i, call in enumerate(task.reference):
            tools = domain.customer_tools if call.actor == "customer" else domain.tools
            outcome = tools.call(session, call.tool, resolve(call.args, saved))
            assert not outcome.is_error, f"{task.id} step {i} ({call.tool}): {outcome.text}"
            if call.save_as:
                saved[call.save_as] = outcome.data
        effects = session.effects()
        assert not effects.is_empty(), f"{task.id}: the reference changes nothing"
        return {c.key: (c.after or {}).get("status") for c in effects.changes if c.table == "tickets"}
    finally:
        session.close()


def test_the_first_six_tasks_are_in_the_suite() -> None:
    missing = FIRST_SIX - set(TASKS)
    assert not missing, f"missing tasks: {sorted(missing)}"


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_reference_replays_without_tool_errors(task_id: str) -> None:
    replay(TASKS[task_id])


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_every_task_ends_with_one_ticket_in_a_final_status(task_id: str) -> None:
    tickets = replay(TASKS[task_id])
    assert len(tickets) == 1, f"{task_id}: expected one ticket changed, got {tickets}"
    assert set(tickets.values()) <= {"solved", "hold", "pending", "open"}


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_every_task_has_private_facts_and_tags(task_id: str) -> None:
    task = TASKS[task_id]
    assert task.customer.facts, f"{task_id} has no private facts"
    assert task.tags, f"{task_id} has no tags"


def test_recovery_task_opening_number_does_not_exist() -> None:
    task = TASKS["cancel_desk_wrong_order_number"]
    tools = SUITE.domain_of(task).tools
    session = SUITE.open_session(task)
    try:
        assert tools.call(session, "get_order", {"order_id": "ORD-90400"}).error_kind == "not_found"
    finally:
        session.close()


def test_task_customers_do_not_clash_with_seed_customers() -> None:
    session = Session(SUITE.snapshot("retail"))
    try:
        for task in SUITE.tasks:
            for row in task.initial_rows.get("customers", []):
                if "email" not in row:
                    continue
                clash = session.one("SELECT id FROM customers WHERE lower(email) = lower(?) AND id != ?",
                                    row["email"], row["id"])
                assert clash is None, f"{task.id}: {row['email']} is already used by seed customer {clash}"
    finally:
        session.close()
