"""Inspect's model roles: `customer` plays statebox's LLM customer, `judge` answers the rubric questions.

Each role is its own fake model server, so what each server received shows which model Inspect asked
for which role (the fake tells roles apart by the `x-statebox-role` header every statebox call sends).
The verdicts are compared with a `statebox run --user llm --judge-model ...` of the same play.
"""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, Model, get_model

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.integrations.inspect_task import TRIAL_KEY, statebox_task
from statebox.runner.judging import NO_JUDGE_MODEL, RUBRICS_NOT_JUDGED, verdict_of_record
from statebox.runner.record import TrialRecord
from statebox.suites import Suite, load_suite

RUBRIC_TASK = "defective_earbuds_return_refund_after_receipt_standard"  # asks the judge model
PLAIN_TASK = "cancel_desk_wrong_order_number"
TASKS = [RUBRIC_TASK, PLAIN_TASK]
ROLES = ("agent", "customer", "judge")


@pytest.fixture(scope="module")
def retail() -> Suite:
    suite = load_suite("retail")
    assert suite.task(RUBRIC_TASK).asks_judge_model() and not suite.task(PLAIN_TASK).rubrics
    return suite


def _evaluate(suite: Suite, log_dir: Path, roles: tuple[str, ...]) -> tuple[EvalLog, dict[str, dict[str, Any]]]:
    """One eval of TASKS, the agent and each of `roles` on a fake server of its own; what each server saw."""
    with ExitStack() as stack:
        servers = {r: stack.enter_context(FakeModelServer(FakeModelApp(suite, FakeModelConfig(mode="reference"))))
                   for r in ("agent", *roles)}  # fmt: skip
        models: dict[str, Model] = {
            r: get_model(f"openai-api/fake/fake-{r}", base_url=s.base_url, api_key="unused") for r, s in servers.items()
        }
        model_roles = {r: m for r, m in models.items() if r != "agent"}
        (log,) = inspect_eval(
            statebox_task(suite, TASKS), model=models["agent"], model_roles=model_roles or None,
            display="none", log_dir=str(log_dir),
        )  # fmt: skip
        seen = {r: s.app.stats.as_dict() for r, s in servers.items()}
    assert log.status == "success", log.error
    return log, seen


def _verdicts(log: EvalLog) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for sample in log.samples or []:
        assert sample.scores is not None
        found[str(sample.id)] = dict(sample.scores["statebox_judge"].metadata or {})
    return found


@pytest.fixture(scope="module")
def customer_and_judge(retail: Suite, tmp_path_factory: pytest.TempPathFactory) -> tuple[EvalLog, dict[str, Any]]:
    """The eval with both roles, which two tests read (one eval: the fake models play it the same every time)."""
    return _evaluate(retail, tmp_path_factory.mktemp("roles"), ("customer", "judge"))


def test_the_customer_role_plays_the_llm_customer_and_the_judge_role_answers_the_rubrics(
    retail: Suite, customer_and_judge: tuple[EvalLog, dict[str, Any]]
) -> None:
    log, seen = customer_and_judge
    by_role = {r: seen[r]["by_role"] for r in seen}
    assert set(by_role["agent"]) == {"agent"}, by_role
    assert set(by_role["customer"]) == {"customer"} and by_role["customer"]["customer"] >= len(TASKS), by_role
    assert set(by_role["judge"]) == {"judge"}, by_role
    verdicts = _verdicts(log)
    assert {sid: m["customer_end_reason"] for sid, m in verdicts.items()} == dict.fromkeys(TASKS, "satisfied")
    rubrics = verdicts[RUBRIC_TASK]["verdict"]["rubrics"]
    questions = retail.task(RUBRIC_TASK).rubric_questions()
    assert rubrics["status"] == "judged" and len(rubrics["results"]) == len(questions), rubrics
    assert by_role["judge"]["judge"] >= 1
    assert not [line for line in verdicts[RUBRIC_TASK]["verdict"]["not_judged"] if line.startswith(RUBRICS_NOT_JUDGED)]
    assert verdicts[PLAIN_TASK]["verdict"]["rubrics"]["status"] == "no_rubrics"
    assert all(m["passed"] for m in verdicts.values()), verdicts


