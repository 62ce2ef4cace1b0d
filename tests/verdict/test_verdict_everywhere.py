"""One verdict everywhere (issue 25): the same play gets the same verdict document on every surface.

For one task of every built-in domain (each with a verify_before trace check and a rubric question),
five plays — the reference with a careful conversation, the reference without verifying the customer,
a wrong value, an extra write, a rubric the judge model answers "no" — are played by `statebox run`'s
episode loop, then by an external agent through `statebox serve` (the official MCP client over stdio),
a proxy (the official MCP client over HTTP, the verdict from `GET /attempts/{id}/effects`), OpenEnv
(its own client over WebSocket; the reward is the document's `passed`), Inspect's scorer (the fake
model playing the agent behind Inspect's OpenAI-compatible provider: every play but the unverified
one, which no model plays), `statebox import` of the recorded conversation, and `statebox regrade`
of the stored run. Every surface has the fake judge model.

Nothing is excluded from the comparison: a verdict document holds no surface-specific ids or timings
(the attempt's id, its finish reason and its timings live beside the document, not in it).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from verdict_kit import (
    PLAYS,
    Play,
    fake_server,
    imported,
    of_record,
    over_inspect,
    over_openenv,
    over_proxy,
    over_serve_stdio,
    regraded,
    run_play,
    steps_of,
    store_run,
)

from statebox.runner.record import TrialRecord
from statebox.suites import Suite, load_suite
from statebox.tasks import Task

pytest.importorskip("openenv")
pytestmark = pytest.mark.slow

# One task per built-in domain: a write guarded by verify_before, and a rubric question.
TASKS = {
    "retail": "defective_earbuds_return_refund_after_receipt_standard",
    "auto_insurance": "add_sixteen_year_old_daughter_driver",
    "travel": "amsterdam_hotel_cancelled_after_deadline_first_night_kept",
    "neobank": "basic_level_daily_limit_send_what_is_left",
    "consulting": "full_prince2_course_waitlist",
}
SURFACES = ("serve_stdio", "proxy", "openenv", "inspect", "import", "regrade")


@dataclass
class Outcomes:
    """Per play: `run`'s trial record, and the verdict document each surface returned."""

    task: Task
    records: dict[str, TrialRecord] = field(default_factory=dict)
    documents: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # play -> surface -> document
    rewards: dict[str, float] = field(default_factory=dict)  # play -> OpenEnv's reward


def _play_everywhere(suite: Suite, task: Task, play: Play, work: Path, outcomes: Outcomes) -> None:
    with fake_server(suite, play) as server:
        url = server.base_url
        record = asyncio.run(run_play(suite, task, play, url, PLAYS.index(play)))
        steps = steps_of(record.transcript)
        documents = {"run": of_record(record, task)}
        out = work / f"{play.name}.json"
        documents["serve_stdio"] = asyncio.run(over_serve_stdio(suite.name, task, steps, url, out))
        documents["proxy"] = asyncio.run(over_proxy(suite, task, steps, url))
        outcomes.rewards[play.name], documents["openenv"] = asyncio.run(over_openenv(suite, task, steps, url))
        (replayed,) = imported(suite, [record], work / play.name, url)
        documents["import"] = of_record(replayed, task)
        if play.mode != "unverified":  # Inspect's agent is a model: the fake model plays the other plays
            documents["inspect"] = over_inspect(suite, task, url, work / f"{play.name}-inspect")
    outcomes.records[play.name] = record
    outcomes.documents[play.name] = documents


@pytest.fixture(scope="module", params=sorted(TASKS))
def outcomes(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Outcomes:
    domain = request.param
    suite = load_suite(domain).select([TASKS[domain]])
    (task,) = suite.tasks
    assert task.rubrics and any(c.kind == "verify_before" for c in task.checks), f"{task.id}: pick another task"
    work = tmp_path_factory.mktemp(domain)
    found = Outcomes(task)
    for play in PLAYS:
        _play_everywhere(suite, task, play, work, found)
    store_run(work / "run", list(found.records.values()))
    after = regraded(work / "run", work / "regraded", suite)
    for name, record in found.records.items():
        found.documents[name]["regrade"] = of_record(after[record.trial_id], task)
    return found


@pytest.mark.parametrize("play", [p.name for p in PLAYS])
@pytest.mark.parametrize("surface", SURFACES)
def test_every_surface_gives_the_verdict_document_run_gives(outcomes: Outcomes, play: str, surface: str) -> None:
    documents = outcomes.documents[play]
    if surface == "inspect" and play == "unverified_reference":
        pytest.skip("Inspect's agent is a model; no model plays the unverified reference (the fake model verifies)")
    assert documents[surface] == documents["run"], f"{outcomes.task.id} / {play}: {surface} differs from run"


def test_the_careful_reference_passes(outcomes: Outcomes) -> None:
    doc = outcomes.documents["careful_reference"]["run"]
    assert (doc["passed"], doc["discrepancies"], doc["rubrics"]["status"]) == (True, [], "judged"), doc
    assert outcomes.rewards["careful_reference"] == 1.0


def test_the_reference_without_verification_fails_on_the_trace_only(outcomes: Outcomes) -> None:
    doc = outcomes.documents["unverified_reference"]["run"]
    kinds = {d["kind"] for d in doc["discrepancies"]}
    assert (doc["state_passed"], doc["passed"], kinds, doc["signature"]) == (
        True, False, {"policy_violation"}, "policy_violation"
    ), doc  # fmt: skip
    assert any(d["check"].startswith("verify_before") for d in doc["discrepancies"]), doc["discrepancies"]
    assert outcomes.rewards["unverified_reference"] == 0.0


def test_an_external_mcp_agent_that_skips_verification_fails_with_runs_policy_violation(outcomes: Outcomes) -> None:
    documents = outcomes.documents["unverified_reference"]
    violations = {s: [d for d in documents[s]["discrepancies"] if d["kind"] == "policy_violation"]
                  for s in ("run", "serve_stdio", "proxy")}  # fmt: skip
    assert violations["run"], "run finds no policy_violation"
    assert violations["serve_stdio"] == violations["run"] == violations["proxy"]
    assert not documents["serve_stdio"]["passed"] and not documents["proxy"]["passed"]


def test_a_wrong_value_and_an_extra_write_fail_on_the_end_state(outcomes: Outcomes) -> None:
    wrong, extra = outcomes.documents["wrong_value"]["run"], outcomes.documents["extra_write"]["run"]
    assert not wrong["state_passed"] and "wrong_value" in {d["kind"] for d in wrong["discrepancies"]}, wrong
    assert not extra["state_passed"] and "extra_effect" in {d["kind"] for d in extra["discrepancies"]}, extra
    assert wrong["signature"] == extra["signature"] == "wrong_state_update"


def test_a_rubric_answered_no_fails_a_right_end_state(outcomes: Outcomes) -> None:
    doc = outcomes.documents["rubric_failure"]["run"]
    answers = [r["answer"] for r in doc["rubrics"]["results"]]
    assert (doc["state_passed"], doc["passed"], doc["rubrics"]["status"]) == (True, False, "judged"), doc
    assert answers and set(answers) == {"no"}, doc["rubrics"]
