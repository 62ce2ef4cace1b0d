"""`--workers N` runs a campaign in N processes with the same results, and the workers die with it;
`--max-retries` bounds what one failing model call costs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.suites import load_suite

STATEBOX = str(Path(sys.executable).with_name("statebox"))
TASKS = ["cancel_desk_wrong_order_number", "washer_installation_reschedule", "stalled_tent_carrier_investigation"]


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}}


def _command(out: Path, *extra: str) -> list[str]:
    selection = [arg for task in TASKS for arg in ("--tasks", task)]
    return [STATEBOX, "run", "retail", *selection, "--out", str(out), "--no-progress", *extra]


def _report(out: Path) -> Any:
    done = subprocess.run([STATEBOX, "report", str(out), "--json"], capture_output=True, text=True, env=_env())
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _trial_ids(out: Path) -> list[str]:
    lines = (out / "trials.jsonl").read_text().splitlines()
    return [json.loads(line)["trial_id"] for line in lines if line.strip()]


def _children(pid: int) -> set[int]:
    """Every live descendant of a process, read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def test_two_workers_record_every_attempt_once_and_report_like_one_process(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    for out, workers in ((one, "1"), (two, "2")):
        done = subprocess.run(
            _command(out, "--agent", "reference", "--repeat", "4", "--workers", workers),
            capture_output=True, text=True, env=_env(), timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    ids = _trial_ids(two)
    assert len(ids) == len(set(ids)) == len(TASKS) * 4, sorted(ids)
    assert sorted(ids) == sorted(_trial_ids(one))
    assert _report(two) == _report(one)


def test_killing_the_run_kills_its_workers(tmp_path: Path) -> None:
    app = FakeModelApp(load_suite("retail"), FakeModelConfig(mode="reference", latency_ms=200))
    with FakeModelServer(app) as server:
        command = _command(
            tmp_path / "run", "--agent", "llm", "--model", "openai:fake", "--base-url", server.base_url,
            "--user", "scripted", "--repeat", "20", "--workers", "2",
        )  # fmt: skip
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env())
        try:
            deadline = time.monotonic() + 30
            while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            workers = _children(proc.pid)
            assert len(workers) >= 2, f"expected two worker processes under {proc.pid}, found {workers}"
            while app.stats.requests < 4 and time.monotonic() < deadline:  # attempts in flight: model calls made
                time.sleep(0.05)
            assert app.stats.requests >= 4, f"no attempts in flight: {app.stats.requests} model calls"
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
            deadline = time.monotonic() + 10
            while any(Path(f"/proc/{w}").exists() for w in workers) and time.monotonic() < deadline:
                time.sleep(0.05)
            alive = {
                w
                for w in workers
                if Path(f"/proc/{w}/stat").exists() and " Z " not in Path(f"/proc/{w}/stat").read_text()
            }
            assert not alive, f"workers outlived the killed run: {alive}"
        finally:
            proc.kill()
            proc.wait()


def test_max_retries_bounds_the_requests_of_a_failing_model_call(tmp_path: Path) -> None:
    app = FakeModelApp(load_suite("retail"), FakeModelConfig(mode="reference", fail_first_n=10_000))
    with FakeModelServer(app) as server:
        done = subprocess.run(
            _command(
                tmp_path / "run", "--agent", "llm", "--model", "openai:fake", "--base-url", server.base_url,
                "--user", "scripted", "--max-retries", "1",
            ),
            capture_output=True, text=True, env=_env(), timeout=120,
        )  # fmt: skip
        requests = app.stats.requests
    assert done.returncode == 3, f"infrastructure errors remain, so exit 3: {done.stderr}"
    errors = [json.loads(line) for line in (tmp_path / "run" / "errors.jsonl").read_text().splitlines()]
    assert [e["kind"] for e in errors] == ["model_endpoint"] * len(TASKS), errors
    assert requests == 2 * len(TASKS), f"one try and one retry per attempt, got {requests} requests"


def test_auto_workers_fork_only_for_large_model_free_campaigns() -> None:
    from statebox.runner.plan import resolve_workers

    cores = min(os.cpu_count() or 1, 4)
    assert resolve_workers(3, "llm", 10) == 3, "an explicit --workers is kept"
    assert resolve_workers(0, "llm", 10_000) == 1, "LLM attempts wait on the network: one process"
    assert resolve_workers(0, "reference", 199) == 1, "small campaigns do not pay for forking"
    assert resolve_workers(0, "reference", 800) == cores
    assert resolve_workers(0, "noop", 800) == cores