def test_the_sample_messages_hold_the_customer_models_turns(retail: Suite, tmp_path: Path) -> None:
    log, seen = _evaluate(retail, tmp_path, ("customer",))
    answered = 0
    for sample in log.samples or []:
        said = [m.text for m in sample.messages if m.role == "user"]
        assert len(said) >= 2, said  # the opening message, then the customer model's answers
        entries = sample.store[TRIAL_KEY]["transcript"]["entries"]
        assert said == [e["content"] for e in entries if e["role"] == "customer"]
        answered += len(said)  # each answer after the opening was one request, and the ending (a tool call) one more
    assert seen["customer"]["by_role"] == {"customer": answered}, seen["customer"]


def test_without_roles_the_customer_is_scripted_and_rubrics_are_not_judged_saying_why(
    retail: Suite, tmp_path: Path
) -> None:
    log, seen = _evaluate(retail, tmp_path, ())
    assert set(seen["agent"]["by_role"]) == {"agent"}
    verdict = _verdicts(log)[RUBRIC_TASK]["verdict"]
    assert verdict["rubrics"] == {"status": "not_judged", "reason": NO_JUDGE_MODEL, "results": []}
    assert RUBRICS_NOT_JUDGED + NO_JUDGE_MODEL in verdict["not_judged"]


def test_the_verdicts_are_the_ones_statebox_run_gives_with_an_llm_customer_and_a_judge(
    retail: Suite, customer_and_judge: tuple[EvalLog, dict[str, Any]], tmp_path: Path
) -> None:
    log, _ = customer_and_judge
    inspect_documents = {sid: m["verdict"] for sid, m in _verdicts(log).items()}
    out = tmp_path / "run"
    with FakeModelServer(FakeModelApp(retail, FakeModelConfig(mode="reference"))) as server:
        command = [str(Path(sys.executable).with_name("statebox")), "run", "retail", "--agent", "llm",
                   "--model", "openai:fake-agent", "--user", "llm", "--user-model", "openai:fake-customer",
                   "--judge-model", "openai:fake-judge", "--base-url", server.base_url, "--out", str(out),
                   "--no-progress", *[a for t in TASKS for a in ("--tasks", t)]]  # fmt: skip
        done = subprocess.run(command, env={**os.environ, "OPENAI_API_KEY": "unused"}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    trials = [TrialRecord.model_validate_json(line) for line in (out / "trials.jsonl").read_text().splitlines()]
    run_documents = {t.task_id: verdict_of_record(t).model_dump(mode="json") for t in trials}
    assert inspect_documents == run_documents


class HeaderLog(FakeModelApp):
    """The fake model, noting the headers of every chat request."""

    def __init__(self, suite: Suite) -> None:
        super().__init__(suite, FakeModelConfig(mode="reference"))
        self.headers: list[dict[str, str]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].endswith("/chat/completions"):
            self.headers.append({k.decode(): v.decode() for k, v in scope["headers"]})
        await super().__call__(scope, receive, send)


def test_the_role_header_goes_out_beside_the_headers_the_model_and_the_eval_configure(
    retail: Suite, tmp_path: Path
) -> None:
    with FakeModelServer(HeaderLog(retail)) as agent, FakeModelServer(HeaderLog(retail)) as customer:
        model = get_model("openai-api/fake/agent", base_url=agent.base_url, api_key="unused",
                          config=GenerateConfig(extra_headers={"x-team": "from-the-model"}))  # fmt: skip
        role = get_model("openai-api/fake/customer", base_url=customer.base_url, api_key="unused",
                         config=GenerateConfig(extra_headers={"x-team": "from-the-role"}))  # fmt: skip
        (log,) = inspect_eval(
            statebox_task(retail, [PLAIN_TASK]), model=model, model_roles={"customer": role},
            extra_headers={"x-eval": "from-the-eval"}, display="none", log_dir=str(tmp_path),
        )  # fmt: skip
    assert log.status == "success", log.error
    assert agent.app.headers and customer.app.headers
    sent = {(h["x-statebox-role"], h.get("x-team"), h.get("x-eval")) for h in agent.app.headers + customer.app.headers}
    assert sent == {("agent", "from-the-model", "from-the-eval"), ("customer", "from-the-role", None)}
