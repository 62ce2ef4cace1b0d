"""Memory of concurrent attempts: N retail attempts held open in one process, as the proxy holds them.

    python benchmarks/bench_memory.py                    # 1,000 attempts of one task, then of every task
    python benchmarks/bench_memory.py --attempts 200 --tasks one

Each attempt is a real `BackendAttempt` made by `HostedAttemptFactory(provider_opener({}))`, the
factory `statebox proxy` uses, so it is what the proxy keeps per attempt: the world backend with its
session restored from the task's baseline image, the bound tools, the customer channel with its
transcript, and the asyncio task that holds the attempt's tools open between requests. Each makes
one write (`create_ticket`, through the attempt's surface) so its database has a dirty page, as in
the proxy capacity benchmark of bench_mcp.py. The process's RSS and PSS come from /proc/self/smaps_rollup after the
suite and the baselines are loaded (warm) and with all N attempts open; per attempt is the
difference over N. PSS counts a page mapped several times once, RSS once per mapping. The
fresh-session time (baseline image restored + first query, as bench_world.py) and the effects time
after a reference replay are measured too, so a memory saving that costs time shows. Each
configuration runs on both ways a session is restored, each in its own process: copy-on-write over
the baseline image (`--restore cow`, the statebox-cow VFS: an attempt holds the pages it wrote) and
the fallback that copies the whole image (`--restore copy`, STATEBOX_COW=0). Linux only (it reads /proc).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from statebox.judge import replay
from statebox.runner.hosted_suite import BackendAttempt, HostedAttemptFactory
from statebox.suites import Suite
from statebox.suites.provider import provider_opener
from statebox.tasks import Task
from statebox.world import Session, cow

ONE_TASK = "defective_blender_replacement_gold"
TARGET_AT_1000 = 2**30  # 1,000 concurrent retail attempts in <= 1 GB


def rollup() -> dict[str, int]:
    """Rss, Pss, ... of this process in bytes, from /proc/self/smaps_rollup."""
    out: dict[str, int] = {}
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if len(parts) == 2 and parts[1] == "kB":
            out[name] = int(parts[0]) * 1024
    return out


def kib(n: float) -> str:
    return f"{n / 2**10:,.0f} KiB"


def mib(n: float) -> str:
    return f"{n / 2**20:,.1f} MiB"


@dataclass
class Filled:
    label: str
    attempts: int
    warm: dict[str, int]
    full: dict[str, int]
    seconds: float
    overlay: int  # bytes of written pages the attempts' copy-on-write files hold (0 on the copy path)

    def per_attempt(self, field: str) -> float:
        return (self.full[field] - self.warm[field]) / self.attempts

    def at_1000(self, field: str) -> float:
        return self.warm[field] + 1000 * self.per_attempt(field)


def hold_one(suite: Suite, task: Task, hold: str, pages: cow.Image | None) -> object:
    """What one attempt keeps: its private image alone, its session after a query, or a whole attempt.

    The image alone is a bare connection: a deserialized copy, or a copy-on-write file over `pages`.
    """
    if hold == "image":
        if pages is not None:
            return cow.connect(pages)
        conn = sqlite3.connect(":memory:")
        conn.deserialize(suite.baseline(task).image)
        return conn
    session = suite.open_session(task)
    session.db.execute("SELECT count(*) FROM _sb_changes").fetchone()
    return session


async def fill(
    factory: HostedAttemptFactory, suite: Suite, tasks: list[Task], n: int, label: str, hold: str
) -> Filled:
    for t in tasks:  # baselines and required effects are per task, built once: part of "warm"
        await (await factory(suite.name, t.id, None)).close()
    gc.collect()
    warm = rollup()
    held: list[BackendAttempt] = []
    t0 = time.perf_counter()
    kept: list[object] = []
    pages = cow.register(suite.baseline(tasks[0]).image) if hold == "image" and cow.enabled() else None
    for i in range(n):
        task = tasks[i % len(tasks)]
        if hold != "attempt":
            kept.append(hold_one(suite, task, hold, pages))
            continue
        attempt = await factory(suite.name, task.id, None)
        customer = next(iter(task.initial_rows.get("customers", [])), {}).get("id", "CUS-0001")
        outcome = await attempt.surface.call_tool(
            "create_ticket", {"customer_id": customer, "subject": f"attempt {i}", "description": "memory benchmark"}
        )
        if outcome.is_error:
            raise SystemExit(f"task {task.id}: create_ticket failed: {outcome.text}")
        held.append(attempt)
    seconds = time.perf_counter() - t0
    gc.collect()
    full = rollup()
    overlay = cow.stats().get("overlay_bytes", 0)
    for a in held:
        await a.close()
    del kept
    return Filled(label, n, warm, full, seconds, overlay)


def fresh_session_ms(suite: Suite, task: Task, repeat: int) -> tuple[float, float]:
    """Median and p90 of a fresh session at the task's start (restore + one query), in ms."""
    suite.baseline(task)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        session = suite.open_session(task)
        session.db.execute("SELECT count(*) FROM _sb_changes").fetchone()
        times.append(time.perf_counter() - t0)
        session.close()
    times.sort()
    return statistics.median(times) * 1e3, times[int(0.9 * len(times))] * 1e3


