"""The simulated customer sees the visible conversation only; the agent sees its tool traffic.

Both are checked on what the scripted endpoints received over HTTP, not on statebox's own objects.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conversation_kit import call, run_llm_attempt, say

from statebox.runner.record import TrialRecord
from statebox.suites import Suite

CALL_ID = "call_secret_4711"
PENDING = "Your login ticket is pending; we are on it."
WHICH = "Which ticket is that?"
ANSWER = "The one you opened in April."


@pytest.fixture
def record(mini: Suite, agent_model: Any, customer_model: Any) -> TrialRecord:
    """check-status with a tool call, two agent replies, and an LLM customer who asks back, then ends."""
    agent_model.script(call("get_ticket", {"ticket_id": "T-2"}, call_id=CALL_ID), say(PENDING), say(ANSWER))
    customer_model.script(say(WHICH), call("end_conversation", {"reason": "satisfied"}))
    return run_llm_attempt(mini, mini.task("check-status"), agent_model, user="llm", user_endpoint=customer_model)


def tool_result_text(record: TrialRecord) -> str:
    (result,) = record.transcript.tool_results()
    return result.content


def test_the_customers_requests_hold_no_tool_names_results_or_call_ids(
    record: TrialRecord, customer_model: Any
) -> None:
    requests = customer_model.bodies()
    assert len(requests) == 2
    result = tool_result_text(record)
    for request in requests:
        assert {m["role"] for m in request["messages"]} <= {"system", "user", "assistant"}
        assert not any("tool_calls" in m or "tool_call_id" in m for m in request["messages"])
        assert [t["function"]["name"] for t in request["tools"]] == ["end_conversation"]
        conversation = json.dumps(request["messages"][1:])
        for secret in ("get_ticket", CALL_ID, result, '"priority"', "C-2"):
            assert secret not in conversation, f"the customer saw {secret!r}"


def test_the_customer_sees_the_agents_text_replies_as_the_other_party(record: TrialRecord, customer_model: Any) -> None:
    first, second = customer_model.bodies()
    assert first["messages"][0]["role"] == "system"
    assert "GOAL:" in first["messages"][0]["content"]
    assert first["messages"][1] == {"role": "assistant", "content": "What is the status of my login problem?"}
    assert {"role": "user", "content": PENDING} in first["messages"]
    assert {"role": "assistant", "content": WHICH} in second["messages"]
    assert second["messages"][-1] == {"role": "user", "content": ANSWER}


def test_the_agents_requests_do_hold_its_tool_calls_and_results(record: TrialRecord, agent_model: Any) -> None:
    after_call = agent_model.bodies()[1]
    assert "get_ticket" in [t["function"]["name"] for t in after_call["tools"]]
    (assistant,) = [m for m in after_call["messages"] if m.get("tool_calls")]
    assert assistant["tool_calls"][0]["id"] == CALL_ID
    (tool,) = [m for m in after_call["messages"] if m["role"] == "tool"]
    assert (tool["tool_call_id"], tool["content"]) == (CALL_ID, tool_result_text(record))


def test_each_agent_reply_is_in_the_transcript_and_shown_to_the_customer_once(
    record: TrialRecord, customer_model: Any
) -> None:
    agent_texts = [e.content for e in record.transcript.entries if e.role == "agent" and e.content]
    assert agent_texts == [PENDING, ANSWER]
    second = customer_model.bodies()[1]
    assert [m["content"] for m in second["messages"][1:]] == [
        "What is the status of my login problem?",
        PENDING,
        WHICH,
        ANSWER,
    ]
