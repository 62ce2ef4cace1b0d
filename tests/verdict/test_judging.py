"""The one judging function (runner/judging.py): what it judges, and what it says it could not.

An external agent's attempt over a hosted surface (a `BackendAttempt`, as `serve`, the proxy and OpenEnv hold
it) that replays the reference without a word to the customer: its verdict document fails on the trace checks
with the end state right, says its rubric was not judged (no judge model), and reads back unchanged from the
trial-record fields it fills.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from statebox.runner.hosted_suite import BackendAttempt, SuiteHost
from statebox.runner.judging import NO_JUDGE_MODEL, VerdictDocument, record_fields, verdict_of_record
from statebox.runner.record import TrialRecord
from statebox.suites import load_suite
from statebox.tasks import Task
from statebox.tasks.references import resolve

TASK = "defective_earbuds_return_refund_after_receipt_standard"  # its writes need verify_before; one rubric


@pytest.fixture(scope="module")
def unverified() -> tuple[Task, dict[str, Any]]:
    """The hosted attempt's result after the reference's calls, nothing said to the customer."""
    suite = load_suite("retail").select([TASK])
    host = SuiteHost(suite)
    task = suite.task(TASK)

    async def play() -> dict[str, Any]:
        await host.start()
        attempt = await BackendAttempt(suite.name, task, host.backend(task), None).open()
        try:
            saved: dict[str, Any] = {}
            for call in task.reference:
                outcome = await attempt.surface.call_tool(call.tool, resolve(call.args, saved))
                assert not outcome.is_error, f"{call.tool}: {outcome.text}"
                if call.save_as:
                    saved[call.save_as] = outcome.data if outcome.data is not None else json.loads(outcome.text)
            return await attempt.result()
        finally:
            await attempt.close()
            await host.aclose()

    return task, asyncio.run(play())


def test_the_trace_checks_run_on_an_attempt_with_no_conversation(unverified: tuple[Task, dict[str, Any]]) -> None:
    _, result = unverified
    verdict = result["verdict"]
    checks = sorted({d["check"].split("(")[0] for d in verdict["discrepancies"] if d["kind"] == "policy_violation"})
    assert (verdict["state_passed"], verdict["passed"], verdict["signature"]) == (True, False, "policy_violation")
    assert checks == ["verify_before"], verdict["discrepancies"]


def test_rubrics_without_a_judge_model_are_not_judged_and_it_says_so(unverified: tuple[Task, dict[str, Any]]) -> None:
    _, result = unverified
    verdict = result["verdict"]
    assert verdict["rubrics"] == {"status": "not_judged", "reason": NO_JUDGE_MODEL, "results": []}
    assert verdict["not_judged"] == [f"rubrics: not_judged: {NO_JUDGE_MODEL}"]


def test_the_trial_record_carries_the_document_unchanged(unverified: tuple[Task, dict[str, Any]]) -> None:
    task, result = unverified
    document = VerdictDocument.model_validate(result["verdict"])
    record = TrialRecord(
        trial_id="retail/x/external/-/0", suite="retail", task_id=task.id, domain="retail", agent="external",
        model=None, user=None, repeat=0, seed=0, finish_reason=None, **record_fields(document),
    )  # fmt: skip
    assert verdict_of_record(record, task) == document
    assert verdict_of_record(record) == document  # a record of this statebox says itself that rubrics went unjudged
