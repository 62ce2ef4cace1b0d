"""The driver's batched writer: a batch writes the same bytes as one append per record, each trial once."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from statebox.integrations.ray_executor.writer import DriverWriter, Handed
from statebox.offline.digest_check import digest_problem
from statebox.runner.record import ErrorRecord, TrialRecord, trial_id
from statebox.runner.store import DIGEST, ERRORS, TRIALS, RunDir, RunDirError


def trial(number: int, passed: bool = True) -> TrialRecord:
    tid = trial_id("retail", f"task-{number}", "reference", None, 0)
    return TrialRecord(trial_id=tid, suite="retail", task_id=f"task-{number}", domain="retail", agent="reference",
                       model=None, user=None, repeat=0, seed=number, passed=passed, state_passed=passed,
                       finish_reason="agent_ended", effects={"updated": {"orders": [{"key": number}]}})  # fmt: skip


def error(number: int) -> ErrorRecord:
    tid = trial_id("retail", f"task-{number}", "reference", None, 0)
    at = datetime.now(UTC).isoformat()
    return ErrorRecord(trial_id=tid, suite="retail", task_id=f"task-{number}", agent="reference", model=None,
                       repeat=0, kind="tool_server", message="server gone", at=at)  # fmt: skip


def run_dir(path: Path) -> RunDir:
    path.mkdir()
    return RunDir(path)


def test_a_batch_writes_the_same_trials_and_digest_as_one_append_per_record(tmp_path: Path) -> None:
    records = [trial(n, passed=n % 3 != 0) for n in range(50)]
    one_by_one, batched = run_dir(tmp_path / "one"), run_dir(tmp_path / "batched")
    for record in records:
        one_by_one.append_trial(record)
    batched.append_trials(records[:20])
    batched.append_trials(records[20:])
    for name in (TRIALS, DIGEST):
        assert (batched.path / name).read_text() == (one_by_one.path / name).read_text(), name
    assert digest_problem(batched.path) is None
    assert [r.trial_id for r in batched.trials()] == [r.trial_id for r in records]


def test_an_empty_batch_writes_nothing(tmp_path: Path) -> None:
    run = run_dir(tmp_path / "run")
    run.append_trials([])
    run.append_errors([])
    assert sorted(p.name for p in run.path.iterdir()) == []


def test_the_driver_writer_appends_each_trial_once_and_tells_outcomes_in_order(tmp_path: Path) -> None:
    told: list[tuple[str, str]] = []
    writer = DriverWriter(run_dir(tmp_path / "run"), lambda outcome, detail: told.append((outcome, detail)))
    first, second, failed = trial(1), trial(2), trial(3, passed=False)
    writer.write([Handed(first.trial_id, "trial", first.model_dump_json(), True),
                  Handed(second.trial_id, "error", error(2).model_dump_json())])  # fmt: skip
    writer.write([Handed(first.trial_id, "trial", first.model_dump_json(), True),  # a second copy: dropped
                  Handed(failed.trial_id, "trial", failed.model_dump_json(), False)])  # fmt: skip
    assert told == [("pass", first.trial_id), ("error", f"{second.trial_id}: server gone"), ("fail", failed.trial_id)]
    assert [r.trial_id for r in writer.run_dir.trials()] == [first.trial_id, failed.trial_id]
    assert (writer.run_dir.path / TRIALS).read_text().count("\n") == 2
    assert [e.trial_id for e in writer.run_dir.errors()] == [second.trial_id]
    assert (writer.run_dir.path / ERRORS).exists() and digest_problem(writer.run_dir.path) is None


def test_a_line_that_is_not_one_trial_record_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    run, good = run_dir(tmp_path / "run"), trial(1)
    torn = good.model_dump_json()[:-1] + "\n}"
    with pytest.raises(RunDirError, match=f"{good.trial_id}: not a trial record line"):
        run.append_trial_lines([(good.trial_id, good.model_dump_json()), (good.trial_id, torn)])
    assert not (run.path / TRIALS).exists()
