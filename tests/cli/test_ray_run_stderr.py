"""A successful `statebox run --executor ray` (#31 item 7): stderr carries statebox's lines, not Ray's own
log lines (its Python notices, its C++ core worker's, its workers' forwarded output)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

pytest.importorskip("ray")

# Ray's Python logger
PY_NOTICE = re.compile(r"^\d{4}-\d\d-\d\d [\d:,]+\s+(DEBUG|INFO|WARNING|ERROR)\s+\S+\.py:\d+ -- ")
CORE_LINE = re.compile(r"^\[\d{4}-\d\d-\d\d [\d:,]+ [DIWEF] \d+ \d+\] ")  # Ray's C++ logger
FORWARDED = re.compile(r"^\((\w+ )?pid=\d+")  # a worker's output forwarded to the driver


@pytest.fixture(scope="module")
def ray_run_stderr(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The stderr lines of a small ray run that starts (and stops) its own local Ray, as a user's does."""
    out = tmp_path_factory.mktemp("ray") / "run"
    command = [sys.executable, "-m", "statebox.cli", "run", "retail", "--tasks", "ca*", "--agent", "reference",
               "--executor", "ray", "--no-progress", "--out", str(out)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert (out / "trials.jsonl").read_text().strip(), "the run saved no attempt"
    return done.stderr.splitlines()


def test_a_successful_ray_run_prints_no_ray_python_notice(ray_run_stderr: list[str]) -> None:
    assert [line for line in ray_run_stderr if PY_NOTICE.match(line) or FORWARDED.match(line)] == []
    said = " ".join(ray_run_stderr)  # the terminal wraps the closing line's path
    assert re.search(r"\d+ attempts: \d+ passed, 0 failed, 0 infrastructure errors -> ", said), ray_run_stderr


def test_a_successful_ray_run_prints_no_ray_core_log_line(ray_run_stderr: list[str]) -> None:
    assert [line for line in ray_run_stderr if CORE_LINE.match(line)] == []
