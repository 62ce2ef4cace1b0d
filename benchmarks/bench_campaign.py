"""Campaign throughput through `statebox run`: a reference-agent campaign of 40 retail tasks x 20 repeats.

    python benchmarks/bench_campaign.py                         # the whole matrix, median of 3 runs each
    python benchmarks/bench_campaign.py --runs 1 --repeat 5     # a quick look
    python benchmarks/bench_campaign.py --profile               # also cProfile one campaign, print the top functions

Every campaign is a real `statebox run` subprocess (the CLI path a user takes), once per tools transport
(`--tools-via memory`, the default; `direct`; `http`) at concurrency 1 and 4. Attempts per second is the number of
attempts over the wall time of the process; "excl. start-up" first subtracts the wall time of a 1-attempt run with
the same options (interpreter start, imports, suite load, transport set-up). Runs are interleaved across the
configurations so that a change in machine load spreads over all of them rather than landing on one.
"""

from __future__ import annotations

import argparse
import os
import platform
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from statebox.suites import load_suite

STATEBOX = str(Path(sys.executable).with_name("statebox"))
TARGET = 200.0  # attempts per second, on a 2-core machine
# (transport, concurrency, worker processes)
CONFIGS = [
    ("memory", 1, 1), ("memory", 4, 1), ("memory", 4, 2),
    ("direct", 1, 1), ("direct", 4, 1), ("direct", 4, 2),
    ("http", 1, 1), ("http", 4, 1),
]  # fmt: skip


@dataclass
class Config:
    via: str
    concurrency: int
    workers: int = 1
    walls: list[float] = field(default_factory=list)
    startups: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.via}/c{self.concurrency}" + (f"/w{self.workers}" if self.workers > 1 else "")


def task_ids(count: int) -> list[str]:
    """The first `count` retail task ids in alphabetical order."""
    ids = sorted(t.id for t in load_suite("retail").tasks)
    if count > len(ids):
        raise SystemExit(f"retail has {len(ids)} tasks; --tasks-count {count} is too many")
    return ids[:count]


def run_command(tasks: list[str], repeat: int, cfg: Config, out: Path) -> list[str]:
    selection = [arg for task in tasks for arg in ("--tasks", task)]
    return [
        STATEBOX, "run", "retail", "--agent", "reference", "--repeat", str(repeat),
        "--concurrency", str(cfg.concurrency), "--workers", str(cfg.workers), "--tools-via", cfg.via, *selection,
        "--out", str(out), "--no-progress",
    ]  # fmt: skip


def timed_run(command: list[str], out: Path, attempts: int) -> float:
    """Wall seconds of one `statebox run`; checks that every attempt finished and passed."""
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"statebox run failed ({done.returncode}): {done.stderr}")
    lines = [ln for ln in (out / "trials.jsonl").read_text().splitlines() if ln.strip()]
    passed = sum('"passed":true' in ln for ln in lines)
    if len(lines) != attempts or passed != attempts:
        raise SystemExit(f"expected {attempts} passed attempts in {out}, found {len(lines)} ({passed} passed)")
    return wall


def measure(configs: list[Config], tasks: list[str], repeat: int, runs: int, work: Path) -> None:
    attempts = len(tasks) * repeat
    for r in range(runs):
        for cfg in configs:
            out = work / f"{cfg.name.replace('/', '-')}-start-{r}"
            cfg.startups.append(timed_run(run_command(tasks[:1], 1, cfg, out), out, 1))
            out = work / f"{cfg.name.replace('/', '-')}-run-{r}"
            cfg.walls.append(timed_run(run_command(tasks, repeat, cfg, out), out, attempts))
            print(f"  run {r + 1}/{runs} {cfg.name:10} {cfg.walls[-1]:7.2f} s  (start-up {cfg.startups[-1]:.2f} s)")


def rates(cfg: Config, attempts: int) -> tuple[float, float]:
    wall, startup = statistics.median(cfg.walls), statistics.median(cfg.startups)
    return attempts / wall, attempts / max(wall - startup, 1e-9)


def print_table(configs: list[Config], attempts: int) -> None:
    by_key = {(c.via, c.concurrency, c.workers): c for c in configs}
    header = (
        f"{'transport':9} {'conc':>4} {'proc':>4} {'wall s':>7} {'start s':>7} {'att/s':>7} {'excl.start':>10} "
        f"{'vs c1':>6} {'vs memory':>9} {'target':>7}"
    )
    print(header)
    print("-" * len(header))
    for cfg in configs:
        per_s, excl = rates(cfg, attempts)
        c1 = by_key.get((cfg.via, 1, 1))
        mem = by_key.get(("memory", cfg.concurrency, cfg.workers))
        vs_c1 = f"{excl / rates(c1, attempts)[1]:5.2f}x" if c1 else "-"
        vs_mem = f"{excl / rates(mem, attempts)[1]:8.2f}x" if mem else "-"
        verdict = "met" if excl >= TARGET else "missed"
        print(
            f"{cfg.via:9} {cfg.concurrency:>4} {cfg.workers:>4} {statistics.median(cfg.walls):7.2f} "
            f"{statistics.median(cfg.startups):7.2f} {per_s:7.1f} {excl:10.1f} {vs_c1:>6} {vs_mem:>9} {verdict:>7}"
        )
    print(f"\nratios use attempts/s excluding start-up; target: >= {TARGET:g} attempts/s")


def profile(tasks: list[str], repeat: int, work: Path, top: int) -> None:
    """cProfile one campaign (memory transport, concurrency 4) and print where the time goes."""
    cfg = Config("memory", 4)
    out, stats_file = work / "profiled", work / "campaign.prof"
    command = [sys.executable, "-m", "cProfile", "-o", str(stats_file), *run_command(tasks, repeat, cfg, out)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"profiled run failed: {done.stderr}")
    stats = pstats.Stats(str(stats_file))
    stats.strip_dirs()
    print(f"\n== cProfile of {cfg.name}, {len(tasks)} tasks x {repeat} repeats: top {top} by own time ==")
    stats.sort_stats("tottime").print_stats(top)
    print(f"== top {top} by cumulative time ==")
    stats.sort_stats("cumulative").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks-count", type=int, default=40, help="how many retail tasks (alphabetical)")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3, help="runs per configuration; the median is reported")
    parser.add_argument("--only", nargs="*", default=None, help="configurations to run, e.g. memory/c4 http/c1")
    parser.add_argument("--profile", action="store_true", help="also cProfile one campaign")
    parser.add_argument("--top", type=int, default=30, help="functions shown by --profile")
    args = parser.parse_args()

    tasks = task_ids(args.tasks_count)
    attempts = len(tasks) * args.repeat
    configs = [Config(v, c, w) for v, c, w in CONFIGS]
    if args.only:
        configs = [c for c in configs if c.name in args.only]
    skipped = sorted(set(t.id for t in load_suite("retail").tasks) - set(tasks))
    print(
        f"statebox run retail --agent reference: {len(tasks)} tasks x {args.repeat} repeats = {attempts} attempts, "
        f"median of {args.runs} runs\nleft out: {', '.join(skipped) or 'none'}\n"
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start"
    )
    with tempfile.TemporaryDirectory(prefix="bench-campaign-") as tmp:
        work = Path(tmp)
        measure(configs, tasks, args.repeat, args.runs, work)
        print(f"load average {os.getloadavg()[0]:.2f} at end\n")
        print_table(configs, attempts)
        if args.profile:
            profile(tasks, args.repeat, work, args.top)


if __name__ == "__main__":
    main()
