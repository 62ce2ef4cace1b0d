"""`statebox run --executor ray` on a local Ray (2 CPUs): a worker killed mid-run, a resume, and the
same trials and report as the local executor."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("ray")

pytestmark = pytest.mark.slow

STATEBOX = Path(sys.executable).with_name("statebox")
TASKS = 42
REPEAT = 3


@pytest.fixture(scope="module")
def task_ids() -> list[str]:
    from statebox.suites import load_suite

    return [t.id for t in load_suite("retail").tasks][:TASKS]


def _run(out: Path, tasks: list[str], *extra: str) -> subprocess.Popen[str]:
    selection = [arg for t in tasks for arg in ("--tasks", t)]
    command = [
        str(STATEBOX),
        "run",
        "retail",
        "--agent",
        "reference",
        "--repeat",
        str(REPEAT),
        "--out",
        str(out),
        "--no-progress",
        *selection,
        *extra,
    ]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(proc: subprocess.Popen[str]) -> int:
    _, err = proc.communicate(timeout=300)
    assert proc.returncode in (0, 3), f"exit {proc.returncode}: {err[-2000:]}"
    return proc.returncode


def _trials(run: Path) -> list[dict]:
    path = run / "trials.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip().endswith("}")]


def _worker_pids() -> list[int]:
    """Our Ray's attempt workers: processes titled ray::AttemptWorker below this test process."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        if title.startswith(b"ray::AttemptWorker") and _descends_from(int(entry.name), os.getpid()):
            pids.append(int(entry.name))
    return pids


def _descends_from(pid: int, ancestor: int) -> bool:
    while pid > 1:
        if pid == ancestor:
            return True
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return False
        pid = int(stat.rsplit(")", 1)[1].split()[1])
    return False


def _report(run: Path) -> dict:
    done = subprocess.run([str(STATEBOX), "report", str(run), "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    for r in report.get("runs", []):
        r.pop("run_dir", None)
        r.pop("path", None)
    return report


def test_a_killed_worker_then_resume_gives_each_trial_once_and_the_local_report(
    ray_address: str, task_ids: list[str], tmp_path: Path
) -> None:
    ray_run, local_run = tmp_path / "ray", tmp_path / "local"
    proc = _run(ray_run, task_ids, "--executor", "ray", "--ray-address", ray_address, "--concurrency", "4")
    deadline = time.monotonic() + 240
    while not _trials(ray_run) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    victims = _worker_pids()
    assert victims, "no Ray attempt worker found to kill"
    os.kill(victims[0], signal.SIGKILL)
    at_kill = len(_trials(ray_run))
    assert proc.poll() is None and at_kill < TASKS * REPEAT, f"the run was over before the kill ({at_kill} trials)"
    _finish(proc)
    resumed = _run(ray_run, task_ids, "--executor", "ray", "--ray-address", ray_address, "--resume")
    _finish(resumed)

    counts = Counter(t["trial_id"] for t in _trials(ray_run))
    twice = {tid: n for tid, n in counts.items() if n > 1}
    assert twice == {}, f"trials recorded more than once: {twice}"
    expected = {f"retail/{t}/reference/-/{r}" for t in task_ids for r in range(REPEAT)}
    assert set(counts) == expected, (
        f"missing {sorted(expected - set(counts))[:5]}, extra {sorted(set(counts) - expected)[:5]}"
    )

    assert _finish(_run(local_run, task_ids, "--executor", "local")) == 0
    by_id = {t["trial_id"]: (t["passed"], t["state_hash"]) for t in _trials(ray_run)}
    assert by_id == {t["trial_id"]: (t["passed"], t["state_hash"]) for t in _trials(local_run)}
    assert _report(ray_run) == _report(local_run)
