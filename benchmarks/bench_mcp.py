"""Benchmarks of MCP: tool-call latency per transport, and how many retail attempts one proxy holds.

    python benchmarks/bench_mcp.py                          # everything, N=1,000 attempts
    python benchmarks/bench_mcp.py --calls 500 --attempts 200

Latency: one retail read (get_order) and one write (add_ticket_comment), each timed with
time.perf_counter over many calls and reported as p50 and p99, on four paths to the same kind
of attempt: the direct call without MCP (`BoundTools.call`), the official SDK's in-process
client (`connect_in_memory` + `ClientSession.call_tool`), streamable HTTP through a proxy in
this process (`running_proxy`, what `statebox run --tools-via http` starts), and streamable
HTTP through a separate `statebox proxy` process. The attempts made in this process are the
proxy's own: `BackendAttempt`s from `HostedAttemptFactory(provider_opener({}))`. The MCP overhead
is shown as a ratio to the direct call.

Capacity: N attempts created in one `statebox proxy` process, one write in each through its own
MCP URL; the proxy's resident memory (VmRSS from /proc/PID/status) before and after, per attempt.
Linux only (it reads /proc).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import httpx2  # the HTTP client the MCP SDK's streamable HTTP transport is built on
import mcp
import mcp_types as types
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from statebox.mcp import connect_in_memory, running_proxy
from statebox.runner.hosted_suite import BackendAttempt, HostedAttemptFactory
from statebox.suites.provider import provider_opener
from statebox.tools import BoundTools

TASK = "defective_blender_replacement_gold"
CUSTOMER, ORDER = "CUS-9005", "ORD-90005"  # the task's customer and order
TOKEN = "bench-token"
STATEBOX = str(Path(sys.executable).with_name("statebox"))
TARGETS = {"in process": 0.5e-3, "HTTP": 3e-3, "memory": 4 * 2**30}

Call = Callable[[str, dict[str, Any]], Awaitable[str]]  # (tool, arguments) -> the result text


# -- reporting ---------------------------------------------------------------------------------------


@dataclass
class Measure:
    name: str
    seconds: list[float]

    def p50(self) -> float:
        return statistics.median(self.seconds)

    def p99(self) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def fmt(seconds: float) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:8.2f} ms"
    return f"{seconds * 1e6:8.1f} us"


def mib(n_bytes: float) -> str:
    return f"{n_bytes / 2**20:,.1f} MiB"


def report(measures: list[Measure], direct: dict[str, Measure]) -> None:
    width = max(len(m.name) for m in measures)
    print(f"{'tool call':<{width}}  {'p50':>11}  {'p99':>11}  {'p50/direct':>10}  {'n':>6}")
    for m in measures:
        base = direct[m.name.rsplit(", ", 1)[-1]]
        print(f"{m.name:<{width}}  {fmt(m.p50())}  {fmt(m.p99())}  {m.p50() / base.p50():9.1f}x  {len(m.seconds):>6}")


def verdict(ok: bool) -> str:
    return "meets the target" if ok else "MISSES the target"


# -- latency -----------------------------------------------------------------------------------------


async def measure(path: str, call: Call, calls: int, warmup: int) -> list[Measure]:
    """p50/p99 of a read and of a write made through `call` (after a warm-up of each)."""
    created = await call("create_ticket", {"customer_id": CUSTOMER, "subject": "bench", "description": "latency"})
    ticket = json.loads(created)["ticket_id"]
    out = []
    for kind, tool in (("read", "get_order"), ("write", "add_ticket_comment")):
        seconds = []
        for i in range(warmup + calls):
            args = {"order_id": ORDER} if kind == "read" else {"ticket_id": ticket, "body": f"#{i}", "public": False}
            t0 = time.perf_counter()
            await call(tool, args)
            if i >= warmup:
                seconds.append(time.perf_counter() - t0)
        out.append(Measure(f"{path}, {kind}", seconds))
    return out


def session_call(session: ClientSession) -> Call:
    async def call(name: str, arguments: dict[str, Any]) -> str:
        result = await session.call_tool(name, arguments)
        text = "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))
        if result.is_error:
            raise SystemExit(f"{name} failed: {text}")
        return text

    return call


def direct_call(attempt: BackendAttempt) -> Call:
    """`BoundTools.call` on the attempt's session: the world backend's tools, with no MCP and no surface."""
    bound = attempt.channel.tools if attempt.channel is not None else None
    if not isinstance(bound, BoundTools):
        raise SystemExit(f"the attempt's tools are a {type(bound).__name__}, not the world's BoundTools")

    async def call(name: str, arguments: dict[str, Any]) -> str:
        outcome = bound.call(name, arguments)
        if outcome.is_error:
            raise SystemExit(f"{name} failed: {outcome.text}")
        return outcome.text

    return call


@asynccontextmanager
async def over_http(operator: httpx.AsyncClient) -> AsyncIterator[ClientSession]:
    """A new attempt on the operator's proxy and an initialized MCP session on its URL."""
    created = await create_attempt(operator)
    try:
        async with streamable_http_client(created["mcp_url"]) as streams, ClientSession(*streams) as session:
            await session.initialize()
            yield session
    finally:
        await operator.delete(f"/attempts/{created['id']}")


