"""Rubrics on built-in suites see everything the agent told the customer; a benchmark's own rule sees the last reply."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from conversation_kit import FakeEndpoint, Scripted, client_for, openai_reply

from statebox.agents.transcript import Entry, Transcript
from statebox.judge.rubrics import RubricJudge
from statebox.tasks.model import Rubric

DISCLOSURE = "the $25 restocking fee"
CONVERSATION = Transcript(entries=[
    Entry(role="customer", content="Can I return the camera?"),
    Entry(role="agent", content=f"Yes, minus {DISCLOSURE}. I have emailed you the label."),
    Entry(role="customer", content="Can you waive the fee as an exception?"),
    Entry(role="agent", content="Sorry, no exception."),
])
QUESTION = "Did the agent tell the customer about the restocking fee?"


def _judge_sees_the_disclosure(path: str, body: dict[str, Any]) -> Scripted:
    """A judge model that answers yes exactly when the text it is shown contains the disclosure."""
    shown = body["messages"][-1]["content"]
    answer = "yes" if DISCLOSURE in shown else "no"
    return Scripted(openai_reply(f'{{"answer": "{answer}", "reason": "scripted"}}'))


@pytest.fixture
def endpoint() -> Any:
    with FakeEndpoint() as server:
        server.checks.append(_judge_sees_the_disclosure)
        yield server


def judged(endpoint: Any, rubric: Rubric, default: str) -> str:
    judge = RubricJudge(client_for(endpoint))
    [result] = asyncio.run(judge.judge([rubric], CONVERSATION, default))  # type: ignore[arg-type]
    return result.answer


def test_a_disclosure_made_early_passes_though_the_last_reply_is_a_short_refusal(endpoint: Any) -> None:
    assert judged(endpoint, Rubric(question=QUESTION), "conversation") == "yes"


def test_a_suite_judging_the_final_reply_sees_only_the_refusal(endpoint: Any) -> None:
    assert judged(endpoint, Rubric(question=QUESTION), "final_reply") == "no"


def test_a_rubric_narrowed_to_the_final_reply_is_judged_there_on_any_suite(endpoint: Any) -> None:
    assert judged(endpoint, Rubric(question=QUESTION, judged_on="final_reply"), "conversation") == "no"


def test_the_thinkingbox_suite_keeps_its_final_message_rule() -> None:
    from statebox.compat.thinkingbox.suite import TbSuite
    from statebox.suites import load_suite

    assert load_suite("retail").rubrics_on == "conversation"
    assert TbSuite.rubrics_on == "final_reply"


def test_a_rubric_narrowed_in_yaml_keeps_its_scope() -> None:
    import yaml

    from statebox.tasks import Task

    doc = yaml.safe_load("""
id: t
domain: d
opening_message: hi
customer: {goal: g}
rubrics:
  - Did the agent greet the customer?
  - {question: "Did the final reply state the amount?", judged_on: final_reply}
""")
    task = Task.model_validate(doc)
    assert [r.judged_on for r in task.rubric_questions()] == [None, "final_reply"]
