"""`--executor ray` against `--workers 2`: attempts per second of the same campaign, side by side.

    python benchmarks/bench_ray.py                          # reference 40 tasks x 5, fake model 20 tasks x 2 at 50 ms
    python benchmarks/bench_ray.py --repeat 2 --latency-ms 200

Ray is started once, locally, with 2 CPUs (as a 2-worker cluster would be), by this process; every
campaign is a real `statebox run` subprocess, joining it with `--ray-address` or using `--workers 2`.
Reported per campaign: attempts over the process's wall time, and the steady rate over the second
half of the attempts (start-up left out: interpreter, suite load, and for Ray the workers' start).
"""

from __future__ import annotations

import argparse
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import ray

from statebox.suites import load_suite

STATEBOX = str(Path(sys.executable).with_name("statebox"))


def task_ids(count: int) -> list[str]:
    return sorted(t.id for t in load_suite("retail").tasks)[:count]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def fake_model(latency_ms: int) -> Iterator[str]:
    port = free_port()
    command = [STATEBOX, "fake-model", "retail", "--port", str(port), "--latency-ms", str(latency_ms)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the fake model did not start") from None
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def campaign(out: Path, tasks: list[str], repeat: int, executor: list[str], agent: list[str]) -> tuple[float, float]:
    """(attempts/s over the wall time, attempts/s over the second half of the attempts)."""
    selection = [a for t in tasks for a in ("--tasks", t)]
    command = [STATEBOX, "run", "retail", *agent, "--repeat", str(repeat), "--concurrency", "8", "--no-progress",
               "--out", str(out), *selection, *executor]  # fmt: skip
    total = len(tasks) * repeat
    t0 = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    half: float | None = None
    trials = out / "trials.jsonl"
    while proc.poll() is None:
        if half is None and trials.exists() and trials.read_bytes().count(b"\n") >= total // 2:
            half = time.monotonic()
        time.sleep(0.02)
    end = time.monotonic()
    if proc.returncode != 0:
        raise SystemExit(f"statebox run failed ({proc.returncode}): {proc.stderr.read() if proc.stderr else ''}")
    attempts = len(trials.read_text().splitlines())
    steady = (attempts - total // 2) / (end - half) if half is not None and end > half else float("nan")
    return attempts / (end - t0), steady


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks-count", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--llm-tasks-count", type=int, default=20)
    parser.add_argument("--llm-repeat", type=int, default=2)
    parser.add_argument("--latency-ms", type=int, default=50)
    args = parser.parse_args()
    print(f"# {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, Ray {ray.__version__}")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    address = ray.get_runtime_context().gcs_address
    on_ray = ["--executor", "ray", "--ray-address", address, "--workers", "2"]  # a worker per CPU, as --workers 2
    executors = {"--workers 2": ["--workers", "2"], "--executor ray --workers 2": on_ray}
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-ray-") as tmp:
        ref_tasks = task_ids(args.tasks_count)
        for name, executor in executors.items():
            rate = campaign(Path(tmp, f"ref{len(rows)}"), ref_tasks, args.repeat, executor, ["--agent", "reference"])
            rows.append((f"reference {len(ref_tasks)}x{args.repeat}", name, *rate))
        with fake_model(args.latency_ms) as base_url:
            llm = ["--agent", "llm", "--model", "openai:fake", "--base-url", base_url, "--user", "scripted"]
            os.environ.setdefault("OPENAI_API_KEY", "unused")
            llm_tasks = task_ids(args.llm_tasks_count)
            for name, executor in executors.items():
                rate = campaign(Path(tmp, f"llm{len(rows)}"), llm_tasks, args.llm_repeat, executor, llm)
                rows.append((f"fake model {args.latency_ms} ms, {len(llm_tasks)}x{args.llm_repeat}", name, *rate))
    ray.shutdown()
    print("| campaign | executor | attempts/s (wall) | attempts/s (second half) |\n|---|---|---:|---:|")
    for label, name, wall, steady in rows:
        print(f"| {label} | `{name}` | {wall:.1f} | {steady:.1f} |")


if __name__ == "__main__":
    main()