async def create_attempt(operator: httpx.AsyncClient) -> dict[str, Any]:
    response = await operator.post("/attempts", json={"suite": "retail", "task": TASK, "user": None})
    if response.status_code != 201:
        raise SystemExit(f"creating an attempt failed: {response.status_code} {response.text}")
    return response.json()


async def latency(factory: HostedAttemptFactory, proxy_url: str, calls: int, warmup: int) -> list[Measure]:
    direct, in_memory = await factory("retail", TASK, None), await factory("retail", TASK, None)
    measures = await measure("direct, no MCP", direct_call(direct), calls, warmup)
    async with connect_in_memory(in_memory) as session:
        measures += await measure("MCP in process", session_call(session), calls, warmup)
    for attempt in (direct, in_memory):
        await attempt.close()
    async with (
        running_proxy(factory) as url,
        httpx.AsyncClient(base_url=url) as operator,
        over_http(operator) as session,
    ):
        measures += await measure("MCP over HTTP, proxy in process", session_call(session), calls, warmup)
    async with operator_client(proxy_url) as operator, over_http(operator) as session:
        measures += await measure("MCP over HTTP, `statebox proxy` process", session_call(session), calls, warmup)
    return measures


# -- capacity ----------------------------------------------------------------------------------------


@contextmanager
def statebox_proxy() -> Iterator[tuple[str, int]]:
    """A `statebox proxy` subprocess on a free port, ready: (base URL, pid); always stopped and reaped."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    process = subprocess.Popen(
        [STATEBOX, "proxy", "--port", str(port), "--token", TOKEN], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while not ready(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"statebox proxy did not start (exit code {process.poll()})")
            time.sleep(0.05)
        yield url, process.pid
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/ready", timeout=1).status_code == 200
    except httpx.TransportError:
        return False


@asynccontextmanager
async def operator_client(url: str) -> AsyncIterator[httpx.AsyncClient]:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=120, limits=limits) as client:
        yield client


def rss(pid: int, field: str = "VmRSS") -> int:
    """A memory figure of a process from /proc/PID/status, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) * 1024
    raise SystemExit(f"no {field} in /proc/{pid}/status")


async def bounded(jobs: list[Callable[[], Awaitable[Any]]], in_flight: int) -> list[Any]:
    """Run the jobs with at most `in_flight` at once; results in order."""
    gate = asyncio.Semaphore(in_flight)

    async def run(job: Callable[[], Awaitable[Any]]) -> Any:
        async with gate:
            return await job()

    return await asyncio.gather(*(run(job) for job in jobs))


async def one_write(mcp_url: str, index: int, http: httpx2.AsyncClient | None = None) -> None:
    """A new MCP session on the attempt's URL that creates one ticket naming the attempt."""
    arguments = {"customer_id": CUSTOMER, "subject": f"attempt {index}", "description": "capacity benchmark"}
    async with streamable_http_client(mcp_url, http_client=http) as streams, ClientSession(*streams) as session:
        await session.initialize()
        await session_call(session)("create_ticket", arguments)


@dataclass
class Capacity:
    """What filling one proxy process with attempts cost: seconds, and its memory in bytes."""

    attempts: int
    in_flight: int
    create_s: float
    write_s: float
    rss_idle: int
    rss_warm: int
    rss_created: int
    rss_written: int
    peak: int

    def per_attempt(self) -> float:
        return (self.rss_written - self.rss_warm) / self.attempts

    def at_1000(self) -> float:
        return self.rss_warm + self.per_attempt() * 1000


