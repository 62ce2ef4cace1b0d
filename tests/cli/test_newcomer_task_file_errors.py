"""A task whose initial rows name an unknown table or column: `validate` and `run` say which file, task and field.

The bad task lives in a real plug-in domain (a `statebox.domains` entry point on PYTHONPATH), as a
user's own domain would, so the commands are run as a user runs them: in a subprocess.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
PLUGIN = """
from dataclasses import replace
from pathlib import Path

import minidomain

DOMAIN = replace(minidomain.mini_domain(), name="typos", task_dir=Path(__file__).parent / "typo_tasks")
"""
ROWS = {
    "unknown column": "tickets:\n    - {id: T-1, colour: red}\n",
    "unknown table": "tikets:\n    - {id: T-1}\n",
}


def _plugin(tmp_path: Path, rows: str) -> Path:
    tasks = tmp_path / "typo_tasks"
    tasks.mkdir()
    (tasks / "fine.yaml").write_text((TESTS / "minidomain" / "tasks" / "solve_printer.yaml").read_text())
    (tasks / "typo.yaml").write_text(
        f"id: typo-task\nopening_message: hi\ncustomer: {{goal: x}}\ninitial_rows:\n  {rows}"
    )
    (tmp_path / "typos.py").write_text(PLUGIN)
    meta = tmp_path / "typos-0.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: typos\nVersion: 0\n")
    (meta / "entry_points.txt").write_text("[statebox.domains]\ntypos = typos:DOMAIN\n")
    return tasks / "typo.yaml"


def _statebox(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(TESTS)]), "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-c", "from statebox.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )


@pytest.mark.parametrize("rows", list(ROWS.values()), ids=list(ROWS))
@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_bad_initial_row_is_one_line_naming_the_file_task_and_field(tmp_path: Path, command: str, rows: str) -> None:
    bad_file = _plugin(tmp_path, rows)
    extra = ["--agent", "reference", "--no-progress", "--out", str(tmp_path / "run")] if command == "run" else []
    result = _statebox(tmp_path, command, "typos", *extra)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith(f"error: {bad_file}: task 'typo-task': field 'initial_rows': "), lines[0]
