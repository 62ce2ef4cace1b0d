"""`statebox import tau-bench` refuses bad input in one line naming the file and the record, exit 2, before
anything runs (no run directory is written): another format, a task id out of range, a tool the domain
lacks, trajectories recorded on another version of τ-bench."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from trajectories import record, write

from statebox.compat.taubench.checkout import TauCheckout

STATEBOX = str(Path(sys.executable).with_name("statebox"))


def statebox(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}} | {"COLUMNS": "400"}
    return subprocess.run(
        [STATEBOX, *map(str, args)], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def task_json(checkout: Path, index: int) -> dict[str, object]:
    return TauCheckout(checkout).tasks("airline", "test")[index].model_dump(mode="json")


def refused(checkout: Path, file: Path, out: Path) -> str:
    done = statebox("import", "tau-bench", file, "--data", checkout, "--out", out)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert not out.exists(), "a refused import wrote a run directory"
    return lines[0]


def test_a_file_in_another_format_is_refused(checkout: Path, tmp_path: Path) -> None:
    file = tmp_path / "infer.jsonl"
    file.write_text(json.dumps({"uid": "test_x", "messages": [], "test_result": {"result": True}}) + "\n")
    line = refused(checkout, file, tmp_path / "run")
    assert f"{file}: not a τ-bench trajectory file" in line


def test_a_record_without_its_fields_is_refused_naming_it(checkout: Path, tmp_path: Path) -> None:
    file = write(tmp_path / "t.json", [record(1, 0, task_json(checkout, 1), []), {"task_id": 2}])
    line = refused(checkout, file, tmp_path / "run")
    assert f"{file}: record 1: not a τ-bench trajectory (no trial, reward, info, traj" in line


def test_a_task_id_out_of_range_is_refused(checkout: Path, tmp_path: Path) -> None:
    file = write(
        tmp_path / "t.json", [record(1, 0, task_json(checkout, 1), []), record(50, 0, task_json(checkout, 1), [])]
    )
    line = refused(checkout, file, tmp_path / "run")
    assert (
        f"{file}: record 1 (task 50, trial 0): task_id 50 is out of range (tau-bench:airline has tasks 0 to 49)" in line
    )


def test_a_tool_the_domain_lacks_is_refused(checkout: Path, tmp_path: Path) -> None:
    file = write(tmp_path / "t.json", [record(1, 0, task_json(checkout, 1), [("refund_everything", {"who": "me"})])])
    line = refused(checkout, file, tmp_path / "run")
    assert f"{file}: record 0 (task 1, trial 0): traj[2]: calls 'refund_everything', a tool this τ-bench domain" in line


def test_trajectories_of_another_version_are_refused(checkout: Path, tmp_path: Path) -> None:
    other = {
        **task_json(checkout, 1),
        "actions": [{"name": "cancel_reservation", "kwargs": {"reservation_id": "XXXXXX"}}],
    }
    file = write(tmp_path / "t.json", [record(1, 0, other, [], wiki=TauCheckout(checkout).wiki("airline"))])
    line = refused(checkout, file, tmp_path / "run")
    assert f"{file}: record 0 (task 1, trial 0): its task is graded differently" in line
    assert "another version of τ-bench" in line


def test_trajectories_matching_no_domain_say_so(checkout: Path, tmp_path: Path) -> None:
    other = {**task_json(checkout, 1), "outputs": ["42"]}
    file = write(tmp_path / "t.json", [record(1, 0, other, [])])
    line = refused(checkout, file, tmp_path / "run")
    assert (
        f"{file}: record 0: neither τ-bench domain's policy nor its tasks match" in line and "another version" in line
    )


def test_a_repeated_task_and_trial_is_refused(checkout: Path, tmp_path: Path) -> None:
    task = task_json(checkout, 1)
    file = write(tmp_path / "t.json", [record(1, 0, task, []), record(1, 0, task, [])])
    assert f"{file}: record 1: task 1 trial 0 again (record 0)" in refused(checkout, file, tmp_path / "run")


@pytest.mark.parametrize("fmt", ["tau2", "nope"])
def test_an_unknown_format_lists_the_known_ones(checkout: Path, tmp_path: Path, fmt: str) -> None:
    done = statebox("import", fmt, tmp_path / "x.json", "--out", tmp_path / "run")
    assert done.returncode == 2 and f"error: unknown import format {fmt!r}; known: tau-bench, tb-infer" in done.stderr