async def capacity(url: str, pid: int, idle: int, attempts: int, in_flight: int) -> Capacity:
    """Fill the proxy with `attempts` attempts, one write in each; `idle` is its RSS before any attempt."""
    async with operator_client(url) as operator:
        # One attempt first, so the suite, its snapshots and the code paths are loaded before measuring.
        warm = await create_attempt(operator)
        await one_write(warm["mcp_url"], -1)
        await operator.delete(f"/attempts/{warm['id']}")
        warmed = rss(pid)

        t0 = time.perf_counter()
        created = await bounded([partial(create_attempt, operator) for _ in range(attempts)], in_flight)
        create_s = time.perf_counter() - t0
        after_create = rss(pid)

        # One connection pool for all the sessions, as a harness driving many agents would keep.
        async with httpx2.AsyncClient(timeout=120, limits=httpx2.Limits(max_connections=in_flight)) as http:
            t0 = time.perf_counter()
            await bounded([partial(one_write, c["mcp_url"], i, http) for i, c in enumerate(created)], in_flight)
            write_s = time.perf_counter() - t0

        held = (await operator.get("/ready")).json()["attempts"]
        if held != attempts:
            raise SystemExit(f"the proxy holds {held} attempts, not {attempts}")
        await check_own_writes(operator, created)
        return Capacity(attempts, in_flight, create_s, write_s, idle, warmed, after_create, rss(pid), rss(pid, "VmHWM"))


async def check_own_writes(operator: httpx.AsyncClient, created: list[dict[str, Any]]) -> None:
    """A sample of attempts must each hold exactly their own write (else the numbers mean nothing)."""
    for index in sorted({0, len(created) // 2, len(created) - 1}):
        effects = (await operator.get(f"/attempts/{created[index]['id']}/effects")).json()["effects"]
        subjects = [row["subject"] for row in effects["inserted"].get("tickets", [])]
        if subjects != [f"attempt {index}"]:
            raise SystemExit(f"attempt {index} holds {subjects}, not only its own write")


def report_capacity(c: Capacity, pid: int) -> None:
    n = c.attempts
    print(f"{n:,} concurrent attempts of retail/{TASK} in one `statebox proxy` process (pid {pid})")
    create, write = (
        f"create them (POST /attempts, {c.in_flight} in flight)",
        "one write in each (a new MCP session each)",
    )
    for label, seconds in ((create, c.create_s), (write, c.write_s)):
        print(f"  {label:<46} {seconds:7.2f} s, {seconds / n * 1e3:.2f} ms each")
    print(f"  RSS idle proxy, before any attempt: {mib(c.rss_idle):>12}")
    print(f"  RSS after one warm-up attempt:      {mib(c.rss_warm):>12}")
    print(f"  RSS after creating them:            {mib(c.rss_created):>12}")
    print(f"  RSS after one write in each:        {mib(c.rss_written):>12}   (peak VmHWM {mib(c.peak)})")
    print(f"  per attempt (after - warm-up) / N:  {mib(c.per_attempt()):>12}")
    figure = f"{mib(c.rss_written)}" if n == 1000 else f"{mib(c.at_1000())} projected"
    print(f"  1,000 attempts: {figure} -> {verdict(c.at_1000() <= TARGETS['memory'])} (< 4 GiB)")


# -- main --------------------------------------------------------------------------------------------


async def bench(calls: int, warmup: int, attempts: int, in_flight: int) -> None:
    print(
        f"statebox MCP benchmarks: task retail/{TASK}, Python {platform.python_version()}, "
        f"mcp {mcp_version()}, {platform.machine()}, {platform.system()}"
    )
    print()
    factory = HostedAttemptFactory(provider_opener({}))  # as `statebox proxy` builds it, without suite options
    with statebox_proxy() as (url, pid):
        idle = rss(pid)
        try:
            measures = await latency(factory, url, calls, warmup)
        finally:
            await factory.aclose()
        direct = {m.name.rsplit(", ", 1)[-1]: m for m in measures if m.name.startswith("direct")}
        report(measures, direct)
        print()
        for path, target in (("MCP in process", TARGETS["in process"]), ("MCP over HTTP", TARGETS["HTTP"])):
            worst = max((m for m in measures if m.name.startswith(path)), key=Measure.p50)
            p50 = worst.p50()
            print(f"{path}: worst p50 {fmt(p50).strip()} -> {verdict(p50 <= target)} (<= {fmt(target).strip()})")
        print()
        report_capacity(await capacity(url, pid, idle, attempts, in_flight), pid)


def mcp_version() -> str:
    from importlib.metadata import version

    return version(mcp.__name__)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="timed calls per tool and path")
    parser.add_argument("--warmup", type=int, default=100, help="untimed calls before each measure")
    parser.add_argument("--attempts", type=int, default=1000, help="concurrent attempts in one proxy")
    parser.add_argument("--in-flight", type=int, default=16, help="requests in flight while filling the proxy")
    args = parser.parse_args()
    asyncio.run(bench(args.calls, args.warmup, args.attempts, args.in_flight))


if __name__ == "__main__":
    main()
