"""The `report` and `compare` commands through typer's CliRunner."""

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from statebox.report.aggregate import build_report
from statebox.report.runs import load_runs


def test_report_json_prints_the_runs_document(app: typer.Typer, runner: CliRunner, run_dir: Path) -> None:
    result = runner.invoke(app, ["report", str(run_dir), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads(json.dumps(build_report(load_runs([run_dir]))))


def test_report_prints_tables_per_model(app: typer.Typer, runner: CliRunner, run_dir: Path) -> None:
    result = runner.invoke(app, ["report", str(run_dir)])
    assert result.exit_code == 0, result.output
    for text in (
        "openai:gpt-test",
        "pass@1",
        "pass^4 plug-in (biased ↑)",
        "observed 4/4",
        "insurance",
        "no_state_change",
    ):
        assert text in result.stdout


def test_report_warns_when_not_canonical(app: typer.Typer, runner: CliRunner, tmp_path: Path, synth: Any) -> None:
    trials = [t for t in synth.standard_trials() if not (t.task_id == "r2" and t.repeat == 0)]
    path = synth.write_run(tmp_path / "run", trials)
    result = runner.invoke(app, ["report", str(path)])
    text = " ".join(result.stdout.split())
    assert (
        "not canonical: 1 of 5 tasks are short (fewer than 4 finished attempts) and never count as dependable: r2 (3/4)"
        in text
    )
    assert "over 4 of 5 tasks" in text, "pass@4 is over the four tasks with four attempts, and says so"


def test_report_html_writes_one_file(app: typer.Typer, runner: CliRunner, run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out" / "report.html"
    result = runner.invoke(app, ["report", str(run_dir), "--html", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert 'id="statebox-data"' in out.read_text() and f"HTML report written to {out}" in result.stderr


def test_report_on_a_foreign_directory_fails_naming_it(app: typer.Typer, runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 2
    assert f"{tmp_path}: not a statebox run directory" in " ".join(result.stderr.split())


def _corrupt_middle_line(synth: Any, path: Path) -> Path:
    """A run whose trials.jsonl has a line that is not a record between two records (line 11 of 21)."""
    trials = synth.standard_trials()
    run = synth.write_run(path, trials[:10], extra_lines=['{"trial_id": "oops'])
    with (run / "trials.jsonl").open("a") as f:
        f.write("".join(t.model_dump_json() + "\n" for t in trials[10:]))
    return run


def _torn_last_line(synth: Any, path: Path) -> Path:
    """A run whose writer was killed mid-line: the last line of trials.jsonl is unterminated and half a record."""
    trials = synth.standard_trials()
    run = synth.write_run(path, trials)
    with (run / "trials.jsonl").open("a") as f:
        f.write(trials[0].model_dump_json()[:40])
    return run


@pytest.mark.parametrize("command", ["report", "compare"])
def test_a_corrupt_middle_line_is_refused_naming_file_and_line(
    app: typer.Typer, runner: CliRunner, tmp_path: Path, synth: Any, command: str
) -> None:
    path = _corrupt_middle_line(synth, tmp_path / "run")
    dirs = [str(path)] if command == "report" else [str(path), str(path)]
    result = runner.invoke(app, [command, *dirs, "--json"])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith(f"error: {path / 'trials.jsonl'}:11: not a JSON record"), lines[0]


@pytest.mark.parametrize("command", ["report", "compare"])
def test_a_torn_last_line_is_skipped_with_a_warning_and_the_rest_reported(
    app: typer.Typer, runner: CliRunner, tmp_path: Path, synth: Any, command: str
) -> None:
    path = _torn_last_line(synth, tmp_path / "run")
    dirs = [str(path)] if command == "report" else [str(path), str(path)]
    result = runner.invoke(app, [command, *dirs, "--json"])
    assert result.exit_code == 0, result.output
    assert f"{path / 'trials.jsonl'}: skipped 1 torn line (line 21: a writer killed mid-line)" in " ".join(
        result.stderr.split()
    ), result.stderr
    document = json.loads(result.stdout)
    attempts = document["runs"][0]["attempts"] if command == "report" else sum(document["passes_a"][1:])
    assert attempts == 20


def test_errors_as_failures_flag_changes_the_convention(
    app: typer.Typer, runner: CliRunner, tmp_path: Path, synth: Any
) -> None:
    path = synth.write_run(tmp_path / "run", synth.standard_trials(), [synth.make_error("r3", 4)], repeat=5)
    result = runner.invoke(app, ["report", str(path), "--json", "--errors-as-failures"])
    entry = json.loads(result.stdout)["runs"][0]
    assert (entry["convention"], entry["attempts"], entry["infra_errors"]) == ("errors-as-failures", 21, 1)


def test_compare_json(app: typer.Typer, runner: CliRunner, tmp_path: Path, synth: Any) -> None:
    a = synth.write_run(tmp_path / "a", synth.standard_trials())
    flipped = [t.model_copy(update={"passed": True}) if t.task_id == "r3" else t for t in synth.standard_trials()]
    b = synth.write_run(tmp_path / "b", flipped)
    result = runner.invoke(app, ["compare", str(a), str(b), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"a", "b", "tasks", "pass_at_1_a", "pass_at_1_b", "diff", "diff_ci", "flip_rate", "changed"}
    # r3 going 0/4 -> 4/4 is beyond chance even among five tasks: Boschloo p = 2 / 2^8 <= 0.1 / 5
    assert (data["tasks"], data["changed"], data["flip_rate"]) == (5, ["r3"], pytest.approx(0.2))
    assert data["diff"] == pytest.approx(0.2)


def test_compare_prints_a_table(app: typer.Typer, runner: CliRunner, run_dir: Path) -> None:
    result = runner.invoke(app, ["compare", str(run_dir), str(run_dir)])
    assert result.exit_code == 0, result.output
    assert "difference B − A: +0.0 points" in result.stdout and "majority-flip rate 0.0%" in result.stdout
    assert "expected with no change" in result.stdout and "changed beyond chance" in result.stdout


def test_report_json_is_byte_identical_whatever_the_line_order(
    app: typer.Typer, runner: CliRunner, tmp_path: Path, synth: Any
) -> None:
    trials = synth.standard_trials()
    errors = [synth.make_error("r3", 4), synth.make_error("i1", 5)]
    a = synth.write_run(tmp_path / "a", trials, errors, repeat=6)
    b = synth.write_run(tmp_path / "b", trials[::-1], errors[::-1], repeat=6)
    out_a = runner.invoke(app, ["report", str(a), "--json"]).stdout
    out_b = runner.invoke(app, ["report", str(b), "--json"]).stdout
    assert out_a == out_b and out_a.startswith('{\n  "runs": [')
