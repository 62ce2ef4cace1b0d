"""Dependable tasks, short tasks, errored spend and intervals in `report --json` and the terminal."""

from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from statebox.report.aggregate import build_report
from statebox.report.runs import load_runs
from statebox.runner.record import ErrorRecord, TrialRecord

AGENT_COST, ERROR_COST = 1.0, 0.25


def _trials(synth: Any, shape: dict[str, tuple[int, int]]) -> list[TrialRecord]:
    """`shape`: task -> (finished attempts, passed); only the agent costs money here."""
    trials = []
    for task, (n, c) in shape.items():
        for r in range(n):
            t = synth.make_trial(task, "retail", r, r < c, signature="tool_usage")
            trials.append(t.model_copy(update={"cost_usd": {"agent": AGENT_COST, "user": 0.0, "judge": 0.0}}))
    return trials


def _errors(synth: Any, task: str, repeats: range, *, spend: float | None = ERROR_COST) -> list[ErrorRecord]:
    costs = None if spend is None else {"agent": spend, "user": 0.0, "judge": 0.0}
    return [synth.make_error(task, r).model_copy(update={"cost_usd": costs, "domain": "retail"}) for r in repeats]


@pytest.fixture
def issue_run(tmp_path: Path, synth: Any) -> Path:
    """The issue's example at --repeat 5: (5, 5), (1, 1), (5, 2); "short" lost four attempts to errors."""
    trials = _trials(synth, {"full": (5, 5), "short": (1, 1), "half": (5, 2)})
    return synth.write_run(tmp_path / "run", trials, _errors(synth, "short", range(1, 5)), repeat=5)


def _entry(path: Path, **options: Any) -> dict[str, Any]:
    entry: dict[str, Any] = build_report(load_runs([path]), **options)["runs"][0]
    return entry


def test_one_dependable_task_and_one_short_task_named(issue_run: Path) -> None:
    e = _entry(issue_run)
    assert (e["all_k"], e["all_k_tasks"], e["tasks"]) == (5, 1, 3)
    assert e["all_k_share"] == pytest.approx(1 / 3), "the share is over every task, short ones included"
    assert (e["short_tasks"], e["canonical"]) == (1, False)
    assert e["shortfall"] == [{"task_id": "short", "attempts": 1, "missing": 4, "errors": 4, "simulator_faults": 0}]


def test_cost_per_dependable_task_is_total_spend_over_one(issue_run: Path) -> None:
    cost = _entry(issue_run)["cost"]
    # 11 finished attempts at $1 and 4 errored attempts at $0.25 = $12, all the agent's
    assert cost["total_usd"] == pytest.approx(12.0) == cost["agent_usd"]
    assert cost["per_dependable_task_usd"] == pytest.approx(cost["total_usd"] / 1)


def test_cost_per_success_is_total_spend_over_passed_attempts(issue_run: Path) -> None:
    # 5 + 1 + 2 = 8 passed attempts
    assert _entry(issue_run)["cost"]["per_success_usd"] == pytest.approx(12.0 / 8)


def test_errored_spend_is_counted_and_its_share_shown(issue_run: Path) -> None:
    cost = _entry(issue_run)["cost"]
    assert (cost["errored_usd"], cost["errored_share"], cost["errored_unrecorded"]) == (
        pytest.approx(1.0),
        pytest.approx(1 / 12),
        0,
    )


def test_errored_spend_counts_under_errors_as_failures_too(issue_run: Path) -> None:
    e = _entry(issue_run, errors_as_failures=True)
    assert e["cost"]["total_usd"] == pytest.approx(12.0)
    assert (e["short_tasks"], e["all_k_tasks"], e["attempts"]) == (0, 1, 15)


def test_an_error_record_without_spend_counts_as_unrecorded(tmp_path: Path, synth: Any) -> None:
    trials = _trials(synth, {"a": (2, 2), "b": (1, 1)})
    path = synth.write_run(tmp_path / "run", trials, _errors(synth, "b", range(1, 2), spend=None), repeat=2)
    cost = _entry(path)["cost"]
    assert (cost["errored_usd"], cost["errored_unrecorded"], cost["total_usd"]) == (0.0, 1, pytest.approx(3.0))


def test_a_task_whose_attempts_all_errored_keeps_its_domain(tmp_path: Path, synth: Any) -> None:
    trials = _trials(synth, {"a": (2, 2)})
    errors = [e.model_copy(update={"domain": "insurance"}) for e in _errors(synth, "gone", range(2))]
    e = _entry(synth.write_run(tmp_path / "run", trials, errors, repeat=2))
    assert sorted(e["by_domain"]) == ["insurance", "retail"]
    assert e["by_domain"]["insurance"]["shortfall"][0]["task_id"] == "gone"


def test_every_estimate_says_how_many_tasks_it_is_over_one_set_for_every_k(issue_run: Path) -> None:
    e = _entry(issue_run)
    assert e["pass_at_1_tasks"] == 3
    assert e["tasks_at_k"] == {"1": 2, "2": 2, "3": 2, "4": 2, "5": 2} and e["curve_tasks"] == 2


def test_every_headline_number_has_an_interval_of_width(tmp_path: Path, synth: Any) -> None:
    # every attempt of every task passes at one price: bootstrap intervals would all be points
    path = synth.write_run(tmp_path / "run", _trials(synth, {f"t{i}": (5, 5) for i in range(10)}), repeat=5)
    e = _entry(path)
    intervals = [e["pass_at_1_ci"], e["pass_at_k_ci"]["5"], e["pass_hat_k_ci"]["5"], e["all_k_ci"]]
    intervals += [e["cost"]["per_success_ci"], e["cost"]["per_dependable_task_ci"]]
    for lo, hi in intervals:
        assert hi is not None and hi > lo, intervals


def test_the_terminal_names_short_tasks_and_uses_one_denominator(
    app: typer.Typer, runner: CliRunner, issue_run: Path
) -> None:
    out = runner.invoke(app, ["report", str(issue_run)], env={"COLUMNS": "160"}).stdout
    row = next(line for line in out.splitlines() if "observed 5/5 tasks" in line)
    assert "1/3 (33.3%)" in row and "1 short, never dependable" in row, row
    text = " ".join(out.split())
    assert "short (1/5, 4 errored)" in text
    assert "over 2 of 3 tasks" in text
    assert "errored attempts $1.00 (8.3% of spend)" in text