def effects_ms(suite: Suite, repeat: int) -> tuple[float, float]:
    """Median and p90 of `Session.effects()` right after each reference replay, in ms."""
    times: list[float] = []

    def timed(session: Session) -> None:
        t0 = time.perf_counter()
        session.effects()
        times.append(time.perf_counter() - t0)

    for _ in range(repeat):
        for task in suite.tasks:
            if task.reference:
                replay(suite, task, task.reference, at_end=timed)
    times.sort()
    return statistics.median(times) * 1e3, times[int(0.9 * len(times))] * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attempts", type=int, default=1000)
    parser.add_argument("--tasks", choices=("one", "all", "both"), default="both",
                        help="one task, every task round-robin, or both (two processes)")
    parser.add_argument("--hold", choices=("attempt", "session", "image"), default="attempt",
                        help="what each of the N keeps: a whole attempt (default), its session, its image alone")
    parser.add_argument("--restore", choices=("cow", "copy", "both"), default="both",
                        help="copy-on-write sessions, the fallback that copies the image, or both (two processes)")
    parser.add_argument("--repeat", type=int, default=2000, help="fresh sessions timed")
    parser.add_argument("--effects-repeat", type=int, default=3, help="replays of every reference, effects timed")
    args = parser.parse_args()
    if args.tasks == "both" or args.restore == "both":  # each in its own process: freed memory is reused
        argv = [sys.executable, __file__, "--attempts", str(args.attempts), "--repeat", str(args.repeat),
                "--effects-repeat", str(args.effects_repeat)]
        runs = [(args.tasks, args.hold)] if args.tasks != "both" else [
            ("one", "attempt"), ("all", "attempt"), ("one", "session"), ("one", "image")]
        for restore in ("cow", "copy") if args.restore == "both" else (args.restore,):
            for tasks, hold in runs:
                subprocess.run([*argv, "--tasks", tasks, "--hold", hold, "--restore", restore], check=True,
                               env={**os.environ, cow.ENV: "1" if restore == "cow" else "0"})
        return
    if args.restore == "cow" and not cow.enabled():
        raise SystemExit(f"--restore cow: {cow.status()}")
    os.environ[cow.ENV] = "1" if args.restore == "cow" else "0"
    asyncio.run(measure(args))


async def measure(args: argparse.Namespace) -> None:
    """One configuration, in this process: the fresh-session time, the N attempts, the effects time."""
    print(f"python {platform.python_version()}, sqlite {sqlite3.sqlite_version}, {platform.machine()}")
    print(f"restore: {args.restore}: {cow.status()}")
    factory = HostedAttemptFactory(provider_opener({}))  # as `statebox proxy` builds it, without suite options
    suite = (await factory.host("retail")).suite
    if not isinstance(suite, Suite):
        raise SystemExit(f"retail opened as a {type(suite).__name__}, not a built-in Suite")
    image = suite.baseline(suite.task(ONE_TASK)).image
    print(f"retail baseline image of {ONE_TASK}: {len(image):,} bytes per attempt's private database")
    med, p90 = fresh_session_ms(suite, suite.task(ONE_TASK), args.repeat)
    print(f"fresh session (restore + first query): median {med:.3f} ms, p90 {p90:.3f} ms")
    runs = []
    if args.tasks == "one":
        runs.append((f"one task, {args.hold}s", [suite.task(ONE_TASK)]))
    else:
        runs.append((f"all {len(suite.tasks)} tasks round-robin, {args.hold}s", list(suite.tasks)))
    print()
    print(f"{'held open':<44} {'n':>6} {'RSS warm':>11} {'RSS full':>11} {'RSS/att':>10} "
          f"{'PSS/att':>10} {'PSS at 1,000':>13} {'s/att':>8}")
    for label, tasks in runs:
        f = await fill(factory, suite, tasks, args.attempts, label, args.hold)
        print(f"{label:<44} {f.attempts:>6} {mib(f.warm['Rss']):>11} {mib(f.full['Rss']):>11} "
              f"{kib(f.per_attempt('Rss')):>10} {kib(f.per_attempt('Pss')):>10} {mib(f.at_1000('Pss')):>13} "
              f"{f.seconds / f.attempts * 1e3:>6.2f}ms")
        if f.overlay:
            print(f"  written pages held (statebox-cow overlays): {kib(f.overlay / f.attempts)} per attempt")
        ok = f.at_1000("Pss") <= TARGET_AT_1000
        print(f"  -> 1,000 attempts: {mib(f.at_1000('Pss'))} PSS; target <= 1 GiB: {'met' if ok else 'MISSED'}")
    if args.effects_repeat:  # after the memory is measured: replaying every reference loads every baseline
        med, p90 = effects_ms(suite, args.effects_repeat)
        print(f"effects after a reference replay ({args.effects_repeat} x every task): "
              f"median {med:.3f} ms, p90 {p90:.3f} ms")
    await factory.aclose()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
