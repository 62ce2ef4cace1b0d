"""Rubric questions: a judge model answers yes/no on the final reply; an attempt passes only if the
state and every rubric pass."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.judge.rubrics import parse_answer
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig
from statebox.runner.record import TrialRecord
from statebox.suites import load_suite

TASK = "headphones_return_window_closed_silver"  # a retail task with a rubric question


def _run(tmp_path: Path, judge_answer: str) -> TrialRecord:
    suite = load_suite("retail").select([TASK])
    assert suite.tasks[0].rubrics, "the chosen task must have rubric questions"
    app = FakeModelApp(suite, FakeModelConfig(mode="reference", judge_answer=judge_answer))  # type: ignore[arg-type]
    with FakeModelServer(app) as server:
        config = CampaignConfig(
            suite=suite,
            agent="llm",
            out=tmp_path / judge_answer,
            models=["openai:fake"],
            base_url=server.base_url,
            user="scripted",
            progress=False,
        )
        asyncio.run(Campaign(config).run())
    [line] = (tmp_path / judge_answer / "trials.jsonl").read_text().splitlines()
    return TrialRecord.model_validate_json(line)


def test_a_rubric_judged_yes_lets_a_right_end_state_pass(tmp_path: Path) -> None:
    record = _run(tmp_path, "yes")
    assert (record.state_passed, record.passed) == (True, True), record.discrepancies
    assert [(r.answer, r.passed) for r in record.rubrics] == [("yes", True)] * len(record.rubrics)
    assert all(r.reason for r in record.rubrics), "the judge's reason is kept"


def test_a_rubric_judged_no_fails_the_attempt_though_the_state_is_right(tmp_path: Path) -> None:
    record = _run(tmp_path, "no")
    assert (record.state_passed, record.passed) == (True, False)
    assert [r.answer for r in record.rubrics] == ["no"] * len(record.rubrics)
    assert record.signature == "incomplete_resolution"
    assert record.usage["judge"].input > 0, "the judge's usage is recorded under its own role"


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ('{"answer": "yes", "reason": "it says so"}', "yes"),
        ('Sure. {"answer": "No", "reason": "missing"}', "no"),
        ("Yes, the reply mentions the refund.", "yes"),
        ("I cannot tell.", "no"),
    ],
)
def test_judge_answers_are_read_strictly_and_anything_unreadable_is_no(text: str, answer: str) -> None:
    assert parse_answer(text)[0] == answer
