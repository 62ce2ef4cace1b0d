"""`statebox verify`: one verdict per check, non-zero exit when any fails, naming the check."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml
from offline_kit import small_suite

from statebox.offline.digest_check import digest_problem
from statebox.offline.verify import Verification, verify_run
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig
from statebox.runner.record import ErrorRecord
from statebox.runner.store import RunDir
from statebox.suites import Suite

STATEBOX = str(Path(__file__).resolve().parents[2] / ".venv" / "bin" / "statebox")


@pytest.fixture
def fake_copy(runs: tuple[Path, Path], tmp_path: Path) -> Path:
    """A copy of the flaky run, free to be tampered with."""
    return Path(shutil.copytree(runs[1], tmp_path / "run"))


def _failed(result: Verification) -> dict[str, str]:
    return {c.name: c.detail for c in result.checks if not c.ok}


def test_verify_passes_on_complete_demo_runs(runs: tuple[Path, Path]) -> None:
    done = subprocess.run([STATEBOX, "verify", *map(str, runs)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(": verified") == 2, done.stdout
    for check in ("canonical", "suite", "digest", "headline"):
        assert done.stdout.count(f"ok   {check}") == 2, done.stdout


def test_a_trial_line_edited_by_hand_fails_the_digest_check(fake_copy: Path) -> None:
    trials = fake_copy / "trials.jsonl"
    lines = trials.read_text().splitlines(keepends=True)
    true, false = '"passed":true', '"passed":false'
    was, now = (true, false) if true in lines[4] else (false, true)
    lines[4] = lines[4].replace(was, now, 1)
    trials.write_text("".join(lines))
    done = subprocess.run([STATEBOX, "verify", str(fake_copy)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout
    assert "FAIL digest    trials.jsonl:5 does not match its digest" in done.stdout, done.stdout
    assert "NOT VERIFIED" in done.stdout and done.stdout.count("FAIL") == 1, done.stdout


def test_a_removed_trial_line_fails_the_digest_check(fake_copy: Path) -> None:
    trials = fake_copy / "trials.jsonl"
    trials.write_text("".join(trials.read_text().splitlines(keepends=True)[:-1]))
    assert "digest" in _failed(verify_run(fake_copy))


def test_a_changed_task_file_fails_the_suite_check(runs: tuple[Path, Path], tmp_path: Path) -> None:
    suite = small_suite()
    edited = suite.tasks[1]
    domain = suite.domain_of(edited)
    tasks_dir = Path(shutil.copytree(domain.task_dir, tmp_path / "tasks"))
    task_file = tasks_dir / f"{edited.id}.yaml"
    data = yaml.safe_load(task_file.read_text())
    data["title"] += " (edited)"
    task_file.write_text(yaml.safe_dump(data, sort_keys=False))
    today = Suite(suite.name, [], {domain.name: dataclasses.replace(domain, task_dir=tasks_dir)})
    today = Suite(suite.name, [t for t in today.domains[domain.name].load_tasks()], today.domains)

    def opener(run: RunDir) -> tuple[Suite, list[str]]:
        ids = {t.task_id for t in run.trials()}
        return today.with_tasks([t for t in today.tasks if t.id in ids]), []

    failed = _failed(verify_run(runs[0], opener))
    assert set(failed) == {"suite"}, failed
    assert f"changed task(s): {edited.id}" in failed["suite"]


def test_an_infrastructure_error_left_fails_the_canonical_check(fake_copy: Path) -> None:
    t = RunDir(fake_copy).trials()[0]
    RunDir(fake_copy).append_error(ErrorRecord(
        trial_id=t.trial_id.rsplit("/", 1)[0] + "/3", suite=t.suite, task_id=t.task_id, agent=t.agent, model=t.model,
        repeat=3, kind="model_endpoint", message="HTTP 503", at=datetime.now(UTC).isoformat(),
    ))  # fmt: skip
    failed = _failed(verify_run(fake_copy))
    assert "canonical" in failed and "1 infrastructure error(s) left" in failed["canonical"], failed


def test_the_digest_stays_in_step_when_several_worker_processes_append(tmp_path: Path) -> None:
    out = tmp_path / "workers"
    config = CampaignConfig(suite=small_suite(), agent="reference", out=out, repeat=4, workers=2, progress=False)
    Campaign(config).run_blocking()
    assert len(RunDir(out).trials()) == 4 * len(small_suite().tasks)
    assert digest_problem(out) is None


def test_a_torn_line_repaired_on_resume_keeps_the_digest_whole(fake_copy: Path) -> None:
    run = RunDir(fake_copy)
    last = run.trials()[-1]
    with (fake_copy / "trials.jsonl").open("a") as f:
        f.write('{"trial_id": "torn by a kill')  # a writer killed mid-line: no digest entry was written
    run.repair()
    run.append_trial(last.model_copy(update={"trial_id": last.trial_id.rsplit("/", 1)[0] + "/3", "repeat": 3}))
    assert digest_problem(fake_copy) is None
