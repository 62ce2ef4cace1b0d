"""What is an infrastructure error (errors.jsonl, retried by --resume) and what is the agent's outcome (a trial).

architecture.md: the endpoint failing after bounded retries is infrastructure; malformed tool-call
JSON, an unknown tool, invalid arguments or an empty reply from the model are the agent's doing.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from conversation_kit import Scripted, call, fail, openai_reply, run_llm_attempt, say

from statebox.llm import InfrastructureError, RetryPolicy
from statebox.runner.campaign import Campaign, CampaignResult, classify
from statebox.runner.plan import CampaignConfig
from statebox.runner.store import RunDir
from statebox.suites import Suite

ATTEMPTS_PER_CALL = 6  # the campaign's clients: one request and five retries


def campaign(suite: Suite, endpoint: Any, out: Path, **options: Any) -> Campaign:
    config = CampaignConfig(
        suite=suite.select(["check-status"]),
        agent="llm",
        out=out,
        models=["openai:scripted"],
        base_url=endpoint.openai_url,
        user="scripted",
        concurrency=1,
        progress=False,
        **options,
    )
    return Campaign(config)


def run(c: Campaign) -> CampaignResult:
    return asyncio.run(c.run())


@pytest.mark.parametrize("status", [500, 503, 429])
def test_an_endpoint_that_keeps_failing_makes_error_records_not_trials(
    mini: Suite, agent_model: Any, tmp_path: Path, status: int
) -> None:
    # Retry-After: 0 keeps the campaign's real retry budget (5 retries) without its backoff waits.
    agent_model.script(*[fail(status, headers={"retry-after": "0"})] * (2 * ATTEMPTS_PER_CALL))
    c = campaign(mini, agent_model, tmp_path / "run", repeat=2, tools_via="direct")
    result = run(c)

    assert (result.ran, result.errors) == (0, 2)
    assert c.run_dir.trials() == []
    errors = c.run_dir.errors()
    assert [e.kind for e in errors] == ["model_endpoint", "model_endpoint"]
    assert {e.trial_id for e in errors} == {f"mini/check-status/llm/openai:scripted/{r}" for r in (0, 1)}
    assert f"HTTP {status} after {ATTEMPTS_PER_CALL} attempts" in errors[0].message
    assert len(agent_model.bodies()) == 2 * ATTEMPTS_PER_CALL


@pytest.mark.parametrize("tools_via", ["memory", "http"])
def test_a_failing_endpoint_is_a_model_endpoint_error_whichever_way_the_tools_are_reached(
    mini: Suite, agent_model: Any, tmp_path: Path, tools_via: str
) -> None:
    agent_model.script(*[fail(500, headers={"retry-after": "0"})] * ATTEMPTS_PER_CALL)
    c = campaign(mini, agent_model, tmp_path / "run", tools_via=tools_via)
    run(c)
    assert [(e.kind, e.message.split(":")[0]) for e in c.run_dir.errors()] == [("model_endpoint", "openai")]


def test_resume_retries_the_infrastructure_errors_once_the_endpoint_is_back(
    mini: Suite, agent_model: Any, tmp_path: Path
) -> None:
    agent_model.script(*[fail(500, headers={"retry-after": "0"})] * ATTEMPTS_PER_CALL)
    run(campaign(mini, agent_model, tmp_path / "run"))
    agent_model.script(call("get_ticket", {"ticket_id": "T-2"}), say("Your login ticket is pending."))
    resumed = campaign(mini, agent_model, tmp_path / "run", resume=True)
    result = run(resumed)
    assert (result.ran, result.errors) == (1, 0)
    assert [t.passed for t in resumed.run_dir.trials()] == [True]
    assert resumed.run_dir.errors() == []


def test_an_endpoint_that_keeps_timing_out_raises_an_infrastructure_error_classified_model_endpoint(
    mini: Suite, agent_model: Any
) -> None:
    agent_model.script(*[Scripted(openai_reply("late"), delay=1.0)] * 2)
    retry = RetryPolicy(max_retries=1, base_delay=0.001, max_delay=0.01, timeout_s=0.2, rng=random.Random(0))
    with pytest.raises(InfrastructureError) as raised:
        run_llm_attempt(mini, mini.task("check-status"), agent_model, retry=retry)
    assert (raised.value.status, raised.value.attempts) == (None, 2)
    kind, message = classify(raised.value)
    assert kind == "model_endpoint" and "timed out" in message


@pytest.mark.parametrize(
    ("mistake", "error_kind"),
    [
        (call("reopen_everything", {}), "unknown_tool"),
        (call("get_ticket", {"ticket": "T-2"}), "invalid_arguments"),
        (call("get_ticket", '{"ticket_id": "T-2"'), "invalid_arguments"),
        (say(None), None),
    ],
    ids=["unknown-tool", "invalid-arguments", "malformed-json", "empty-reply"],
)
def test_the_models_own_mistakes_are_trials_not_errors(
    mini: Suite, agent_model: Any, tmp_path: Path, mistake: dict[str, Any], error_kind: str | None
) -> None:
    agent_model.script(mistake, say("Sorry, I could not look that up."))
    c = campaign(mini, agent_model, tmp_path / "run")
    result = run(c)
    assert (result.ran, result.errors) == (1, 0), result.error_messages
    assert c.run_dir.errors() == []
    (trial,) = c.run_dir.trials()
    assert trial.finish_reason == "customer_ended"
    errors = [(e.is_error, e.error_kind) for e in trial.transcript.tool_results()]
    assert errors == ([(True, error_kind)] if error_kind else [])


def test_error_records_are_one_json_object_per_line(mini: Suite, agent_model: Any, tmp_path: Path) -> None:
    agent_model.script(*[fail(500, headers={"retry-after": "0"})] * ATTEMPTS_PER_CALL)
    run(campaign(mini, agent_model, tmp_path / "run", tools_via="direct"))
    lines = (tmp_path / "run" / "errors.jsonl").read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["kind"] == "model_endpoint"
    assert RunDir(tmp_path / "run").trials() == []
