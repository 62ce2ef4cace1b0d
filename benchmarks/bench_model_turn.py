"""statebox's own CPU per model turn: an LLM-agent campaign on retail against an instant fake model.

    python benchmarks/bench_model_turn.py                      # 3 runs of 70 tasks x 2 repeats at concurrency 16
    python benchmarks/bench_model_turn.py --runs 1 --repeat 1  # a quick look
    python benchmarks/bench_model_turn.py --profile            # also cProfile one campaign
    python benchmarks/bench_model_turn.py --runs 0 --transports  # only the HTTP clients, side by side

In the same run it measures the raw transport for the same request and reply: the retail-sized
request below, encoded once, POSTed through a bare aiohttp session and its reply parsed with
json.loads, nothing else. statebox's CPU per turn is printed as a ratio to that (target <= 3x).
`--transports` also times httpx the same way, and statebox's former own HTTP/1.1 client when the
checkout on the path still has it (`statebox.llm._pool`, before the move to aiohttp).

The fake model (`statebox fake-model retail`, latency 0) runs in its own process, so its CPU is not
counted. The campaign runs in this process (one worker, `--user scripted`, in-process MCP); the
CPU time of this process (user + system, `time.process_time`) over the campaign, divided by the
model calls it made, is the CPU per model turn. A 1-attempt warm-up campaign runs first, so imports
and first-use costs are not counted. Every model call of these campaigns is an agent call (the
scripted customer and the state judge use no model).

To compare with an older checkout, run the same script with that checkout's `src` first on the path:

    git worktree add /tmp/sb-before 1a04f65~1   # the commit before the model client stopped using the SDKs
    PYTHONPATH=/tmp/sb-before/src python benchmarks/bench_model_turn.py
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import platform
import pstats
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import statebox
from statebox.runner.campaign import Campaign
from statebox.runner.plan import CampaignConfig
from statebox.suites import load_suite

TARGET_MS = 1.5
TARGET_RATIO = 3.0  # statebox's CPU per turn over the raw transport's per request


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def fake_model(latency_ms: int) -> Iterator[str]:
    """The fake model (what `statebox fake-model retail` runs) in a subprocess; yields its base URL once it answers."""
    port = free_port()
    command = [sys.executable, "-m", "statebox.fakemodel", "retail", "--port", str(port)]
    command += ["--latency-ms", str(latency_ms)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{base_url}/models", timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    message = proc.stderr.read() if proc.stderr else ""
                    raise SystemExit(f"the fake model did not start: {message}") from None
                time.sleep(0.05)
        yield base_url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def campaign_config(
    base_url: str, out: Path, repeat: int, concurrency: int, task_ids: list[str] | None, tools_via: str = "memory"
) -> CampaignConfig:
    suite = load_suite("retail")
    if task_ids is not None:
        suite = suite.select(ids=task_ids)
    return CampaignConfig(
        suite=suite,
        agent="llm",
        out=out,
        models=["openai:fake"],
        base_url=base_url,
        user="scripted",
        repeat=repeat,
        concurrency=concurrency,
        workers=1,
        progress=False,
        tools_via=tools_via,  # type: ignore[arg-type]
    )


def model_calls(out: Path) -> tuple[int, int, int]:
    """(attempts, passed, agent model calls) from a run directory's trials."""
    attempts = passed = calls = 0
    for line in (out / "trials.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        trial = json.loads(line)
        attempts += 1
        passed += bool(trial["passed"])
        calls += sum(1 for e in trial["transcript"]["entries"] if e["role"] == "agent" and e.get("usage"))
    return attempts, passed, calls


def retail_request() -> tuple[list[Any], Any]:
    """What the agent sends in mid-conversation: the instructions and retail's policy, its tools,
    the opening message and four tool-call rounds (messages, and tools prepared once where the
    checkout has PreparedTools)."""
    from statebox.agents.llm_agent import agent_instructions
    from statebox.domains.retail import DOMAIN
    from statebox.llm import Message, ToolCall, ToolDef

    specs = DOMAIN.tools.specs()
    tools: Any = [ToolDef(name=t.name, description=t.description, input_schema=t.input_schema) for t in specs]
    try:
        from statebox.llm import PreparedTools

        tools = PreparedTools(tools)
    except ImportError:  # a checkout from before PreparedTools
        pass
    task = sorted(load_suite("retail").tasks, key=lambda t: t.id)[0]
    messages = [
        Message(role="system", content=f"{agent_instructions()}\n\n# Policy\n\n{DOMAIN.policy}"),
        Message(role="user", content=task.opening_message),
    ]
    for i in range(4):
        call = ToolCall.from_arguments(f"call_{i}", "get_order", {"order_id": f"ORD-9{i:04d}"})
        messages.append(Message(role="assistant", tool_calls=[call]))
        result = json.dumps({"id": call.id, "rows": [i] * 40})
        messages.append(Message(role="tool", tool_call_id=call.id, content=result))
    return messages, tools


def wire_body(messages: list[Any], tools: Any) -> bytes:
    """The same request as Chat Completions JSON, encoded once (as the raw transports send it)."""
    encoded: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "tool":
            encoded.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content})
        elif m.tool_calls:
            calls = [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.raw_arguments}}
                     for c in m.tool_calls]  # fmt: skip
            encoded.append({"role": "assistant", "content": None, "tool_calls": calls})
        else:
            encoded.append({"role": m.role, "content": m.content})
    functions = [{"type": "function", "function": {"name": t.name, "description": t.description,
                                                   "parameters": t.input_schema}} for t in tools]  # fmt: skip
    body = {"model": "fake", "messages": encoded, "tools": functions, "parallel_tool_calls": False}
    return json.dumps(body, separators=(",", ":")).encode()


