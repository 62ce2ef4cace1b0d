"""Records carry a schema version; a line statebox cannot read is refused, naming the file and line, never skipped.

Only a line torn by a killed writer is skipped: the unterminated last line, or a line `repair()` marked as torn.
The run directory is real files, written as `statebox run` writes them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

import pytest
from typer.testing import CliRunner

from statebox.agents.transcript import FINISH_REASONS
from statebox.cli import app
from statebox.runner.record import SCHEMA_VERSION, ErrorRecord, FinishReason, TrialRecord
from statebox.runner.store import ERRORS, MANIFEST, TRIALS, RunDir, RunDirError

TASK = "cancel_desk_wrong_order_number"


def _run(out: Path, *extra: str) -> tuple[int, str]:
    args = ["run", "retail", "--agent", "reference", "--tasks", TASK, "--out", str(out), "--no-progress", *extra]
    done = CliRunner(env={"COLUMNS": "400"}).invoke(app, args)
    return done.exit_code, " ".join(done.stderr.split())


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished one-attempt run; tests copy it before changing anything."""
    out = tmp_path_factory.mktemp("schema") / "run"
    code, said = _run(out)
    assert code == 0, said
    return out


def _copy(recorded: Path, to: Path) -> Path:
    to.mkdir()
    for name in (MANIFEST, TRIALS):
        (to / name).write_bytes((recorded / name).read_bytes())
    return to


def _first_record(out: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((out / TRIALS).read_text().splitlines()[0])
    return data


def test_trial_error_and_manifest_carry_the_schema_version(recorded: Path) -> None:
    assert _first_record(recorded)["schema_version"] == SCHEMA_VERSION
    assert json.loads((recorded / MANIFEST).read_text())["schema_version"] == SCHEMA_VERSION
    error = ErrorRecord(
        trial_id="t", suite="s", task_id="t", agent="noop", model=None, repeat=0, kind="timeout", message="m", at="x"
    )
    assert json.loads(error.model_dump_json())["schema_version"] == SCHEMA_VERSION


def test_a_record_without_a_schema_version_reads_as_version_1(recorded: Path, tmp_path: Path) -> None:
    out = _copy(recorded, tmp_path / "old")
    record = _first_record(out)
    del record["schema_version"]
    (out / TRIALS).write_text(json.dumps(record) + "\n")
    [trial] = RunDir(out).trials()
    assert (trial.task_id, trial.schema_version) == (TASK, 1)


def test_a_newer_schema_version_is_refused_naming_file_and_line(recorded: Path, tmp_path: Path) -> None:
    out = _copy(recorded, tmp_path / "newer")
    record = _first_record(out)
    (out / TRIALS).write_text("\n" + json.dumps(record | {"schema_version": SCHEMA_VERSION + 1}) + "\n")
    with pytest.raises(RunDirError) as refused:
        RunDir(out).trials()
    assert str(refused.value).startswith(f"{out / TRIALS}:2: schema_version {SCHEMA_VERSION + 1}"), refused.value


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("{not json", "not a JSON record"),
        ("[1, 2]", "not a JSON object"),
        ('{"trial_id": "x"}', "not a valid TrialRecord"),
        ('{"schema_version": "one"}', "schema_version 'one'"),
    ],
)
def test_an_unreadable_line_before_the_last_is_refused(recorded: Path, tmp_path: Path, line: str, says: str) -> None:
    out = _copy(recorded, tmp_path / "bad")
    good = (out / TRIALS).read_text()
    (out / TRIALS).write_text(f"{line}\n{good}")
    with pytest.raises(RunDirError) as refused:
        RunDir(out).trials()
    message = str(refused.value)
    assert message.startswith(f"{out / TRIALS}:1: ") and says in message and "\n" not in message, message


def test_resume_over_an_unreadable_line_is_a_one_line_error_and_changes_nothing(recorded: Path, tmp_path: Path) -> None:
    out = _copy(recorded, tmp_path / "resume")
    (out / TRIALS).write_text("{garbage\n" + (out / TRIALS).read_text())
    before = (out / TRIALS).read_bytes()
    code, said = _run(out, "--resume", "--repeat", "2")
    assert code == 2 and said.startswith(f"error: {out / TRIALS}:1: not a JSON record"), said
    assert (out / TRIALS).read_bytes() == before


def test_an_unterminated_last_line_is_skipped_and_repair_marks_it(recorded: Path, tmp_path: Path) -> None:
    out = _copy(recorded, tmp_path / "torn")
    whole = (out / TRIALS).read_text()
    with (out / TRIALS).open("a") as f:
        f.write(whole[: len(whole) // 2])
    assert len(RunDir(out).trials()) == 1
    RunDir(out).repair()
    with (out / TRIALS).open("a") as f:
        f.write(whole)
    assert len(RunDir(out).trials()) == 1, "the torn line stays skipped once lines follow it"
    lines = (out / TRIALS).read_text().splitlines()
    assert len(lines) == 3 and lines[1].endswith("statebox skips this line"), lines


def test_repair_only_ends_a_whole_record_that_lost_its_newline(recorded: Path, tmp_path: Path) -> None:
    out = _copy(recorded, tmp_path / "whole")
    (out / TRIALS).write_text((out / TRIALS).read_text().rstrip("\n"))
    RunDir(out).repair()
    assert (out / TRIALS).read_text() == (recorded / TRIALS).read_text()


def test_an_errors_line_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    (tmp_path / ERRORS).write_text('{"kind": "cosmic_ray"}\n')
    with pytest.raises(RunDirError, match=rf"{ERRORS}:1: not a valid ErrorRecord"):
        RunDir(tmp_path).errors()


def test_resume_refuses_a_manifest_of_a_newer_schema(recorded: Path, tmp_path: Path) -> None:
    out = _copy(recorded, tmp_path / "manifest")
    manifest = json.loads((out / MANIFEST).read_text())
    (out / MANIFEST).write_text(json.dumps(manifest | {"schema_version": SCHEMA_VERSION + 1}))
    code, said = _run(out, "--resume")
    assert code == 2 and f"{out / MANIFEST}: schema_version {SCHEMA_VERSION + 1}" in said, said


def test_resume_accepts_a_manifest_from_before_schema_versions(recorded: Path, tmp_path: Path) -> None:
    out = _copy(recorded, tmp_path / "oldmanifest")
    manifest = json.loads((out / MANIFEST).read_text())
    del manifest["schema_version"]
    (out / MANIFEST).write_text(json.dumps(manifest))
    code, said = _run(out, "--resume", "--repeat", "2")
    assert code == 0, said
    assert sorted(t.repeat for t in RunDir(out).trials()) == [0, 1]
    assert all(isinstance(t, TrialRecord) for t in RunDir(out).trials())


def test_every_finish_reason_an_agent_can_end_with_is_a_record_value() -> None:
    assert set(FINISH_REASONS) - set(get_args(FinishReason)) == set()
