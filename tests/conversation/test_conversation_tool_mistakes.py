"""The model's tool mistakes are shown back to it as errors it can recover from, never raised."""

from __future__ import annotations

from typing import Any

import pytest
from conversation_kit import call, explain, run_llm_attempt, say

from statebox.runner.backend import direct_transport
from statebox.runner.transports import MemoryTransport
from statebox.suites import Suite
from statebox.tasks import Limits

SOLVE = "solve-printer-ticket"
COMMENT = {"ticket_id": "T-1", "body": "The customer says the printer works again."}
REST_OF_SOLUTION = [
    call("update_ticket", {"ticket_id": "T-1", "status": "solved"}),
    call("send_email", {"customer_id": "CU-1", "template": "ticket_solved", "ticket_id": "T-1"}),
    say("Your ticket T-1 is closed and a confirmation email is on its way."),
]


def tool_message(request: dict[str, Any], call_id: str) -> dict[str, Any]:
    (message,) = [m for m in request["messages"] if m["role"] == "tool" and m["tool_call_id"] == call_id]
    return message


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ('{"ticket_id": "T-1", "body": "The printer works', "not valid JSON"),
        ('["T-1", "The printer works again."]', "must be a JSON object"),
    ],
    ids=["truncated", "not-an-object"],
)
def test_malformed_tool_call_json_is_shown_to_the_model_which_recovers_and_passes(
    mini: Suite, agent_model: Any, raw: str, said: str
) -> None:
    agent_model.script(call("add_comment", raw, call_id="call_bad"), call("add_comment", COMMENT), *REST_OF_SOLUTION)
    record = run_llm_attempt(mini, mini.task(SOLVE), agent_model)

    second = agent_model.bodies()[1]
    echoed = next(m for m in second["messages"] if m.get("tool_calls"))["tool_calls"][0]
    assert echoed["function"]["arguments"] == raw, "the model sees the arguments it sent, as it sent them"
    error = tool_message(second, "call_bad")
    assert said in error["content"] and "Send the arguments as one JSON object" in error["content"]

    assert record.passed, explain(record)
    (bad,) = [e for e in record.transcript.tool_results() if e.tool_call_id == "call_bad"]
    assert (bad.is_error, bad.error_kind) == (True, "invalid_arguments")
    (sent,) = [c for e in record.transcript.entries for c in e.tool_calls if c.id == "call_bad"]
    assert (sent.arguments, sent.raw_arguments) == (None, raw)


@pytest.mark.parametrize(
    ("mistake", "kind"),
    [
        (call("close_ticket", {"ticket_id": "T-1"}, call_id="call_bad"), "unknown_tool"),
        (call("add_comment", {"ticket_id": "T-1"}, call_id="call_bad"), "invalid_arguments"),
        (call("add_comment", {"ticket_id": "T-404", "body": "x"}, call_id="call_bad"), "not_found"),
    ],
    ids=["unknown-tool", "missing-argument", "not-found"],
)
def test_a_tool_error_goes_back_to_the_model_flagged_and_the_attempt_can_still_pass(
    mini: Suite, agent_model: Any, mistake: dict[str, Any], kind: str
) -> None:
    agent_model.script(
        mistake, call("get_ticket", {"ticket_id": "T-1"}), call("add_comment", COMMENT), *REST_OF_SOLUTION
    )
    record = run_llm_attempt(mini, mini.task(SOLVE), agent_model, transport=MemoryTransport())
    error = tool_message(agent_model.bodies()[1], "call_bad")
    assert error["content"], "the model is told what went wrong"
    assert record.passed, explain(record)
    (bad,) = [e for e in record.transcript.tool_results() if e.tool_call_id == "call_bad"]
    assert (bad.is_error, bad.error_kind) == (True, kind)


def test_a_successful_call_resets_the_count_of_consecutive_tool_errors(mini: Suite, agent_model: Any) -> None:
    task = mini.task(SOLVE).model_copy(update={"limits": Limits(max_tool_errors=2)})
    agent_model.script(
        call("add_comment", "{broken"),
        call("get_ticket", {"ticket_id": "T-1"}),
        call("close_ticket", {}),
        call("add_comment", COMMENT),
        *REST_OF_SOLUTION,
    )
    record = run_llm_attempt(mini, task, agent_model)
    assert record.finish_reason == "customer_ended" and record.passed, explain(record)


def test_malformed_json_counts_as_a_tool_error_towards_the_limit(mini: Suite, agent_model: Any) -> None:
    task = mini.task(SOLVE).model_copy(update={"limits": Limits(max_tool_errors=2)})
    agent_model.script(call("add_comment", "{broken"), call("update_ticket", "not json either"))
    record = run_llm_attempt(mini, task, agent_model)
    assert record.finish_reason == "max_tool_errors", explain(record)


@pytest.mark.parametrize("transport", ["direct", "memory"])
@pytest.mark.parametrize(
    "mistake",
    [
        call("close_ticket", {"ticket_id": "T-1"}),
        call("update_ticket", {"ticket": "T-1", "status": "solved"}),
        call("update_ticket", '{"ticket_id": "T-1", "status": '),
    ],
    ids=["unknown-tool", "invalid-arguments", "malformed-json"],
)
def test_an_unrecovered_tool_mistake_signs_the_failed_attempt_tool_usage_on_every_transport(
    mini: Suite, agent_model: Any, mistake: dict[str, Any], transport: str
) -> None:
    agent_model.script(mistake, say("Sorry, I cannot close your ticket right now."))
    via = MemoryTransport() if transport == "memory" else direct_transport
    record = run_llm_attempt(mini, mini.task(SOLVE), agent_model, transport=via)
    assert not record.passed
    assert record.signature == "tool_usage", explain(record)
