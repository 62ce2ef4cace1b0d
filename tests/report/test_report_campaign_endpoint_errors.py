"""A real campaign against the fake model with injected endpoint failures, reported end to end.

The fake model answers a share of its chat requests with HTTP 500 and the client does not retry, so
some attempts end as infrastructure errors part-way through, after paid model calls. The report must
say which tasks are short, how many tasks each k is over, and what the errored attempts cost.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.llm.retry import RetryPolicy
from statebox.report.aggregate import build_report, report_document
from statebox.report.runs import load_runs
from statebox.report.terminal import render_report
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig
from statebox.suites import load_suite

MODEL = "openai:fake"
REPEAT = 3
PRICES = "openai:fake: {input_per_mtok: 1.0, output_per_mtok: 4.0}\n"


@pytest.fixture(scope="module")
def campaign_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    retail = load_suite("retail")
    out = tmp_path_factory.mktemp("campaign") / "run"
    prices = out.parent / "prices.yaml"
    prices.write_text(PRICES, encoding="utf-8")
    app = FakeModelApp(retail, FakeModelConfig(mode="reference", fail_rate=0.02, seed=3))
    with FakeModelServer(app) as server:
        config = CampaignConfig(
            suite=retail.select([t.id for t in retail.tasks[:10]]),
            agent="llm",
            out=out,
            models=[MODEL],
            base_url=server.base_url,
            user="scripted",
            repeat=REPEAT,
            concurrency=1,  # one request at a time, so the seeded failures land much the same on every run
            retry=RetryPolicy(max_retries=0, base_delay=0.0),
            prices_file=prices,
            progress=False,
        )
        asyncio.run(Campaign(config).run())
    return out


@pytest.fixture(scope="module")
def entry(campaign_dir: Path) -> dict[str, Any]:
    runs: list[dict[str, Any]] = build_report(load_runs([campaign_dir]))["runs"]
    assert len(runs) == 1, runs
    return runs[0]


def test_the_terminal_shows_short_tasks_per_k_counts_and_errored_spend(
    campaign_dir: Path, entry: dict[str, Any]
) -> None:
    console = Console(width=200, record=True)
    render_report(report_document(load_runs([campaign_dir])), console)
    text = " ".join(console.export_text().split())
    assert f"{entry['short_tasks']} of {entry['tasks']} tasks are short" in text
    assert f"over {entry['tasks_at_k'][str(REPEAT)]} of {entry['tasks']} tasks" in text
    assert f"errored attempts ${entry['cost']['errored_usd']:.2f}" in text


def _jsonl(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()] if path.exists() else []


def test_some_attempts_errored_and_their_tasks_are_short_and_named(entry: dict[str, Any]) -> None:
    assert entry["infra_errors"] > 0, "the injected failures must leave errors for this test to mean anything"
    short = {s["task_id"]: s for s in entry["shortfall"]}
    assert entry["short_tasks"] == len(short) > 0 and entry["canonical"] is False
    for s in short.values():
        assert s["attempts"] + s["missing"] == REPEAT and s["errors"] == s["missing"], s
    assert entry["attempts"] + entry["infra_errors"] == entry["tasks"] * REPEAT


def test_every_k_is_over_one_task_set_the_tasks_with_every_attempt_and_says_so(entry: dict[str, Any]) -> None:
    expected = entry["tasks"] - entry["short_tasks"]
    assert entry["curve_tasks"] == expected < entry["tasks"], (entry["curve_tasks"], entry["shortfall"])
    assert entry["tasks_at_k"] == {str(k): expected for k in range(1, REPEAT + 1)}, entry["tasks_at_k"]


def test_with_errors_the_entry_gives_both_conventions_and_their_band(entry: dict[str, Any]) -> None:
    band = entry["error_band"]
    assert band is not None, "an attempt errored, so both conventions are given"
    excluded, failures = band["errors_excluded"], band["errors_as_failures"]
    assert excluded["pass_at_1"] == entry["pass_at_1"] and failures["pass_at_1"] < excluded["pass_at_1"]
    lo, hi = band["pass_at_1"]
    assert lo == min(excluded["pass_at_1_ci"][0], failures["pass_at_1_ci"][0])
    assert hi == max(excluded["pass_at_1_ci"][1], failures["pass_at_1_ci"][1])


def test_short_tasks_are_never_dependable(entry: dict[str, Any]) -> None:
    # the fake model plays the reference: every finished attempt passes, so every full task is dependable
    assert entry["all_k_tasks"] == entry["tasks"] - entry["short_tasks"]
    assert entry["all_k_share"] == pytest.approx(entry["all_k_tasks"] / entry["tasks"])


def test_errored_spend_is_recorded_and_counted(campaign_dir: Path, entry: dict[str, Any]) -> None:
    from statebox.runner.record import ErrorRecord, TrialRecord

    trials = [TrialRecord.model_validate_json(line) for line in _jsonl(campaign_dir / "trials.jsonl")]
    errors = [ErrorRecord.model_validate_json(line) for line in _jsonl(campaign_dir / "errors.jsonl")]
    assert all(e.cost_usd is not None and e.domain == "retail" for e in errors), errors
    errored = sum(sum(v or 0.0 for v in (e.cost_usd or {}).values()) for e in errors)
    finished = sum(sum(v or 0.0 for v in t.cost_usd.values()) for t in trials)
    cost = entry["cost"]
    assert errored > 0, "an attempt that failed after paid calls spent money"
    assert cost["errored_usd"] == pytest.approx(errored)
    assert cost["total_usd"] == pytest.approx(finished + errored)
    assert cost["errored_share"] == pytest.approx(errored / (finished + errored))
    dependable = entry["all_k_tasks"]
    expected = cost["agent_usd"] / dependable if dependable else None
    assert cost["per_dependable_task_usd"] == pytest.approx(expected), "agent spend, errored included, / dependable"