def client_alone(base_url: str, calls: int) -> float:
    """CPU microseconds per `complete` call of the model client alone, on the retail-sized request,
    sent `calls` times in a row after 20 warm-up calls, as one attempt would send it."""
    from statebox.llm import make_client

    messages, tools = retail_request()

    async def measure() -> float:
        async with make_client("openai:fake", base_url=base_url) as client:
            for _ in range(20):
                await client.complete(messages, tools)
            started = time.process_time()
            for _ in range(calls):
                await client.complete(messages, tools)
            return (time.process_time() - started) / calls * 1e6

    return asyncio.run(measure())


HEADERS = {"content-type": "application/json", "accept": "application/json", "authorization": "Bearer not-needed"}


async def _timed(post: Any, calls: int) -> float:
    for _ in range(20):
        await post()
    started = time.process_time()
    for _ in range(calls):
        await post()
    return (time.process_time() - started) / calls * 1e6


def raw_aiohttp(base_url: str, body: bytes, calls: int) -> float:
    """CPU microseconds per pre-encoded POST + json.loads of the reply through a bare aiohttp session."""
    import aiohttp

    async def measure() -> float:
        async with aiohttp.ClientSession() as session:

            async def post() -> Any:
                async with session.post(f"{base_url}/chat/completions", data=body, headers=HEADERS) as response:
                    return json.loads(await response.read())

            return await _timed(post, calls)

    return asyncio.run(measure())


def raw_httpx(base_url: str, body: bytes, calls: int) -> float:
    import httpx

    async def measure() -> float:
        async with httpx.AsyncClient() as http:

            async def post() -> Any:
                return json.loads(
                    (await http.post(f"{base_url}/chat/completions", content=body, headers=HEADERS)).content
                )

            return await _timed(post, calls)

    return asyncio.run(measure())


def raw_own_client(base_url: str, body: bytes, calls: int) -> float | None:
    """The same through statebox's former own HTTP/1.1 client, if this checkout still has it."""
    try:
        from statebox.llm._pool import ConnectionStack  # type: ignore[import-not-found]
    except ImportError:
        return None

    async def measure() -> float:
        stack = ConnectionStack(f"{base_url}/chat/completions", HEADERS, timeout_s=30)

        async def post() -> Any:
            return json.loads((await stack.post(body)).content)

        try:
            return await _timed(post, calls)
        finally:
            await stack.aclose()

    return asyncio.run(measure())


