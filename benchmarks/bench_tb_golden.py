"""The most a golden-state cache could save per ThinkingBox-Bench attempt, measured on the real servers.

    python benchmarks/bench_tb_golden.py                   # 5 tasks per domain, 7 rounds
    python benchmarks/bench_tb_golden.py --per-domain 2 --rounds 3

A statebox-side cache of the golden state would let an attempt's `__reserved__init` leave out the
task's `golden_test_case`, so that the server's `__reserved__geteffects` no longer replays the
reference. The servers' geteffects builds a fresh database and hashes and diffs it whether or not
there is anything to replay, so the saving is the replay alone. This times geteffects (one server,
no agent calls in between) with the full init config and with `golden_test_case` left out,
interleaved per task on fresh forked servers, and prints the medians and their difference.
Needs the environment of `benchmarks/tb_env.py` (../shared/thirdparty).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from statebox.compat.thinkingbox import load_tb_suite
from statebox.compat.thinkingbox.launch import BenchLaunch, bench_launcher
from statebox.compat.thinkingbox.protocol import EFFECTS_TOOL, reserved_init, result_text
from statebox.compat.thinkingbox.suite import TbSuite
from statebox.mcp.launch import ToolServerLauncher

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tb_env  # a sibling script


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def sample(suite: TbSuite, per_domain: int) -> list[str]:
    """The first `per_domain` database-checked tasks of each domain, in test-list order."""
    picked: dict[str, list[str]] = {}
    for task in suite.tasks:
        bench = suite.bench(task.id)
        if bench.custom_check is None and len(bench.servers) == 1:
            chosen = picked.setdefault(task.domain, [])
            if len(chosen) < per_domain:
                chosen.append(task.id)
    return [task_id for ids in picked.values() for task_id in ids]


async def effects_ms(launcher: ToolServerLauncher, server: str, config: dict[str, Any]) -> float:
    """The wall time of one geteffects on a fresh server initialised with `config`."""
    async with launcher.connect(server) as link:
        await reserved_init(link.session, server, config)
        start = time.perf_counter()
        answer = result_text(await link.session.call_tool(EFFECTS_TOOL, {}))
        spent = 1000 * (time.perf_counter() - start)
    if '"status": "error"' in answer[:200]:
        raise SystemExit(f"{server}: geteffects failed: {answer[:300]}")
    return spent


async def measure(suite: TbSuite, python: str, ids: list[str], rounds: int) -> list[tuple[str, float, float, int]]:
    """Per task: median geteffects ms with the golden test case, without it, and its replayed calls."""
    rows = []
    launcher = bench_launcher(suite.checkout.servers(), suite.checkout.root, BenchLaunch(python=python))
    async with launcher:
        for task_id in ids:
            bench = suite.bench(task_id)
            server = bench.servers[0]
            full = suite.checkout.init_config(bench.tb, server).config
            bare = {key: value for key, value in full.items() if key != "golden_test_case"}
            calls = len((full.get("golden_test_case") or {}).get("tool_interactions") or [])
            with_golden, without = [], []
            for _ in range(rounds):
                with_golden.append(await effects_ms(launcher, server, full))
                without.append(await effects_ms(launcher, server, bare))
            rows.append((task_id, statistics.median(with_golden), statistics.median(without), calls))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-domain", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--thirdparty", type=Path, default=tb_env.DEFAULT_THIRDPARTY, help="the releases folder")
    args = parser.parse_args(argv)
    try:
        env = tb_env.build_env(args.thirdparty)
    except tb_env.EnvError as e:
        print(f"bench_tb_golden: {e}", file=sys.stderr)
        return 1
    suite = load_tb_suite(env.data)
    ids = sample(suite, args.per_domain)
    print(f"{len(ids)} tasks, {args.rounds} rounds; load average {load()} at start")
    rows = asyncio.run(measure(suite, str(env.python), ids, args.rounds))
    print("| task | replayed calls | geteffects with golden (ms) | without (ms) | saving (ms) |")
    print("|---|---|---|---|---|")
    for task_id, full, bare, calls in rows:
        print(f"| {task_id} | {calls} | {full:.1f} | {bare:.1f} | {full - bare:+.1f} |")
    full_ms = statistics.median(r[1] for r in rows)
    bare_ms = statistics.median(r[2] for r in rows)
    saving = statistics.median(r[1] - r[2] for r in rows)
    share = 100 * saving / full_ms
    print(f"median over tasks: with golden {full_ms:.1f} ms, without {bare_ms:.1f} ms, "
          f"saving {saving:+.1f} ms ({share:+.0f}% of geteffects); load average {load()} at end")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
