"""A line torn by a dying writer is never counted, and `--resume` carries on after it.

The torn line is written by hand (a kill between the bytes of one record), then the run is resumed with a larger
`--repeat` so that new records are appended after it.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from statebox.cli import app
from statebox.report.aggregate import build_report
from statebox.report.runs import load_runs
from statebox.runner.record import TrialRecord

TASKS = ["cancel_desk_wrong_order_number", "washer_installation_reschedule"]


def _run(out: Path, repeat: int, *extra: str) -> None:
    selection = [arg for task in TASKS for arg in ("--tasks", task)]
    args = ["run", "retail", "--agent", "reference", "--repeat", str(repeat), *selection, "--out", str(out)]
    result = CliRunner(env={"COLUMNS": "400"}).invoke(app, [*args, "--no-progress", *extra])
    assert result.exit_code == 0, result.stderr


def _resume_after_tearing(tmp_path: Path, torn: bytes) -> Path:
    out = tmp_path / "run"
    _run(out, 1)
    with (out / "trials.jsonl").open("ab") as f:
        f.write(torn)
    _run(out, 2, "--resume")
    return out


def _check_every_trial_once_and_the_torn_line_skipped(out: Path) -> None:
    lines = (out / "trials.jsonl").read_bytes().split(b"\n")
    records, bad = [], 0
    for line in filter(None, lines):
        try:
            records.append(TrialRecord.model_validate_json(line))
        except ValueError:
            bad += 1
    assert bad == 1, "exactly the torn line does not parse: the next record starts on its own line"
    assert sorted((r.task_id, r.repeat) for r in records) == sorted((t, r) for t in TASKS for r in range(2))
    loaded = load_runs([out])
    assert build_report(loaded)["runs"][0]["attempts"] == 2 * len(TASKS)
    assert any("skipped 1 torn line" in w for w in loaded.warnings), loaded.warnings


def _first_line(tmp_path: Path) -> bytes:
    out = tmp_path / "donor"
    _run(out, 1)
    return (out / "trials.jsonl").read_bytes().split(b"\n")[0]


def test_a_torn_last_line_is_ended_by_resume_and_never_counted(tmp_path: Path) -> None:
    line = _first_line(tmp_path)
    out = _resume_after_tearing(tmp_path, line[: len(line) // 2])
    _check_every_trial_once_and_the_torn_line_skipped(out)


def test_a_line_torn_inside_a_utf8_character_does_not_block_resume(tmp_path: Path) -> None:
    line = _first_line(tmp_path)
    out = _resume_after_tearing(tmp_path, line[: len(line) // 2] + "é".encode()[:1])
    _check_every_trial_once_and_the_torn_line_skipped(out)
