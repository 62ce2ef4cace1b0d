"""What `--out` and `--resume` accept: a run directory is never overwritten, and resumed only as the same campaign.

`statebox run` is invoked in process through typer's CliRunner (the same command, without a process start-up).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from statebox.cli import app
from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.runner.record import TrialRecord
from statebox.suites import load_suite

TASKS = ["cancel_desk_wrong_order_number", "washer_installation_reschedule", "defective_blender_replacement_gold"]
OTHER_TASK = "grill_address_change_failed_verification"
FILES = ("manifest.json", "trials.jsonl", "errors.jsonl")


def _run(out: Path, *args: str, tasks: list[str] = TASKS) -> Result:
    selection = [arg for task in tasks for arg in ("--tasks", task)]
    runner = CliRunner(env={"OPENAI_API_KEY": None, "COLUMNS": None})
    return runner.invoke(app, ["run", "retail", *args, *selection, "--out", str(out), "--no-progress"])


def _snapshot(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in FILES if (out / name).exists()}


def _error(done: Result) -> str:
    """The error the command printed, with line wrapping undone."""
    assert done.exit_code != 0, f"expected a refusal, got exit 0: {done.stderr}"
    return " ".join(done.stderr.split())


def _trials(out: Path) -> list[TrialRecord]:
    lines = (out / "trials.jsonl").read_text(encoding="utf-8").splitlines()
    return [TrialRecord.model_validate_json(line) for line in lines if line.strip()]


@pytest.fixture(scope="module")
def model_url() -> Iterator[str]:
    """The fake model playing every task right, in this process."""
    with FakeModelServer(FakeModelApp(load_suite("retail"), FakeModelConfig(mode="reference"))) as server:
        yield server.base_url


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("finished") / "run"
    done = _run(out, "--agent", "reference")
    assert done.exit_code == 0, done.stderr
    return out


@pytest.fixture
def reference_run(finished_run: Path, tmp_path: Path) -> Path:
    """A finished reference-agent run of TASKS (one repeat), this test's own copy."""
    return Path(shutil.copytree(finished_run, tmp_path / "run"))


def test_out_holding_a_run_is_refused_without_resume(reference_run: Path) -> None:
    before = _snapshot(reference_run)
    message = _error(_run(reference_run, "--agent", "reference"))
    assert "already holds a run" in message and "--resume" in message, message
    assert _snapshot(reference_run) == before, "a refused run writes nothing"


def test_resume_with_another_task_selection_is_refused_naming_it(reference_run: Path) -> None:
    before = _snapshot(reference_run)
    message = _error(_run(reference_run, "--agent", "reference", "--resume", tasks=[*TASKS[:2], OTHER_TASK]))
    assert "cannot resume" in message and "task_set_hash" in message, message
    assert _snapshot(reference_run) == before


def test_resume_with_another_model_is_refused_naming_it(tmp_path: Path, model_url: str) -> None:
    out = tmp_path / "run"
    llm = ("--agent", "llm", "--base-url", model_url, "--user", "scripted")
    first = _run(out, *llm, "--model", "openai:fake", tasks=TASKS[:1])
    assert first.exit_code == 0, first.stderr
    before = _snapshot(out)
    message = _error(_run(out, *llm, "--model", "openai:other", "--resume", tasks=TASKS[:1]))
    assert "cannot resume" in message and "models" in message and "openai:other" in message, message
    assert _snapshot(out) == before


def test_resume_with_fewer_repeats_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert _run(out, "--agent", "reference", "--repeat", "2").exit_code == 0
    before = _snapshot(out)
    message = _error(_run(out, "--agent", "reference", "--repeat", "1", "--resume"))
    assert "fewer repeats" in message, message
    assert _snapshot(out) == before


def test_resume_with_a_larger_repeat_runs_only_the_new_repeats(reference_run: Path) -> None:
    before = (reference_run / "trials.jsonl").read_bytes()
    done = _run(reference_run, "--agent", "reference", "--repeat", "3", "--concurrency", "2", "--resume")
    assert done.exit_code == 0, done.stderr
    assert done.stderr.startswith(f"{len(TASKS) * 2} new attempts"), done.stderr
    assert (reference_run / "trials.jsonl").read_bytes().startswith(before), "finished trials stay as they were"
    trials = _trials(reference_run)
    assert sorted((t.task_id, t.repeat) for t in trials) == sorted((task, r) for task in TASKS for r in range(3))
    assert '"repeat": 3' in (reference_run / "manifest.json").read_text()


def test_resume_of_a_finished_campaign_runs_nothing(reference_run: Path) -> None:
    before = _snapshot(reference_run)
    done = _run(reference_run, "--agent", "reference", "--resume")
    assert done.exit_code == 0, done.stderr
    assert done.stderr.startswith("0 new attempts"), done.stderr
    assert _snapshot(reference_run)["trials.jsonl"] == before["trials.jsonl"]
