"""Non-canonical runs say which tasks are short; infrastructure errors are excluded or counted as failures."""

from pathlib import Path
from typing import Any

import pytest

from statebox.report.aggregate import build_report
from statebox.report.runs import load_runs


def _entry(path: Path, errors_as_failures: bool = False) -> dict[str, Any]:
    entry: dict[str, Any] = build_report(load_runs([path]), errors_as_failures=errors_as_failures)["runs"][0]
    return entry


@pytest.fixture
def errored_run(tmp_path: Path, synth: Any) -> Path:
    """The standard run, except r1's last attempt (a pass) ended in an infrastructure error."""
    trials = [t for t in synth.standard_trials() if not (t.task_id == "r1" and t.repeat == 3)]
    # An error for i1/0 that a later --resume finished: it must not count.
    return synth.write_run(tmp_path / "run", trials, [synth.make_error("r1", 3), synth.make_error("i1", 0)])


def test_short_tasks_are_named_with_how_many_attempts_they_lack(errored_run: Path) -> None:
    e = _entry(errored_run)
    assert e["canonical"] is False and e["short_tasks"] == 1
    assert e["shortfall"] == [{"task_id": "r1", "attempts": 3, "missing": 1, "errors": 1, "simulator_faults": 0}]
    assert e["by_domain"]["retail"]["shortfall"] == e["shortfall"]
    assert e["by_domain"]["insurance"]["canonical"] is True


def test_errors_excluded_leaves_them_out_of_the_attempts(errored_run: Path) -> None:
    e = _entry(errored_run)
    assert (e["attempts"], e["infra_errors"], e["infra_error_kinds"]) == (19, 1, {"model_endpoint": 1})
    assert e["pass_at_1"] == pytest.approx(0.5)  # r1 is still 3/3
    assert e["all_k_tasks"] == 0, "r1 passed all it finished, but it is short: never dependable"
    assert e["all_k_share"] == 0 and e["tasks_at_k"]["4"] == 4


def test_errors_as_failures_counts_them_as_failed_attempts(errored_run: Path) -> None:
    e = _entry(errored_run, errors_as_failures=True)
    assert e["convention"] == "errors-as-failures"
    assert (e["attempts"], e["infra_errors"], e["canonical"]) == (20, 1, True)
    # r1 becomes 3/4: (0.75 + 0.5 + 0 + 0.75 + 0.25) / 5
    assert e["pass_at_1"] == pytest.approx(0.45)
    assert e["all_k_tasks"] == 0
    assert e["pass_hat_k"]["4"] == 0
    assert e["signatures"] == _entry(errored_run)["signatures"]  # an error has no failure signature


def test_a_shard_that_is_behind_makes_the_run_non_canonical(tmp_path: Path, synth: Any) -> None:
    trials = [t for t in synth.standard_trials() if t.repeat < 2 or t.task_id != "i2"]
    e = _entry(synth.write_run(tmp_path / "run", trials))
    assert e["shortfall"] == [{"task_id": "i2", "attempts": 2, "missing": 2, "errors": 0, "simulator_faults": 0}]
    assert e["pass_at_k"]["4"] == pytest.approx(3 / 4)  # i2 cannot estimate at k = 4; r3 is 0
    assert (e["tasks_at_k"]["2"], e["tasks_at_k"]["4"], e["curve_tasks"]) == (4, 4, 4), "every k is over one task set"
