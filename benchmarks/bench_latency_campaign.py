"""Latency-bound campaigns: `statebox run` against a fake model that takes L ms per reply.

    python benchmarks/bench_latency_campaign.py                                  # 1000 ms at concurrency 256
    python benchmarks/bench_latency_campaign.py --latency-ms 200 1000 --concurrency 64 256
    python benchmarks/bench_latency_campaign.py --latency-ms 1000 --concurrency 1024 --repeat 25

Each configuration is one real `statebox run retail --agent llm --user scripted` subprocess (worker
processes chosen automatically, as a user gets them) against `statebox fake-model retail
--latency-ms L` in its own process. Reported per configuration:

- attempts/s: attempts over the run's wall time from the model's first request to the last
  trial (process start-up and suite preparation left out);
- ideal attempts/s: concurrency / the endpoint's share of an attempt (its model calls x L), the
  rate if every attempt in flight were always waiting on the model and nothing else;
- steady state: model calls per second while the middle 80% of the calls were answered, as a
  share of the ideal concurrency / L (the ramp-up and the tail of the last attempts left out);
- peak memory: the largest summed RSS of the `statebox run` process and its worker processes,
  sampled every 0.2 s;
- CPU seconds of `statebox run` (with its workers) and of the fake model, apart.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

STATEBOX = str(Path(sys.executable).with_name("statebox"))
TASKS = 42  # retail


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fetch_stats(base_url: str) -> dict[str, int]:
    with urllib.request.urlopen(f"{base_url.removesuffix('/v1')}/stats", timeout=5) as response:
        return dict(json.load(response))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a live process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def fake_model(latency_ms: int) -> Iterator[tuple[str, int]]:
    port = free_port()
    command = [STATEBOX, "fake-model", "retail", "--port", str(port), "--latency-ms", str(latency_ms)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                fetch_stats(base_url)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the fake model did not start") from None
                time.sleep(0.05)
        yield base_url, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def tree_rss_bytes(pid: int) -> tuple[int, int]:
    """Summed resident memory of a process and its descendants (Linux /proc), and how many they are."""
    total, count, stack = 0, 0, [pid]
    while stack:
        current = stack.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        count += 1
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
        stack.extend(int(c) for c in children)
    return total, count


@dataclass
class Result:
    latency_ms: int
    concurrency: int
    attempts: int
    calls: int
    wall_s: float  # from the first model request to the end of the run
    steady_calls_per_s: float
    peak_rss: int
    statebox_cpu_s: float  # the run's process and its workers
    model_cpu_s: float  # the fake model's process
    processes: int  # the most statebox processes seen at once (1 + worker processes)

    @property
    def calls_per_attempt(self) -> float:
        return self.calls / self.attempts

    @property
    def ideal(self) -> float:
        return self.concurrency / (self.calls_per_attempt * self.latency_ms / 1000)

    @property
    def achieved(self) -> float:
        return self.attempts / self.wall_s

    @property
    def steady_share(self) -> float:
        return self.steady_calls_per_s / (self.concurrency / (self.latency_ms / 1000))


def run_campaign(latency_ms: int, concurrency: int, repeat: int, workers: int, work: Path) -> Result:
    out = work / f"l{latency_ms}-c{concurrency}-w{workers}"
    with fake_model(latency_ms) as (base_url, model_pid):
        model_cpu0 = cpu_seconds(model_pid)
        children0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        command = [
            STATEBOX, "run", "retail", "--agent", "llm", "--model", "openai:fake", "--base-url", base_url,
            "--user", "scripted", "--repeat", str(repeat), "--concurrency", str(concurrency),
            "--request-timeout", "600", "--time-budget", "3600", "--workers", str(workers), "--no-progress",
            "--out", str(out),
        ]  # fmt: skip
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        samples: list[tuple[float, int]] = []  # (time, completions so far)
        peak, processes, first_request = 0, 0, None
        while proc.poll() is None:
            now = time.monotonic()
            rss, count = tree_rss_bytes(proc.pid)
            peak, processes = max(peak, rss), max(processes, count)
            try:
                done = fetch_stats(base_url)["completions"]
            except OSError:  # the fake model is too busy to answer in time: no sample this round
                continue
            if done and first_request is None:
                first_request = now
            samples.append((now, done))
            time.sleep(0.2)
        ended = time.monotonic()
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        statebox_cpu = children.ru_utime + children.ru_stime - children0.ru_utime - children0.ru_stime
        model_cpu = cpu_seconds(model_pid) - model_cpu0
        stderr = proc.stderr.read() if proc.stderr else ""
        if proc.returncode != 0:
            raise SystemExit(f"statebox run failed ({proc.returncode}): {stderr}")
    trials = [json.loads(line) for line in (out / "trials.jsonl").read_text().splitlines() if line.strip()]
    calls = sum(1 for t in trials for e in t["transcript"]["entries"] if e["role"] == "agent" and e.get("usage"))
    return Result(
        latency_ms=latency_ms,
        concurrency=concurrency,
        attempts=len(trials),
        calls=calls,
        wall_s=ended - (first_request or ended),
        steady_calls_per_s=steady_rate(samples),
        peak_rss=peak,
        statebox_cpu_s=statebox_cpu,
        model_cpu_s=model_cpu,
        processes=processes,
    )


def steady_rate(samples: list[tuple[float, int]]) -> float:
    """Completions per second between the samples at 10% and 90% of the final count."""
    total = samples[-1][1] if samples else 0
    low = next(((t, n) for t, n in samples if n >= 0.1 * total), None)
    high = next(((t, n) for t, n in samples if n >= 0.9 * total), None)
    if low is None or high is None or high[0] <= low[0]:
        return 0.0
    return (high[1] - low[1]) / (high[0] - low[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency-ms", type=int, nargs="+", default=[1000])
    parser.add_argument("--concurrency", type=int, nargs="+", default=[256])
    parser.add_argument("--repeat", type=int, default=0, help="repeats per task; 0: enough for ~3 waves")
    parser.add_argument("--workers", type=int, default=0, help="statebox run --workers (0: automatic)")
    args = parser.parse_args()
    print(
        f"statebox run retail --agent llm (fake model), scripted customer, --workers {args.workers}\n"
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start"
    )
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
        for latency in args.latency_ms:
            for concurrency in args.concurrency:
                repeat = args.repeat or max(1, -(-3 * concurrency // TASKS))
                result = run_campaign(latency, concurrency, repeat, args.workers, Path(tmp))
                results.append(result)
                print(
                    f"  {latency} ms, concurrency {concurrency}: {result.attempts} attempts in {result.wall_s:.1f} s",
                    flush=True,
                )
    print(f"load average {os.getloadavg()[0]:.2f} at end\n")
    header = (
        f"{'latency':>7} {'conc':>5} {'attempts':>8} {'calls/att':>9} {'att/s':>7} {'ideal':>7} "
        f"{'share':>6} {'steady':>6} {'procs':>5} {'peak MiB':>8} {'sb CPU s':>8} {'model CPU s':>11}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        print(
            f"{r.latency_ms:>5}ms {r.concurrency:>5} {r.attempts:>8} {r.calls_per_attempt:>9.1f} {r.achieved:>7.1f} "
            f"{r.ideal:>7.1f} {r.achieved / r.ideal:>6.0%} {r.steady_share:>6.0%} {r.processes:>5} "
            f"{r.peak_rss / 2**20:>8.0f} {r.statebox_cpu_s:>8.1f} {r.model_cpu_s:>11.1f}"
        )


if __name__ == "__main__":
    main()
