"""Latency-bound campaigns: `statebox run` against a fake model that takes L ms per reply.

    python benchmarks/bench_latency_campaign.py                                  # 1000 ms at concurrency 256, ~2 min
    python benchmarks/bench_latency_campaign.py --latency-ms 1000 --concurrency 256 --jitter-ms 0 500
    python benchmarks/bench_latency_campaign.py --latency-ms 200 1000 --concurrency 64 256
    python benchmarks/bench_latency_campaign.py --latency-ms 1000 --concurrency 1024 --waves 3

Each configuration is one real `statebox run retail --agent llm --user scripted` subprocess (worker
processes chosen automatically, as a user gets them) against the fake model (`python -m
statebox.fakemodel retail --latency-ms L`, what `statebox fake-model` runs) in its own process. It
runs `--waves` x concurrency attempts (8 by default): a campaign of a few waves is mostly its ramp
and its tail, which no harness can avoid; the steady share says what the harness does with the
attempts in flight. With `--jitter-ms J` each reply takes L +- J (uniform, mean L) instead of
exactly L, so the attempts in flight drift out of step as with a real endpoint. Reported per
configuration:

- attempts/s: attempts over the run's wall time from the model's first request to the end of
  the run (process start-up and suite preparation left out);
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
import math
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
SUITE = "retail"


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
def fake_model(latency_ms: int, jitter_ms: int) -> Iterator[tuple[str, int]]:
    port = free_port()
    command = [sys.executable, "-m", "statebox.fakemodel", SUITE, "--port", str(port), "--latency-ms", str(latency_ms)]
    command += ["--latency-jitter-ms", str(jitter_ms)]
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
    jitter_ms: int
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


def run_campaign(
    latency_ms: int,
    jitter_ms: int,
    concurrency: int,
    repeat: int,
    workers: int,
    work: Path,
    extra: tuple[str, ...] = (),
) -> Result:
    """One campaign; `extra`: more `statebox run` options (bench_ray_nodes.py: the Ray executor)."""
    out = work / f"l{latency_ms}-j{jitter_ms}-c{concurrency}-w{workers}"
    with fake_model(latency_ms, jitter_ms) as (base_url, model_pid):
        model_cpu0 = cpu_seconds(model_pid)
        children0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        command = [
            STATEBOX, "run", SUITE, "--agent", "llm", "--model", "openai:fake", "--base-url", base_url,
            "--user", "scripted", "--repeat", str(repeat), "--concurrency", str(concurrency),
            "--request-timeout", "600", "--time-budget", "3600", "--workers", str(workers), "--no-progress",
            "--out", str(out), *extra,
        ]  # fmt: skip
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        samples: list[tuple[float, int]] = []  # (time, completions so far)
        peak, processes, first_request = 0, 0, None
        while proc.poll() is None:
            now = time.monotonic()
            rss, count = tree_rss_bytes(proc.pid)
            peak, processes = max(peak, rss), max(processes, count)
            try:
                stats = fetch_stats(base_url)
            except OSError:  # the fake model is too busy to answer in time: no sample this round
                continue
            if stats["requests"] and first_request is None:
                first_request = now
            samples.append((now, stats["completions"]))
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
        jitter_ms=jitter_ms,
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
    parser.add_argument("--jitter-ms", type=int, nargs="+", default=[0], help="each reply L +- this (0: exactly L)")
    parser.add_argument("--waves", type=float, default=8, help="attempts = about waves x concurrency")
    parser.add_argument("--repeat", type=int, default=0, help="repeats per task (0: from --waves)")
    parser.add_argument("--workers", type=int, default=0, help="statebox run --workers (0: automatic)")
    args = parser.parse_args()
    from statebox.suites import load_suite

    tasks = len(load_suite(SUITE).tasks)
    print(
        f"statebox run {SUITE} --agent llm (fake model), scripted customer, --workers {args.workers}, {tasks} tasks\n"
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average {load()} at start",
        flush=True,
    )
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
        for latency in args.latency_ms:
            for jitter in args.jitter_ms:
                for concurrency in args.concurrency:
                    repeat = args.repeat or max(1, math.ceil(args.waves * concurrency / tasks))
                    result = run_campaign(latency, min(jitter, latency), concurrency, repeat, args.workers, Path(tmp))
                    results.append(result)
                    print(
                        f"  {describe(result)}: {result.attempts} attempts in {result.wall_s:.1f} s, load {load()}",
                        flush=True,
                    )
    print(f"load average {load()} at end\n")
    print_table(results)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def describe(r: Result) -> str:
    latency = f"{r.latency_ms} ms" + (f" +- {r.jitter_ms}" if r.jitter_ms else " fixed")
    return f"{latency}, concurrency {r.concurrency}"


def print_table(results: list[Result]) -> None:
    """share: attempts/s over ideal for the whole run; steady: the middle 80% of the model calls."""
    header = (
        f"{'latency':>14} {'conc':>5} {'attempts':>8} {'calls/att':>9} {'att/s':>7} {'ideal':>7} "
        f"{'share':>6} {'steady':>6} {'procs':>5} {'peak MiB':>8} {'sb CPU s':>8} {'model CPU s':>11}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        latency = f"{r.latency_ms} ms" + (f" +-{r.jitter_ms}" if r.jitter_ms else " fixed")
        print(
            f"{latency:>14} {r.concurrency:>5} {r.attempts:>8} {r.calls_per_attempt:>9.1f} {r.achieved:>7.1f} "
            f"{r.ideal:>7.1f} {r.achieved / r.ideal:>6.0%} {r.steady_share:>6.0%} {r.processes:>5} "
            f"{r.peak_rss / 2**20:>8.0f} {r.statebox_cpu_s:>8.1f} {r.model_cpu_s:>11.1f}"
        )
    print("share: attempts/s / ideal over the whole run (ramp and tail included); steady: model calls/s")
    print("while the middle 80% of them were answered / (concurrency / L). ideal = concurrency / (calls x L).")


if __name__ == "__main__":
    main()
