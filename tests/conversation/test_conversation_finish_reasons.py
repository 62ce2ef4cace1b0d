"""Every way a trial can end, each recorded as its finish reason (transcript.FINISH_REASONS).

The LLM agent plays replies queued on a scripted model endpoint (real HTTP); the tasks are the
mini helpdesk's. A failing endpoint or tool server never ends a trial: it makes an errors.jsonl
entry instead (test_conversation_infra_errors.py).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from conversation_kit import Scripted, call, explain, run_llm_attempt, run_plan, say
from pydantic import TypeAdapter, ValidationError

from statebox.agents.scripted import NoopAgent, ReferenceAgent
from statebox.agents.transcript import FINISH_REASONS
from statebox.runner.record import FinishReason
from statebox.suites import Suite
from statebox.tasks import Limits, Task

SOLVE = "solve-printer-ticket"
STATUS = "check-status"
CLOSED = "Your ticket T-1 is closed and a confirmation email is on its way."


def solve_printer_replies() -> list[dict[str, Any]]:
    """A competent agent: asks for the ticket number, makes the reference calls, says it is done."""
    return [
        say("Could you tell me your ticket number?"),
        call("get_ticket", {"ticket_id": "T-1"}),
        call("add_comment", {"ticket_id": "T-1", "body": "The customer says the printer works again."}),
        call("update_ticket", {"ticket_id": "T-1", "status": "solved"}),
        call("send_email", {"customer_id": "CU-1", "template": "ticket_solved", "ticket_id": "T-1"}),
        say(CLOSED),
    ]


def with_limits(task: Task, **limits: int) -> Task:
    return task.model_copy(update={"limits": Limits(**limits)})


def test_the_scripted_customer_ends_a_solved_conversation_as_satisfied(mini: Suite, agent_model: Any) -> None:
    agent_model.script(*solve_printer_replies())
    record = run_llm_attempt(mini, mini.task(SOLVE), agent_model)
    assert record.passed, explain(record)
    assert (record.finish_reason, record.customer_end_reason) == ("customer_ended", "satisfied")
    assert record.transcript.entries[-1].role == "customer"


@pytest.mark.parametrize("reason", ["satisfied", "gave_up", "transferred"])
def test_the_llm_customer_ends_through_the_end_conversation_tool_with_its_reason(
    mini: Suite, agent_model: Any, customer_model: Any, reason: str
) -> None:
    agent_model.script(call("get_ticket", {"ticket_id": "T-2"}), say("Your login ticket is pending."))
    customer_model.script(call("end_conversation", {"reason": reason}))
    record = run_llm_attempt(mini, mini.task(STATUS), agent_model, user="llm", user_endpoint=customer_model)
    assert (record.finish_reason, record.customer_end_reason) == ("customer_ended", reason)
    (request,) = customer_model.bodies()
    assert [t["function"]["name"] for t in request["tools"]] == ["end_conversation"]


def test_a_customer_message_that_only_says_goodbye_does_not_end_the_conversation(
    mini: Suite, agent_model: Any, customer_model: Any
) -> None:
    agent_model.script(say("Your login ticket is pending."), say("Is there anything else?"))
    customer_model.script(say("Thanks, goodbye!"), call("end_conversation", {"reason": "satisfied"}))
    record = run_llm_attempt(mini, mini.task(STATUS), agent_model, user="llm", user_endpoint=customer_model)
    assert record.finish_reason == "customer_ended"
    assert len(customer_model.bodies()) == 2, "the goodbye in text was not taken as the end"


def test_the_reference_agent_ends_the_attempt_itself_and_passes(mini: Suite) -> None:
    task = mini.task(SOLVE)
    record = asyncio.run(run_plan(mini, task, ReferenceAgent(task.reference), None))
    assert (record.finish_reason, record.passed) == ("agent_ended", True), explain(record)


def test_the_noop_agent_ends_the_attempt_after_one_reply_and_fails(mini: Suite) -> None:
    record = asyncio.run(run_plan(mini, mini.task(SOLVE), NoopAgent(), None))
    assert (record.finish_reason, record.passed) == ("agent_ended", False)
    assert [e.role for e in record.transcript.entries] == ["customer", "agent"]


def test_an_llm_agent_without_a_customer_ends_after_its_first_reply(mini: Suite, agent_model: Any) -> None:
    agent_model.script(call("get_ticket", {"ticket_id": "T-2"}), say("Your login ticket is pending."))
    record = run_llm_attempt(mini, mini.task(STATUS), agent_model, user=None)
    assert (record.finish_reason, record.passed) == ("agent_ended", True), explain(record)


def test_a_conversation_that_never_ends_stops_at_max_turns(mini: Suite, agent_model: Any) -> None:
    agent_model.script(*[say("What is your ticket number?")] * 3)
    record = run_llm_attempt(mini, with_limits(mini.task(STATUS), max_turns=2), agent_model)
    assert record.finish_reason == "max_turns", explain(record)
    assert record.customer_end_reason is None
    assert len(agent_model.bodies()) == 2


def test_a_turn_of_endless_tool_calls_stops_at_max_steps(mini: Suite, agent_model: Any) -> None:
    agent_model.script(*[call("get_ticket", {"ticket_id": "T-2"})] * 5)
    record = run_llm_attempt(mini, with_limits(mini.task(STATUS), max_steps_per_turn=3), agent_model)
    assert record.finish_reason == "max_steps", explain(record)
    assert len(agent_model.bodies()) == 3
    assert len(record.transcript.tool_results()) == 3


def test_consecutive_tool_errors_stop_at_max_tool_errors(mini: Suite, agent_model: Any) -> None:
    agent_model.script(*[call("close_everything", {})] * 4)
    record = run_llm_attempt(mini, with_limits(mini.task(SOLVE), max_tool_errors=2), agent_model)
    assert record.finish_reason == "max_tool_errors", explain(record)
    assert record.signature == "tool_usage"
    assert len(record.transcript.tool_results()) == 2


def test_the_attempts_wall_clock_budget_ends_it_with_time_budget(mini: Suite, agent_model: Any) -> None:
    # The first model call outlasts the budget many times over, so the budget, not the endpoint, ends the attempt
    # whatever the machine's load: exactly one request was made and none after it.
    slow = call("get_ticket", {"ticket_id": "T-2"})
    agent_model.script(*[Scripted(slow, delay=1.8)] * 3)
    record = run_llm_attempt(mini, mini.task(STATUS), agent_model, time_budget_s=0.3)
    assert record.finish_reason == "time_budget", explain(record)
    assert len(agent_model.bodies()) == 1, agent_model.bodies()


@pytest.mark.parametrize("reason", FINISH_REASONS)
def test_every_way_a_transcript_ends_is_a_finish_reason_a_record_accepts(reason: str) -> None:
    assert TypeAdapter(FinishReason).validate_python(reason) == reason


def test_a_record_refuses_a_finish_reason_no_transcript_can_end_with() -> None:
    with pytest.raises(ValidationError):
        TypeAdapter(FinishReason).validate_python("gave_up")
