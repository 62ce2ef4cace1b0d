"""When a campaign ends, trials.jsonl is read once: `finish()` reads it only to drop errors of finished
attempts, and the command's summary is handed what it read.

`statebox run` is invoked in process through typer's CliRunner, with `RunDir.trials` counted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from statebox.cli import app
from statebox.runner.record import ErrorRecord, TrialRecord
from statebox.runner.store import RunDir

TASKS = ["cancel_desk_wrong_order_number", "washer_installation_reschedule"]


def _run(out: Path, *args: str) -> Result:
    selection = [arg for task in TASKS for arg in ("--tasks", task)]
    runner = CliRunner(env={"OPENAI_API_KEY": None, "COLUMNS": None})
    return runner.invoke(app, ["run", "retail", "--agent", "reference", *selection, "--out", str(out), *args])


def _count_trial_reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The run directory of each `RunDir.trials()` call from now on."""
    reads: list[Path] = []
    real = RunDir.trials

    def counted(self: RunDir) -> list[TrialRecord]:
        reads.append(self.path)
        return real(self)

    monkeypatch.setattr(RunDir, "trials", counted)
    return reads


def _stale_error(trial_id: str) -> ErrorRecord:
    return ErrorRecord(
        trial_id=trial_id, suite="retail", task_id=TASKS[0], agent="reference", model=None, repeat=0,
        kind="tool_server", message="the server exited", at="2026-01-01T00:00:00+00:00",
    )  # fmt: skip


def test_a_run_without_errors_reads_its_trials_once_and_leaves_an_empty_errors_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = _count_trial_reads(monkeypatch)
    done = _run(tmp_path / "run", "--no-progress")
    assert done.exit_code == 0, done.stderr
    assert done.stderr.startswith("2 attempts: 2 passed"), done.stderr
    assert reads == [tmp_path / "run"], "only the summary reads trials.jsonl"
    assert (tmp_path / "run" / "errors.jsonl").read_bytes() == b"", "errors.jsonl is written empty, as it always was"


def test_a_resume_that_drops_errors_of_finished_trials_reads_its_trials_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    assert _run(out, "--no-progress").exit_code == 0
    finished = RunDir(out).trials()[0].trial_id
    RunDir(out).append_error(_stale_error(finished))
    RunDir(out).append_error(_stale_error("never-ran"))
    reads = _count_trial_reads(monkeypatch)
    done = _run(out, "--no-progress", "--resume")
    assert done.exit_code == 0, done.stderr
    assert "the run directory now holds 2 attempts: 2 passed" in done.stderr, done.stderr
    # once to learn what is finished (before any attempt), once by finish(); the summary is handed that
    assert reads == [out, out], reads
    assert [e.trial_id for e in RunDir(out).errors()] == ["never-ran"], "the finished trial's error is dropped"
