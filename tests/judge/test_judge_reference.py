"""Required effects come from replaying the reference; a reference that fails is a task bug, loudly."""

from __future__ import annotations

import pytest

from minidomain import make_task, mini_suite
from statebox.judge import ReferenceFailed, replay, required_effects
from statebox.tasks import RefCall


def test_a_failing_reference_call_names_the_task_the_call_and_the_tool():
    task = make_task(
        id="broken-ref",
        reference=[
            {"tool": "get_ticket", "args": {"ticket_id": "T-3"}},
            {"tool": "update_ticket", "args": {"ticket_id": "T-3", "status": "open"}},
        ],
    )
    with pytest.raises(ReferenceFailed) as info:
        required_effects(mini_suite([task]), task)
    err = info.value
    assert (err.task_id, err.index, err.tool) == ("broken-ref", 1, "update_ticket")
    assert str(err) == (
        "task 'broken-ref': reference call 1 (update_ticket) failed: Error (precondition_failed): "
        "ticket T-3 is solved and cannot be reopened. Hint: open a new ticket."
    )


def test_a_reference_call_with_invalid_arguments_fails_loudly():
    task = make_task(reference=[{"tool": "create_ticket", "args": {"customer_id": "CU-1"}}])
    with pytest.raises(ReferenceFailed, match=r"(?s)reference call 0 \(create_ticket\) failed: .*'subject'"):
        required_effects(mini_suite([task]), task)


def test_a_reference_call_to_an_unknown_tool_fails_loudly():
    task = make_task(reference=[{"tool": "close_ticket", "args": {}}])
    with pytest.raises(ReferenceFailed, match=r"reference call 0 \(close_ticket\) failed: Error \(unknown_tool\)"):
        required_effects(mini_suite([task]), task)


def test_an_unresolvable_reference_fails_loudly():
    task = make_task(reference=[{"tool": "get_ticket", "args": {"ticket_id": "${ticket.id}"}}])
    with pytest.raises(ReferenceFailed, match=r"reference call 0 \(get_ticket\) failed: .*no earlier call saved"):
        required_effects(mini_suite([task]), task)


def test_a_failing_alternative_fails_loudly_too():
    task = make_task(
        reference=[{"tool": "update_ticket", "args": {"ticket_id": "T-2", "status": "hold"}}],
        expect={"alternatives": [[{"tool": "update_ticket", "args": {"ticket_id": "T-404", "status": "hold"}}]]},
    )
    with pytest.raises(ReferenceFailed, match="not_found"):
        required_effects(mini_suite([task]), task)


def test_saved_results_feed_later_calls():
    suite = mini_suite()
    effects = replay(suite, suite.task("report-outage"), suite.task("report-outage").reference)
    [email] = [c for c in effects.changes if c.table == "emails_sent"]
    assert email.after["ticket_id"] == "T-100"


def test_replay_can_skip_calls():
    suite = mini_suite()
    task = suite.task("solve-printer-ticket")
    effects = replay(suite, task, task.reference, skip=[1, 3])
    assert [(c.table, c.kind) for c in effects.changes] == [("tickets", "update")]


def test_replaying_twice_gives_the_same_effects():
    suite = mini_suite()
    task = suite.task("split-request")
    calls = [RefCall.model_validate(c.model_dump()) for c in task.reference]
    assert replay(suite, task, calls) == replay(suite, task, task.reference)
