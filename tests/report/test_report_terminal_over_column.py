"""The terminal report's 'over' column (#31 item 7): in a complete run every rate says it is over all the
tasks, rather than leaving the column blank."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

RATE_ROWS = ("pass@1", "pass@2", "pass^2", "pass^2 plug-in", "observed 2/2 tasks", "retention")


def statebox(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}  # wide enough that no cell wraps
    return subprocess.run([sys.executable, "-m", "statebox.cli", *args], capture_output=True, text=True,
                          timeout=300, env=env)  # fmt: skip


def over_cells(report: str) -> dict[str, str]:
    """Each overall row's first cell and its last ('over') cell, from the rendered box."""
    cells: dict[str, str] = {}
    for line in report.splitlines():
        inner = line.strip().removeprefix("│").removesuffix("│")  # the box's own edges
        parts = [p.strip() for p in inner.split("│")]
        if len(parts) == 5:
            cells[parts[0]] = parts[4]
    return cells


def test_a_complete_run_fills_the_over_column_with_all_its_tasks(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = statebox("run", "retail", "--tasks", "c*", "--agent", "reference", "--repeat", "2", "--no-progress",
                    "--out", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (out / "trials.jsonl").read_text().splitlines() if line.strip()]
    tasks = len({r["task_id"] for r in records})
    assert len(records) == 2 * tasks and tasks > 1, "the run must be complete for this test to mean anything"
    report = statebox("report", str(out))
    assert report.returncode == 0, report.stderr
    cells = over_cells(report.stdout)
    rows = {name: over for name, over in cells.items() if name.startswith(RATE_ROWS)}
    assert len(rows) == len(RATE_ROWS), f"rows found: {sorted(cells)}\n{report.stdout}"
    assert rows == dict.fromkeys(rows, f"all {tasks} tasks"), report.stdout
