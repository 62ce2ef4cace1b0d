"""`statebox show`: one attempt, readable at 80 columns, or its raw record with --json."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from statebox.runner.record import ErrorRecord, TrialRecord
from statebox.runner.store import RunDir

STATEBOX = str(Path(__file__).resolve().parents[2] / ".venv" / "bin" / "statebox")


@pytest.fixture
def fake_run(runs: tuple[Path, Path]) -> Path:
    return runs[1]


def _show(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb"}
    return subprocess.run([STATEBOX, "show", *args], capture_output=True, text=True, env=env, timeout=120)


def _a_failed_attempt(run: Path) -> TrialRecord:
    failed = [t for t in RunDir(run).trials() if not t.passed and t.discrepancies]
    assert failed, "the flaky run should have failed at least one attempt with discrepancies"
    return failed[0]


def test_show_prints_a_failed_attempts_discrepancies_and_signature_at_80_columns(fake_run: Path) -> None:
    failed = _a_failed_attempt(fake_run)
    done = _show(str(fake_run), failed.task_id, "--repeat", str(failed.repeat))
    assert done.returncode == 0, done.stderr
    wide = [line for line in done.stdout.splitlines() if len(line) > 80]
    assert not wide, f"lines over 80 columns: {wide[:3]}"
    flat = " ".join(done.stdout.split())
    assert f"FAILED signature: {failed.signature}" in flat, done.stdout[:400]
    for d in failed.discrepancies:
        assert " ".join(d.describe().split())[:60] in flat, f"{d.describe()!r} not shown"
    for section in ("Conversation", "Verdict", "What the agent changed", "What was required", "Usage and cost"):
        assert section in done.stdout


def test_show_json_is_the_raw_trial_record(fake_run: Path) -> None:
    failed = _a_failed_attempt(fake_run)
    done = _show(str(fake_run), failed.task_id, "--repeat", str(failed.repeat), "--json")
    assert done.returncode == 0, done.stderr
    assert TrialRecord.model_validate(json.loads(done.stdout)) == failed


def test_show_names_what_there_is_when_the_attempt_is_not_in_the_run(fake_run: Path) -> None:
    done = _show(str(fake_run), "no_such_task")
    assert done.returncode == 2 and done.stderr.startswith("error: no attempt of task 'no_such_task'"), done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    task = RunDir(fake_run).trials()[0].task_id
    done = _show(str(fake_run), task, "--repeat", "7")
    assert "repeats recorded: 0, 1, 2" in done.stderr, done.stderr


def test_show_says_when_the_attempt_ended_in_an_infrastructure_error(fake_run: Path, tmp_path: Path) -> None:
    run = Path(shutil.copytree(fake_run, tmp_path / "run"))
    t = RunDir(run).trials()[0]
    RunDir(run).append_error(ErrorRecord(
        trial_id=t.trial_id.rsplit("/", 1)[0] + "/3", suite=t.suite, task_id=t.task_id, agent=t.agent, model=t.model,
        repeat=3, kind="model_endpoint", message="HTTP 503 after 4 tries", at=datetime.now(UTC).isoformat(),
    ))  # fmt: skip
    done = _show(str(run), t.task_id, "--repeat", "3")
    assert done.returncode == 2, done.stdout
    assert "did not finish: model_endpoint: HTTP 503 after 4 tries" in done.stderr, done.stderr
