"""Merging run directories: a trial id recorded differently in two inputs is refused unless --prefer newest."""

import os
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from statebox.report.aggregate import build_report
from statebox.report.runs import ReportInputError, load_runs
from statebox.runner.record import TrialRecord


def _all(trials: list[TrialRecord], *, passed: bool, agent_cost: float) -> list[TrialRecord]:
    return [t.model_copy(update={"passed": passed, "cost_usd": {**t.cost_usd, "agent": agent_cost}}) for t in trials]


def _age(path: Path, seconds_ago: float) -> None:
    trials = path / "trials.jsonl"
    stamp = trials.stat().st_mtime - seconds_ago
    os.utime(trials, (stamp, stamp))


def _pair(tmp_path: Path, synth: Any, fail_cost: float, pass_cost: float) -> tuple[Path, Path]:
    """The audit's case: the same trial ids, all failing in one run and all passing in the other."""
    trials = synth.standard_trials()
    failing = synth.write_run(tmp_path / "failing", _all(trials, passed=False, agent_cost=fail_cost))
    passing = synth.write_run(tmp_path / "passing", _all(trials, passed=True, agent_cost=pass_cost))
    return failing, passing


@pytest.mark.parametrize("pass_cost", [0.01, 0.03])
def test_differing_records_of_one_trial_id_are_refused_whatever_they_cost(
    tmp_path: Path, synth: Any, pass_cost: float
) -> None:
    failing, passing = _pair(tmp_path, synth, 0.02, pass_cost)
    with pytest.raises(ReportInputError) as refused:
        load_runs([failing, passing])
    message = str(refused.value)
    assert "\n" not in message and "20 trial id(s) are recorded differently" in message, message
    assert str(failing / "trials.jsonl") in message and str(passing / "trials.jsonl") in message, message
    assert "--prefer newest" in message, message


def test_prefer_newest_keeps_the_record_of_the_input_written_last(tmp_path: Path, synth: Any) -> None:
    failing, passing = _pair(tmp_path, synth, 0.02, 0.01)
    _age(failing, 60)
    loaded = load_runs([failing, passing], prefer="newest")
    assert all(t.passed for t in loaded.trials) and len(loaded.trials) == 20
    assert any("--prefer newest" in w for w in loaded.warnings), loaded.warnings
    _age(passing, 120)
    assert not any(t.passed for t in load_runs([passing, failing], prefer="newest").trials)


def test_a_directory_given_twice_is_one_input_for_prefer_newest(tmp_path: Path, synth: Any) -> None:
    failing, passing = _pair(tmp_path, synth, 0.02, 0.01)
    _age(failing, 60)
    assert all(t.passed for t in load_runs([passing, failing, passing], prefer="newest").trials)


def test_prefer_newest_refuses_inputs_written_at_the_same_moment(tmp_path: Path, synth: Any) -> None:
    failing, passing = _pair(tmp_path, synth, 0.02, 0.01)
    stamp = (failing / "trials.jsonl").stat().st_mtime
    os.utime(passing / "trials.jsonl", (stamp, stamp))
    with pytest.raises(ReportInputError, match="differ in inputs written at the same time"):
        load_runs([failing, passing], prefer="newest")


def test_identical_records_in_two_inputs_count_once_without_a_choice(tmp_path: Path, synth: Any) -> None:
    trials = synth.standard_trials()
    copies = [synth.write_run(tmp_path / name, trials) for name in ("a", "b")]
    whole = build_report(load_runs([copies[0]]))
    assert build_report(load_runs(copies)) == whole and not load_runs(copies).warnings


def test_the_cli_refuses_in_one_line_and_takes_prefer_on_report_and_compare(
    app: typer.Typer, runner: CliRunner, tmp_path: Path, synth: Any
) -> None:
    failing, passing = _pair(tmp_path, synth, 0.02, 0.01)
    _age(failing, 60)
    refused = runner.invoke(app, ["report", str(failing), str(passing), "--json"])
    assert refused.exit_code != 0 and "Traceback" not in refused.output, refused.output
    assert len([line for line in refused.output.splitlines() if "recorded differently" in line]) == 1, refused.output
    chosen = runner.invoke(app, ["report", str(failing), str(passing), "--json", "--prefer", "newest"])
    assert chosen.exit_code == 0, chosen.output
    compared = runner.invoke(app, ["compare", str(failing), str(passing), "--prefer", "newest", "--json"])
    assert compared.exit_code == 0, compared.output
