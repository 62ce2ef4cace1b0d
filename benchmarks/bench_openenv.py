"""The OpenEnv server: step latency over the WebSocket, and memory of concurrent sessions.

    python benchmarks/bench_openenv.py                         # 400 steps, 100 sessions
    python benchmarks/bench_openenv.py --steps 1000 --sessions 200

Starts `statebox openenv-serve retail` as a subprocess (as a trainer would run it) and talks to it
with OpenEnv's own client over a real loopback socket. Latency: one session, a read tool call
(`get_order`) per step, timed at the client from send to parsed observation; 20 calls per episode
(the turn's step limit is 25), then a reset (not timed). A message to the scripted customer is timed
separately. Memory: the server's RSS and PSS (/proc/PID/smaps_rollup) and its thread count once ready
and with N sessions open, each reset and with one write (`create_ticket`) made; then what one session
holds, measured in process over the same N episodes: SQLite's own memory (`sqlite3_memory_used`, and
how much of it is page cache), Python objects (tracemalloc), and the rest of the RSS. Linux only.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import gc
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import httpx

from statebox.openenv.client import StateboxEnv
from statebox.openenv.models import StateboxAction

TASK = "air_purifier_return_refund_wrong_rma_number"
TARGET_STEP_MS = 5.0
TARGET_MEMORY = 500 * 2**20  # 100 concurrent sessions in <= 500 MB
READ = StateboxAction(tool="get_order", arguments={"order_id": "ORD-91061"})
WRITE = StateboxAction(tool="create_ticket", arguments={
    "customer_id": "CUS-9106", "priority": "normal", "subject": "bench", "description": "bench"})


def rollup(pid: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        key, value = line.split(":", 1)
        out[key] = int(value.split()[0]) * 1024
    return out


def threads(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("Threads:")))


def start_server(port: int, max_sessions: int) -> subprocess.Popen[bytes]:
    statebox = Path(sys.executable).with_name("statebox")
    proc = subprocess.Popen([str(statebox), "openenv-serve", "retail", "--port", str(port), "--max-sessions",
                             str(max_sessions)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/ready", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("openenv-serve did not become ready")


async def step_latency(url: str, steps: int) -> tuple[list[float], list[float]]:
    tool_ms: list[float] = []
    message_ms: list[float] = []
    async with StateboxEnv(base_url=url) as env:
        while len(tool_ms) < steps:
            await env.reset(task_id=TASK)
            for _ in range(20):
                t = time.perf_counter()
                result = await env.step(READ)
                tool_ms.append((time.perf_counter() - t) * 1000)
                assert not result.observation.is_error, result.observation.text
            t = time.perf_counter()
            await env.step(StateboxAction(message="What is your email?"))
            message_ms.append((time.perf_counter() - t) * 1000)
    return tool_ms, message_ms


async def hold_sessions(url: str, n: int, pid: int) -> dict[str, int]:
    envs = [StateboxEnv(base_url=url) for _ in range(n)]
    try:
        await asyncio.gather(*(e.connect() for e in envs))
        await asyncio.gather(*(e.reset(task_id=TASK) for e in envs))
        results = await asyncio.gather(*(e.step(WRITE) for e in envs))
        assert all(not r.observation.is_error for r in results)
        active = httpx.get(f"{url}/ready").json()["components"]["sessions"]["active"]
        assert active == n, f"{active} sessions open on the server, expected {n}"
        return {**rollup(pid), "Threads": threads(pid)}
    finally:
        await asyncio.gather(*(e.disconnect() for e in envs))


def session_breakdown(n: int) -> dict[str, float]:
    """KiB per episode in this process: RSS, SQLite's memory (and its page cache), Python objects."""
    import _sqlite3

    sys.modules.setdefault("gradio", None)  # type: ignore[arg-type]  # as openenv-serve does
    from statebox.openenv.environment import StateboxEnvironment
    from statebox.openenv.source import EpisodeSource
    from statebox.suites import load_suite

    used = ctypes.CDLL(_sqlite3.__file__).sqlite3_memory_used  # the libsqlite3 the sqlite3 module uses
    used.restype = ctypes.c_int64
    source = EpisodeSource(load_suite("retail"))
    source.prepare()

    async def go() -> dict[str, float]:
        envs = [StateboxEnvironment(source) for _ in range(n + 10)]
        for env in envs[:10]:  # warm: statements, the first pages
            await env.reset_async(task_id=TASK)
            await env.step_async(WRITE)
        gc.collect()
        rss0, sql0 = rollup(os.getpid())["Rss"], used()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for env in envs[10:]:
            await env.reset_async(task_id=TASK)
            await env.step_async(WRITE)
        gc.collect()
        python = sum(d.size_diff for d in tracemalloc.take_snapshot().compare_to(before, "filename"))
        tracemalloc.stop()
        rss1, sql1 = rollup(os.getpid())["Rss"], used()
        for env in envs[10:]:
            assert env.episode is not None
            env.episode.backend.session.db.execute("PRAGMA shrink_memory")  # type: ignore[attr-defined]
        cache = sql1 - used()
        for env in envs:
            await env.aclose()
        return {"rss": (rss1 - rss0) / n / 1024, "sqlite": (sql1 - sql0) / n / 1024, "cache": cache / n / 1024,
                "python": python / n / 1024}

    return asyncio.run(go())


def pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    proc = start_server(args.port, max(args.sessions + 8, 64))
    url = f"http://127.0.0.1:{args.port}"
    try:
        warm = rollup(proc.pid)
        tool_ms, message_ms = asyncio.run(step_latency(url, args.steps))
        held = asyncio.run(hold_sessions(url, args.sessions, proc.pid))
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    each = session_breakdown(args.sessions)
    median = statistics.median(tool_ms)
    mib = 2**20
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"tool step over the WebSocket ({len(tool_ms)} steps): median {median:.2f} ms, "
          f"p90 {pct(tool_ms, 0.9):.2f} ms, p99 {pct(tool_ms, 0.99):.2f} ms "
          f"(target <= {TARGET_STEP_MS} ms: {'met' if median <= TARGET_STEP_MS else 'NOT met'})")
    print(f"message step (scripted customer, {len(message_ms)}): median {statistics.median(message_ms):.2f} ms")
    print(f"server RSS ready {warm['Rss'] / mib:.0f} MiB, with {args.sessions} sessions {held['Rss'] / mib:.0f} MiB "
          f"(+{(held['Rss'] - warm['Rss']) / args.sessions / 1024:.0f} KiB each); PSS {held['Pss'] / mib:.0f} MiB "
          f"(target <= {TARGET_MEMORY // mib} MB: {'met' if held['Rss'] <= TARGET_MEMORY else 'NOT met'}); "
          f"{held['Threads']} server threads")
    print(f"one episode in process: RSS +{each['rss']:.0f} KiB, of it SQLite {each['sqlite']:.0f} KiB "
          f"({each['cache']:.0f} KiB page cache, the rest each connection's schema and statements), "
          f"Python objects {each['python']:.0f} KiB")


if __name__ == "__main__":
    main()
