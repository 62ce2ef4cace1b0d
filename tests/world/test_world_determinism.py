"""Attempts are reproducible: deterministic ids, a frozen clock, and all-or-nothing tool calls."""

from __future__ import annotations

import pytest

from minidomain import NOW, TOOLS, make_task, mini_suite, run_calls
from statebox.tools import PreconditionFailed, Toolset, tool
from statebox.world import Session, WorldError

CALLS = [
    ("create_ticket", {"customer_id": "CU-1", "subject": "Toner"}),
    ("add_comment", {"ticket_id": "T-100", "body": "Ordered."}),
    ("create_ticket", {"customer_id": "CU-2", "subject": "Mouse"}),
    ("send_email", {"customer_id": "CU-2", "template": "ticket_created", "ticket_id": "T-101"}),
]


def test_the_same_calls_produce_the_same_ids_and_rows_in_two_sessions():
    suite = mini_suite()
    task = suite.task("solve-printer-ticket")
    first = run_calls(suite, task, CALLS).effects()
    second = run_calls(suite, task, CALLS).effects()
    assert [c.key for c in first.changes] == ["C-100", "E-1", "T-100", "T-101"]
    assert first == second


def test_ids_come_from_the_domains_sequences():
    session = Session(mini_suite().snapshot("mini"))
    assert [session.next_id("ticket"), session.next_id("ticket"), session.next_id("email")] == ["T-100", "T-101", "E-1"]


def test_an_unknown_sequence_is_an_error_naming_it():
    session = Session(mini_suite().snapshot("mini"))
    with pytest.raises(WorldError, match="unknown id sequence 'invoice'"):
        session.next_id("invoice")


def test_tools_see_the_tasks_frozen_now():
    suite = mini_suite()
    task = suite.task("report-outage")
    session = run_calls(suite, task, [("create_ticket", {"customer_id": "CU-2", "subject": "VPN"})])
    assert session.one("SELECT created_at FROM tickets WHERE id = 'T-100'") == {
        "created_at": "2024-06-01T09:30:00+00:00"
    }


def test_a_task_without_its_own_now_runs_at_the_domains_now():
    suite = mini_suite()
    task = suite.task("solve-printer-ticket")
    assert task.now is None
    session = run_calls(suite, task, [("create_ticket", {"customer_id": "CU-2", "subject": "VPN"})])
    assert session.one("SELECT created_at FROM tickets WHERE id = 'T-100'") == {"created_at": NOW.isoformat()}


@tool(writes=True)
def solve_then_refuse(session: Session, ticket_id: str) -> None:
    """Write twice, then refuse: every write must be undone.

    Args:
        ticket_id: The ticket.
    """
    session.update("tickets", ticket_id, status="solved")
    session.insert(
        "comments",
        {"id": session.next_id("comment"), "ticket_id": ticket_id, "body": "x", "public": 1, "created_at": "now"},
    )
    raise PreconditionFailed("changed my mind")


def test_a_failing_tool_call_leaves_no_partial_writes():
    suite = mini_suite()
    session = suite.open_session(make_task())
    outcome = Toolset([*TOOLS, solve_then_refuse]).call(session, "solve_then_refuse", {"ticket_id": "T-1"})
    assert outcome.is_error and outcome.error_kind == "precondition_failed", outcome
    assert session.effects().is_empty(), session.effects().to_json()
    assert session.one("SELECT status FROM tickets WHERE id = 'T-1'") == {"status": "open"}


def test_a_failing_tool_call_does_not_use_up_an_id():
    suite = mini_suite()
    session = suite.open_session(make_task())
    Toolset([*TOOLS, solve_then_refuse]).call(session, "solve_then_refuse", {"ticket_id": "T-1"})
    assert session.next_id("comment") == "C-100"


def test_a_tool_call_that_crashes_is_rolled_back_and_the_crash_propagates():
    @tool(writes=True)
    def crash(session: Session) -> None:
        """Write, then hit a bug."""
        session.update("tickets", "T-1", status="hold")
        raise KeyError("a statebox or domain bug, not an agent error")

    session = mini_suite().open_session(make_task())
    with pytest.raises(KeyError):
        Toolset([crash]).call(session, "crash", {})
    assert session.effects().is_empty(), session.effects().to_json()
