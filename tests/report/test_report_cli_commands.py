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


def test_report_warns_about_corrupt_lines(app: typer.Typer, runner: CliRunner, tmp_path: Path, synth: Any) -> None:
    path = synth.write_run(tmp_path / "run", synth.standard_trials(), extra_lines=["{oops"])
    result = runner.invoke(app, ["report", str(path), "--json"])
    assert result.exit_code == 0
    assert "skipped 1 corrupt line" in result.stderr
    assert json.loads(result.stdout)["runs"][0]["attempts"] == 20


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
