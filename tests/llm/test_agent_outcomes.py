"""What the agent's conversation became is a trial, not an infrastructure error: a context that
overflowed and a time budget that ran out (also in the middle of a model call)."""

from __future__ import annotations

import time

import pytest

from statebox.llm import RetryPolicy

from .agent_kit import run_agent
from .fake_endpoints import FakeEndpoint, Scripted, anthropic_reply, openai_reply
from .test_error_kinds import ANTHROPIC_OVERFLOW, OPENAI_OVERFLOW


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_context_overflow_ends_the_attempt_as_a_trial(endpoint: FakeEndpoint, fast_retry: RetryPolicy, provider: str):
    if provider == "openai":
        first = openai_reply(
            None, tool_calls=[("c1", "get_ticket", '{"ticket_id": "T-2"}')], finish_reason="tool_calls"
        )
        overflow = OPENAI_OVERFLOW
    else:
        first = anthropic_reply("", tool_uses=[("c1", "get_ticket", {"ticket_id": "T-2"})], stop_reason="tool_use")
        overflow = ANTHROPIC_OVERFLOW
    endpoint.script(first, Scripted(overflow, status=400))

    record = run_agent(endpoint, provider, fast_retry)

    assert record.finish_reason == "context_overflow"  # judged on the state it left, like any trial
    assert len(endpoint.requests) == 2, "a context overflow is not retried"
    assert [e.tool_name for e in record.transcript.tool_results()] == ["get_ticket"]


def test_the_time_budget_running_out_in_a_model_call_ends_the_attempt_as_a_trial(
    endpoint: FakeEndpoint, fast_retry: RetryPolicy
):
    endpoint.script(
        openai_reply(None, tool_calls=[("c1", "get_ticket", '{"ticket_id": "T-2"}')], finish_reason="tool_calls"),
        Scripted(openai_reply("too late"), delay=1.5),  # within the 2 s request timeout, beyond the budget
    )
    started = time.monotonic()

    record = run_agent(endpoint, "openai", fast_retry, time_budget_s=0.5)

    assert record.finish_reason == "time_budget"
    assert time.monotonic() - started < 1.4, "the model call was not cut off at the budget"
    assert [e.tool_name for e in record.transcript.tool_results()] == ["get_ticket"]
