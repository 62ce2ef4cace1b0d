"""The fake model only knows a private fact from the customer's answer: withheld facts fail the task.

The fake model server plays the retail suite in reference mode; the customer has the task's goal
but none of its facts, so every question for a fact goes unanswered.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conversation_kit import explain, run_llm_attempt

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.fakemodel.agent import NO_FACTS
from statebox.suites import Suite
from statebox.tasks import Task

# A task none of whose writes a verify_before check guards: the tasks without facts below are judged
# without them too, and no customer could establish identity there.
TASK = "account_taken_over_cancel_request_security_handoff"


@pytest.fixture(scope="module")
def fake_model(retail: Suite) -> Iterator[FakeModelServer]:
    with FakeModelServer(FakeModelApp(retail, FakeModelConfig(mode="reference"))) as server:
        yield server


def without_facts(task: Task) -> Task:
    return task.model_copy(update={"customer": task.customer.model_copy(update={"facts": []})})


def written_values(record: Any) -> str:
    return " ".join(c.raw_arguments or "" for e in record.transcript.entries for c in e.tool_calls)


def test_with_its_facts_the_fake_model_passes_the_task(retail: Suite, fake_model: FakeModelServer) -> None:
    record = run_llm_attempt(retail, retail.task(TASK), fake_model.base_url)
    assert record.passed, explain(record)


def test_a_scripted_customer_without_the_facts_makes_the_fake_model_give_up(
    retail: Suite, fake_model: FakeModelServer
) -> None:
    task = retail.task(TASK)
    record = run_llm_attempt(retail, without_facts(task), fake_model.base_url)
    assert not record.passed
    assert record.signature == "no_state_change", explain(record)
    said = [e.content for e in record.transcript.visible()]
    assert "I don't have that information." in said
    assert NO_FACTS in said
    for fact in task.customer.facts:
        assert fact.value not in written_values(record), f"the fake model used {fact.key} it was never given"


def test_the_fake_plays_the_llm_customer_from_the_suite_not_from_the_prompt(
    retail: Suite, fake_model: FakeModelServer
) -> None:
    """An LLM customer whose prompt holds no facts still answers with the task's facts: the fake reads none of it."""
    task = retail.task(TASK)
    record = run_llm_attempt(
        retail, without_facts(task), fake_model.base_url, user="llm", user_endpoint=fake_model.base_url
    )
    assert record.passed, explain(record)
    said = " ".join(e.content for e in record.transcript.visible() if e.role == "customer")
    assert any(f.value in said for f in task.customer.facts), said
