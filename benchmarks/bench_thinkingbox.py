"""ThinkingBox-Bench attempt throughput: the fork server against a plain process start per attempt.

    python benchmarks/bench_thinkingbox.py              # 200 forked vs 15 plain attempts at concurrency 1 and 4, 3 runs
    python benchmarks/bench_thinkingbox.py --runs 1 --fork-attempts 50 --plain-attempts 5   # a quick look

A fake checkout is generated whose server package burns `--import-cpu` seconds of CPU when imported
(the published servers take 1.1-1.9 s). Reference-agent campaigns over its retail tasks (the server
started as `{python} -m module`, so it can be forked) run in process through the real runner path
(`Campaign` -> `TbSource` -> `TbBackend` -> `ToolServerLauncher`), once with the fork server and once
with `fork=False`, interleaved. Attempts per second is attempts over the campaign's wall time;
"steady" first subtracts the wall time of a 1-attempt campaign with the same options (for the fork
server that is mostly the template's one import). Start-up per attempt is the trial's `setup_s`:
process (fork or start), MCP handshake, `__reserved__init`, tool list; its target holds at
concurrency 1 (at higher concurrency on 2 cores it also counts waiting for a core).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import platform
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from statebox.compat.thinkingbox import TbRunOptions, load_tb_suite
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the fake checkout is a test double
from tbfakes import RETAIL, make_fake_checkout

STARTUP_TARGET_S = 0.020  # per attempt, with the fork server
OFFICIAL_RATE = 0.55  # attempts/s of the official harness on this machine (instant model)


@dataclass
class Mode:
    name: str
    fork: bool
    attempts: int
    concurrency: int
    walls: list[float] = field(default_factory=list)
    fixed: list[float] = field(default_factory=list)  # wall of a 1-attempt campaign
    setups: list[float] = field(default_factory=list)
    totals: list[float] = field(default_factory=list)

    def rate(self) -> float:
        return self.attempts / statistics.median(self.walls)

    def steady_rate(self) -> float:
        return (self.attempts - 1) / max(statistics.median(self.walls) - statistics.median(self.fixed), 1e-9)


def campaign(
    data: Path, out: Path, fork: bool, attempts: int, concurrency: int
) -> tuple[float, list[float], list[float]]:
    """Wall time of one reference campaign of `attempts` attempts, and each trial's setup and total time."""
    suite = load_tb_suite(data, options=TbRunOptions(fork=fork)).select([f"{RETAIL}*"])
    repeat = math.ceil(attempts / len(suite.tasks))
    suite = suite if attempts >= len(suite.tasks) else suite.select(ids=[t.id for t in suite.tasks[:attempts]])
    config = CampaignConfig(
        suite=suite, agent="reference", out=out, repeat=repeat, concurrency=concurrency, progress=False
    )
    runner = Campaign(config)
    items = repeat * len(suite.tasks)
    if items != attempts:
        raise SystemExit(f"{attempts} attempts is not a multiple of the {len(suite.tasks)} retail tasks")
    start = time.perf_counter()
    result = asyncio.run(runner.run())
    wall = time.perf_counter() - start
    if result.errors or result.failed:
        raise SystemExit(f"campaign failed: {result}")
    trials = runner.run_dir.trials()
    return wall, [t.timings["setup_s"] for t in trials], [t.timings["total_s"] for t in trials]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fork-attempts", type=int, default=200)
    parser.add_argument("--plain-attempts", type=int, default=15)
    parser.add_argument("--concurrency", default="1,4", help="comma-separated concurrencies")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--import-cpu", type=float, default=1.0, help="CPU seconds the fake server's import burns")
    args = parser.parse_args()
    levels = [int(c) for c in args.concurrency.split(",")]
    modes = [
        Mode(name, fork, attempts, c)
        for c in levels
        for name, fork, attempts in (
            ("fork server", True, args.fork_attempts),
            ("plain start", False, args.plain_attempts),
        )
    ]
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
        f"server import {args.import_cpu:g} s CPU; {args.runs} run(s)\n"
    )
    with tempfile.TemporaryDirectory(prefix="statebox-bench-tb-") as tmp:
        data = make_fake_checkout(Path(tmp) / "checkout", import_cpu_s=args.import_cpu).root
        for r in range(args.runs):
            for mode in modes:
                out = Path(tmp) / f"{mode.name}-c{mode.concurrency}-{r}"
                fixed, _, _ = campaign(data, out.with_name(out.name + "-one"), mode.fork, 1, mode.concurrency)
                wall, setups, totals = campaign(data, out, mode.fork, mode.attempts, mode.concurrency)
                mode.fixed.append(fixed)
                mode.walls.append(wall)
                mode.setups += setups
                mode.totals += totals
                print(f"  run {r + 1}/{args.runs} {mode.name:12} c{mode.concurrency} {mode.attempts:4} attempts "
                      f"in {wall:6.2f} s (1-attempt campaign {fixed:.2f} s)")  # fmt: skip
    header = (
        f"{'mode':12} {'conc.':>5} {'attempts':>8} {'att/s':>8} {'steady att/s':>13} "
        f"{'start-up p50':>13} {'p90':>9} {'attempt p50':>12}"
    )
    print(f"\n{header}\n{'-' * len(header)}")
    for mode in modes:
        print(
            f"{mode.name:12} {mode.concurrency:5} {mode.attempts:8} {mode.rate():8.2f} {mode.steady_rate():13.2f} "
            f"{statistics.median(mode.setups) * 1000:10.1f} ms {percentile(mode.setups, 0.9) * 1000:6.1f} ms "
            f"{statistics.median(mode.totals) * 1000:9.1f} ms"
        )
    for fork, plain in zip(modes[::2], modes[1::2], strict=True):
        print(
            f"\nconcurrency {fork.concurrency}: fork server / plain start {fork.rate() / plain.rate():.1f}x attempts/s "
            f"({fork.steady_rate() / plain.steady_rate():.1f}x steady); "
            f"vs the official harness ({OFFICIAL_RATE} att/s): {fork.rate() / OFFICIAL_RATE:.0f}x"
        )
    first = modes[0]
    startup = statistics.median(first.setups)
    verdict = "met" if startup < STARTUP_TARGET_S else "NOT met"
    print(
        f"start-up per attempt with the fork server at concurrency {first.concurrency}: "
        f"{startup * 1000:.1f} ms (target < 20 ms: {verdict})"
    )
    print(f"load average {os.getloadavg()[0]:.2f} at end", file=sys.stderr)


if __name__ == "__main__":
    main()
