"""What a user's habits meet (#31 item 7): Ctrl-C leaves a saved run and the way to finish it, --resume's
last line counts the whole run, an absurd --repeat is refused at once, serve never listens beyond
this machine without a token."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.suites import load_suite

TASKS = "c*"  # a few retail tasks


def statebox(*args: str) -> list[str]:
    return [sys.executable, "-m", "statebox.cli", *args]


def saved(out: Path) -> int:
    path = out / "trials.jsonl"
    return sum(1 for line in path.read_text().splitlines() if line.strip()) if path.exists() else 0


def test_ctrl_c_saves_what_finished_and_says_how_to_run_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "run"
    app = FakeModelApp(load_suite("retail"), FakeModelConfig(mode="reference", latency_ms=100))
    with FakeModelServer(app) as server:
        common = ["run", "retail", "--tasks", TASKS, "--agent", "llm", "--model", "openai:fake",
                  "--base-url", server.base_url, "--user", "scripted", "--repeat", "3", "--concurrency", "2",
                  "--no-progress", "--out", str(out)]  # fmt: skip
        proc = subprocess.Popen(statebox(*common), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while saved(out) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        planned = len(load_suite("retail").select([TASKS]).tasks) * 3
        kept = saved(out)
        assert proc.returncode == 130, err
        assert f"interrupted: {kept} of {planned} attempts are saved in {out}" in " ".join(err.split()), err
        assert "--resume" in err and "Traceback" not in err, err
        assert 2 <= kept < planned

        done = subprocess.run(statebox(*common, "--resume"), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stderr.split())  # the terminal wraps long paths
    assert f"{planned - kept} new attempts: {planned - kept} passed, 0 failed, 0 infrastructure errors" in said, said
    assert said.endswith(f"the run directory now holds {planned} attempts: {planned} passed, 0 failed"), said


def test_a_repeat_past_what_one_run_directory_holds_is_refused_at_once(tmp_path: Path) -> None:
    started = time.monotonic()
    done = subprocess.run(statebox("run", "retail", "--agent", "reference", "--repeat", "100000000",
                                   "--out", str(tmp_path / "run")), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --repeat 100000000: "), done.stderr
    assert "over the 1,000,000 one run directory holds" in lines[0] and "--shard" in lines[0]
    assert not (tmp_path / "run").exists()
    assert time.monotonic() - started < 60


def test_serve_http_refuses_every_address_beyond_this_machine(tmp_path: Path) -> None:
    task = load_suite("retail").tasks[0].id
    for address in ("0.0.0.0:8765", "[::]:8765", "192.0.2.7:8765"):
        done = subprocess.run(statebox("serve", "retail", task, "--http", address), capture_output=True, text=True,
                              timeout=120)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr
        assert lines[0].startswith(f"error: --http {address!r}: serve has no token"), lines[0]
        assert "statebox proxy --token" in lines[0]


def test_the_resume_line_counts_a_run_directory_that_was_complete(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = subprocess.run(statebox("run", "retail", "--tasks", TASKS, "--agent", "reference", "--no-progress",
                                    "--out", str(out)), capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    again = subprocess.run(statebox("run", "retail", "--tasks", TASKS, "--agent", "reference", "--no-progress",
                                    "--out", str(out), "--resume"), capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    n = saved(out)
    assert " ".join(again.stderr.split()).endswith(f"the run directory now holds {n} attempts: {n} passed, 0 failed")
    assert json.loads((out / "manifest.json").read_text())
    assert os.path.getsize(out / "trials.jsonl") > 0