def run_once(config: CampaignConfig, profiler: cProfile.Profile | None = None) -> tuple[float, float, float]:
    """(CPU seconds, of which system, wall seconds) of one campaign in this process."""
    campaign = Campaign(config)
    items = campaign.prepare()
    sys0 = resource.getrusage(resource.RUSAGE_SELF).ru_stime
    cpu0, wall0 = time.process_time(), time.perf_counter()
    if profiler is not None:
        profiler.enable()
    result = asyncio.run(campaign.execute(items, lambda outcome, detail: None))
    if profiler is not None:
        profiler.disable()
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    system = resource.getrusage(resource.RUSAGE_SELF).ru_stime - sys0
    campaign.finish()
    if result.errors:
        raise SystemExit(f"{result.errors} infrastructure errors, e.g. {result.error_messages[0]}")
    return cpu, system, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--runs", type=int, default=3, help="campaigns measured; the median is reported")
    parser.add_argument("--tools-via", default="memory", help="memory (in-process MCP, the default) or direct")
    parser.add_argument("--profile", action="store_true", help="cProfile one more campaign, print the top functions")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--client-calls", type=int, default=300, help="calls of the model client alone")
    parser.add_argument("--transports", action="store_true", help="also time httpx (and the former own client)")
    args = parser.parse_args()

    here = Path(statebox.__file__).resolve().parent
    print(
        f"statebox from {here}\nretail, LLM agent on the instant fake model, scripted customer, "
        f"repeat {args.repeat}, concurrency {args.concurrency}, tools via {args.tools_via}, one process\n"
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"
    )
    per_turn: list[float] = []
    with fake_model(0) as base_url, tempfile.TemporaryDirectory(prefix="bench-turn-") as tmp:
        work = Path(tmp)
        first = sorted(t.id for t in load_suite("retail").tasks)[:1]
        run_once(campaign_config(base_url, work / "warm-up", 1, 1, first))
        for r in range(args.runs):
            out = work / f"run-{r}"
            cpu, system, wall = run_once(
                campaign_config(base_url, out, args.repeat, args.concurrency, None, args.tools_via)
            )
            attempts, passed, calls = model_calls(out)
            per_turn.append(cpu / calls * 1000)
            print(
                f"  run {r + 1}/{args.runs}: {attempts} attempts ({passed} passed), {calls} model calls, "
                f"{cpu:.2f} s CPU ({system:.2f} s system) in {wall:.2f} s wall -> "
                f"{per_turn[-1]:.2f} ms CPU per model turn"
            )
        body = wire_body(*retail_request())
        raw_us = raw_aiohttp(base_url, body, args.client_calls)
        client_us = client_alone(base_url, args.client_calls)
        print(f"raw transport (aiohttp, pre-encoded {len(body):,}-byte POST + json.loads): {raw_us:.0f} us CPU/request")
        print(f"model client alone, the same request: {client_us:.0f} us CPU per call ({client_us / raw_us:.1f}x raw)")
        if args.transports:
            print(f"raw transport through httpx: {raw_httpx(base_url, body, args.client_calls):.0f} us CPU per request")
            own = raw_own_client(base_url, body, args.client_calls)
            print(
                "raw transport through the former own client: " + (f"{own:.0f} us" if own else "not in this checkout")
            )
        if per_turn:
            median = statistics.median(per_turn)
            verdict = "met" if median <= TARGET_MS else "missed"
            ratio = median * 1000 / raw_us
            ratio_verdict = "met" if ratio <= TARGET_RATIO else "missed"
            summary = f"median {median:.2f} ms over {args.runs} runs (target <= {TARGET_MS} ms: {verdict})"
            print(f"\nstatebox CPU per model turn: {summary}")
            print(f"as a ratio to the raw transport: {ratio:.1f}x (target <= {TARGET_RATIO:g}x: {ratio_verdict})")
        print(f"load average {os.getloadavg()[0]:.2f} at the end")
        if args.profile:
            profiler = cProfile.Profile()
            config = campaign_config(base_url, work / "profiled", args.repeat, args.concurrency, None, args.tools_via)
            run_once(config, profiler)
            stats = pstats.Stats(profiler)
            stats.strip_dirs()
            print(f"\n== cProfile of one campaign: top {args.top} by own time ==")
            stats.sort_stats("tottime").print_stats(args.top)
            print(f"== top {args.top} by cumulative time ==")
            stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
