"""A custom check's `judge(...)` questions go from the sandbox to statebox over the check's line-JSON
channel and on to the judge model (here a local fake endpoint over real HTTP); without a judge model
the check's verdict is not judged, never an assumed yes; a sandbox that breaks the protocol is an
infrastructure error naming what it did."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from statebox.compat.thinkingbox import TbCheckout
from statebox.compat.thinkingbox.custom_check import CustomCheckInfraError, CustomCheckResult, CustomCheckRunner
from statebox.compat.thinkingbox.custom_check_isolation import Isolation
from statebox.compat.thinkingbox.custom_check_outcome import custom_state_outcome
from statebox.judge.rubrics import RubricJudge
from tbfakes import make_fake_checkout, require_isolation
from tbfakes.endpoint import FakeEndpoint, Scripted, client_for, openai_reply

FILE = "judged.py"
SOURCE = '''# Custom checks that ask the judge.
from thinkingbox.common import Judge, TestContext

"""!
scenario: sandbox_external_retail
"""


def test_confirms(x: TestContext, judge: Judge):
    """!
    query: Cancel my order.
    """
    assert judge.text_yesno(x.response, "Does the reply confirm the cancellation?")


def test_no_repeat(x, judge):
    """!
    query: Hours?
    """
    assert judge.no_repeat(x.response, x.tool_direct_responses)


def test_every_method(x, judge):
    """!
    query: All of them.
    """
    said = judge.text_yesno_with_motivation(x.response, "Polite?")
    assert said["answer"] and isinstance(said["motivation"], str)
    assert judge.compare_yesno("a", "b", "Same?") and judge.yesno("Sky blue?")
    assert judge.evaluate_bool("You grade.", "Grade this.")


def test_fails_first(x, judge):
    """!
    query: Nothing.
    """
    assert x.effects.get("done"), "nothing was done"
    assert judge.yesno("Was it done?")
'''


def judge_says(word: str, seen: list[dict[str, Any]]) -> Any:
    def check(path: str, body: dict[str, Any]) -> Scripted:
        seen.append(body)
        return Scripted(openai_reply(f'{{"answer": "{word}", "reason": "scripted"}}'))

    return check


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> TbCheckout:
    root = tmp_path_factory.mktemp("judged") / "checkout"
    make_fake_checkout(root)
    (root / "dataset/test_case" / FILE).write_text(SOURCE, encoding="utf-8")
    return TbCheckout(root)


@pytest.fixture(scope="module")
def runner() -> CustomCheckRunner:
    return CustomCheckRunner(sys.executable, require_isolation())


def judged(checkout: TbCheckout, runner: CustomCheckRunner, function: str, context: dict[str, Any],
           word: str | None) -> tuple[CustomCheckResult, list[dict[str, Any]]]:  # fmt: skip
    check = checkout.custom_check(f"{FILE}:{function}")
    assert check is not None
    seen: list[dict[str, Any]] = []
    if word is None:
        return asyncio.run(runner.run(check, context, None)), seen
    with FakeEndpoint() as endpoint:
        endpoint.checks.append(judge_says(word, seen))
        judge = RubricJudge(client_for(endpoint))
        result = asyncio.run(runner.run(check, context, judge))
        assert judge.meter.usage.input > 0, "the judge's calls are metered on the rubric judge"
    return result, seen


REPLY = {"response": "Your order is cancelled. <DONE>"}


def test_a_judge_answering_yes_passes_the_check_and_sees_the_agents_reply(
    checkout: TbCheckout, runner: CustomCheckRunner
) -> None:
    result, seen = judged(checkout, runner, "test_confirms", REPLY, "yes")
    assert result.status == "passed", result.describe()
    [body] = seen
    assert "Your order is cancelled. &lt;DONE&gt;" in body["messages"][-1]["content"]
    assert body["messages"][-1]["content"].endswith("Does the reply confirm the cancellation?")
    assert [q.model_dump() for q in result.questions] == [
        {"method": "text_yesno", "args": {"text": REPLY["response"], "question": "Does the reply confirm the "
         "cancellation?"}, "answer": True, "reason": "scripted"}
    ]  # fmt: skip


def test_a_judge_answering_no_fails_the_check_at_its_line(checkout: TbCheckout, runner: CustomCheckRunner) -> None:
    result, _ = judged(checkout, runner, "test_confirms", REPLY, "no")
    assert (result.status, result.questions[0].answer) == ("failed", False), result.describe()
    assert result.message.startswith("AssertionError: assert judge.text_yesno(x.response")


def test_every_judge_method_a_check_may_call_is_answered(checkout: TbCheckout, runner: CustomCheckRunner) -> None:
    result, seen = judged(checkout, runner, "test_every_method", REPLY, "yes")
    assert result.status == "passed", result.describe()
    assert [q.method for q in result.questions] == ["text_yesno", "compare_yesno", "yesno", "evaluate_bool"]
    assert seen[-1]["messages"][0]["content"] == "You grade." and seen[-1]["messages"][1]["content"] == "Grade this."


def test_no_repeat_asks_once_per_direct_response_and_stops_at_a_repeat(
    checkout: TbCheckout, runner: CustomCheckRunner
) -> None:
    context = {"response": "We open at 9.", "tool_direct_responses": ["Open 9-18.", "Closed Sundays."]}
    said_no, seen_no = judged(checkout, runner, "test_no_repeat", context, "no")
    said_yes, seen_yes = judged(checkout, runner, "test_no_repeat", context, "yes")
    assert (said_no.status, len(seen_no)) == ("passed", 2)
    assert (said_yes.status, len(seen_yes)) == ("failed", 1)


def test_without_a_judge_model_the_verdict_is_not_judged_and_counts_the_questions(
    checkout: TbCheckout, runner: CustomCheckRunner
) -> None:
    result, _ = judged(checkout, runner, "test_every_method", REPLY, None)
    assert (result.status, result.unjudged()) == ("not_judged", 4)
    outcome = custom_state_outcome(result, {})
    assert outcome.verdict.passed is False
    assert outcome.not_judged == ["judge: not_judged: 4 judge(...) questions and no judge model (--judge-model)"]


def test_a_check_failing_before_any_question_is_judged_without_a_model(
    checkout: TbCheckout, runner: CustomCheckRunner
) -> None:
    result, _ = judged(checkout, runner, "test_fails_first", {}, None)
    assert (result.status, result.message) == ("failed", "AssertionError: nothing was done")
    assert custom_state_outcome(result, {}).not_judged == []


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ('{"kind": "verdict", "status": "passed", "extra": 1}', "a malformed line (Extra inputs are not permitted)"),
        ('{"kind": "question", "id": 1, "method": "rm_rf", "args": {}}', "a malformed line (Input should be "),
        ('{"kind": "question", "id": 1, "method": "yesno", "args": {"question": "?"}}',
         "a judge question although it has no judge model"),
    ],
)
def test_a_sandbox_that_breaks_the_protocol_is_an_infrastructure_error(
    checkout: TbCheckout, tmp_path: Path, line: str, said: str
) -> None:
    fake = tmp_path / "python"  # stands in for the servers' Python: reads the request, answers one line
    fake.write_text(f"#!/bin/sh\nread request\necho '{line}'\n")
    fake.chmod(0o755)
    check = checkout.custom_check(f"{FILE}:test_confirms")
    assert check is not None
    with pytest.raises(CustomCheckInfraError) as caught:
        asyncio.run(CustomCheckRunner(str(fake), Isolation("unsafe")).run(check, REPLY, None))
    assert str(caught.value).startswith(f"{FILE}:test_confirms: custom check sandbox broke its protocol: {said}")


def test_the_trial_records_which_mode_judged_the_check(checkout: TbCheckout) -> None:
    check = checkout.custom_check(f"{FILE}:test_fails_first")
    assert check is not None
    unsafe = asyncio.run(CustomCheckRunner(sys.executable, Isolation("unsafe")).run(check, {}, None))
    effects = custom_state_outcome(unsafe, {}).effects["custom_check"]
    assert (effects["sandbox"], effects["status"]) == ("unsafe", "failed")


def test_statebox_stops_a_sandbox_asking_more_questions_than_a_check_may(checkout: TbCheckout, tmp_path: Path) -> None:
    fake = tmp_path / "python"  # writes question lines itself, past the sandbox's own count
    question = '{"kind": "question", "id": 1, "method": "yesno", "args": {"question": "?"}}'
    fake.write_text(f"#!/bin/sh\nread request\nfor i in $(seq 60); do echo '{question}'; done\nsleep 30\n")
    fake.chmod(0o755)
    check = checkout.custom_check(f"{FILE}:test_confirms")
    assert check is not None
    seen: list[dict[str, Any]] = []
    with FakeEndpoint() as endpoint, pytest.raises(CustomCheckInfraError) as caught:
        endpoint.checks.append(judge_says("yes", seen))
        runner = CustomCheckRunner(str(fake), Isolation("unsafe"))
        asyncio.run(runner.run(check, REPLY, RubricJudge(client_for(endpoint))))
    assert str(caught.value).endswith("broke its protocol: more than 50 judge questions")
    assert len(seen) == 50
