"""The floor under statebox's own CPU per ThinkingBox-Bench attempt: what the two libraries it must use cost.

    python benchmarks/bench_tb_floor.py                       # 21 tasks, 3 rounds
    python benchmarks/bench_tb_floor.py --tasks 60 --rounds 5 --servers-ms 74 --json floor.json

An LLM attempt through statebox talks to the benchmark's servers through the official MCP SDK and
to the model endpoint through aiohttp (the dependency rules: no hand-written protocol code). This
times those two alone, in this process, with no statebox code on the path but the transport:

- **MCP**: per task of the sample (the same round-robin sample as bench_tb_vs_official.py), for each
  of its servers, a child forked from the campaign's templates (statebox's launcher, as a campaign
  starts it) and the SDK's own `ClientSession` on its byte streams: `initialize`, `__reserved__init`
  with the task's merged init config, the task's reference calls, `__reserved__geteffects` and
  `json.loads` of its answer — the messages a statebox attempt exchanges, one session at a time,
  after a warm-up round. statebox's code on this path is only the transport (the fork request and
  the byte-stream bridge the SDK reads and writes through).
- **HTTP**: one aiohttp `ClientSession` POSTing a body of the size of a ThinkingBox-Bench agent
  request (`--request-kb`, the median the scripted endpoint saw: see bench_tb_vs_official.py) to a
  local server in another process that answers a canned tool-call completion, then `json.loads`.

Only this process's CPU (user + system, RUSAGE_SELF) is counted: the servers run in other processes.
Prints the floor per attempt for the sample's mean numbers of sessions, tool calls and model calls,
and what it implies for statebox's share of an attempt's CPU given the servers' CPU per attempt
(`--servers-ms`, from bench_tb_vs_official.py on the same machine, same day).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
from mcp import ClientSession

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_tb_vs_official as side_by_side  # a script beside this one
import tb_env

from statebox.compat.thinkingbox import TbCheckout
from statebox.compat.thinkingbox.launch import BenchLaunch, bench_launcher
from statebox.compat.thinkingbox.task import bench_task
from statebox.mcp.launch import ToolServerLauncher

REPLY = json.dumps({
    "id": "chatcmpl-floor", "object": "chat.completion", "created": 0, "model": "floor",
    "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "get_order_details", "arguments": json.dumps({"order_id": "ORD-10000001"})}}]}}],
    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
})  # fmt: skip
HTTP_SERVER = f"""
import sys
from aiohttp import web
async def answer(request):
    await request.read()
    return web.Response(text={REPLY!r}, content_type="application/json")
app = web.Application(client_max_size=64 * 1024 * 1024)
app.router.add_post("/v1/chat/completions", answer)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=lambda *a: print("ready", flush=True))
"""


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Session:
    """One server session of one task: which server, and what to send it."""

    def __init__(self, server: str, init: dict[str, Any], calls: list[tuple[str, dict[str, Any]]]) -> None:
        self.server, self.init, self.calls = server, init, calls


def sessions_of(checkout: TbCheckout, ids: list[str]) -> list[list[Session]]:
    """Per task, its servers' sessions as a statebox attempt of the reference holds them."""
    tasks = []
    for task_id in ids:
        tb = checkout.task(task_id)
        sessions = []
        for server in bench_task(checkout, tb).servers:
            config = checkout.init_config(tb, server).config
            steps = config.get("golden_test_case", {}).get("tool_interactions", [])
            sessions.append(Session(server, config, [(step["tool"], step.get("parameters") or {}) for step in steps]))
        tasks.append(sessions)
    return tasks


async def one_session(launcher: ToolServerLauncher, session: Session, spent: dict[str, float]) -> int:
    """The SDK's work for one server of one attempt, its CPU added up per step into `spent`; returns
    the tool calls made (reserved ones included)."""
    mark = cpu_s()

    def step(name: str) -> None:
        nonlocal mark
        now = cpu_s()
        spent[name] = spent.get(name, 0.0) + now - mark
        mark = now

    async with launcher.start(session.server) as started, ClientSession(*started.streams) as client:
        step("start (fork, streams)")
        await client.initialize()
        step("initialize")
        await client.call_tool("__reserved__init", {"config": session.init})
        step("__reserved__init (the init config)")
        for tool, args in session.calls:
            await client.call_tool(tool, args)
        step("the reference calls")
        effects = await client.call_tool("__reserved__geteffects", {})
        step("__reserved__geteffects")
        json.loads("".join(part.text for part in effects.content if part.type == "text"))
        step("json.loads of the effects")
    step("end of the session")
    return len(session.calls) + 2


def time_mcp(checkout: TbCheckout, python: str, tasks: list[list[Session]], rounds: int) -> list[dict[str, float]]:
    """Per round (after a warm-up round), the CPU of the MCP path per task, one session at a time."""
    used = list(dict.fromkeys(s.server for sessions in tasks for s in sessions))

    async def all_rounds() -> list[dict[str, float]]:
        launch = BenchLaunch(python=python, used=used)
        async with bench_launcher(checkout.servers(), checkout.root, launch) as launcher:
            await launcher.prepare(*used)
            results = []
            for _ in range(rounds + 1):
                started, calls = cpu_s(), 0
                steps: dict[str, float] = {}
                for sessions in tasks:
                    for session in sessions:
                        calls += await one_session(launcher, session, steps)
                count, spent = sum(len(s) for s in tasks), cpu_s() - started
                results.append({"mcp_per_task_ms": 1000 * spent / len(tasks), "sessions_per_task": count / len(tasks),
                                "calls_per_task": calls / len(tasks),
                                **{f"{name}_ms": 1000 * cpu / len(tasks) for name, cpu in steps.items()}})  # fmt: skip
            return results[1:]

    return asyncio.run(all_rounds())


def time_http(size: int, requests: int) -> float:
    """CPU per request (ms) of a bare aiohttp POST of `size` bytes and json.loads of the reply."""
    port = side_by_side.tb_official.free_port()
    server = subprocess.Popen([sys.executable, "-c", HTTP_SERVER, str(port)], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == "ready"
        message = {"role": "user", "content": "x" * max(0, size - 60)}
        body = json.dumps({"model": "floor", "messages": [message]}).encode()
        headers = {"Content-Type": "application/json"}

        async def post_all() -> float:
            async with aiohttp.ClientSession() as http:
                url = f"http://127.0.0.1:{port}/v1/chat/completions"

                async def post(times: int) -> None:
                    for _ in range(times):
                        async with http.post(url, data=body, headers=headers) as reply:
                            json.loads(await reply.read())

                await post(20)  # warm-up: the connection, aiohttp's first-use paths
                started = cpu_s()
                await post(requests)
                return 1000 * (cpu_s() - started) / requests

        return asyncio.run(post_all())
    finally:
        server.terminate()
        server.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=21)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--model-calls", type=float, default=None,
                        help="model calls per attempt (default: the reference calls + 1, as the scripted agent)")
    parser.add_argument("--request-kb", type=float, default=40.0, help="size of one agent request")
    parser.add_argument("--servers-ms", type=float, default=None, help="the servers' CPU per attempt, to give a share")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    env = tb_env.build_env(tb_env.DEFAULT_THIRDPARTY)
    ids = side_by_side.sample(env.data, args.tasks)
    checkout = TbCheckout(env.data)
    tasks = sessions_of(checkout, ids)
    print(f"{len(ids)} tasks, {args.rounds} rounds; {side_by_side.load()}", flush=True)
    mcp_rounds = time_mcp(checkout, str(env.python), tasks, args.rounds)
    mcp = {key: statistics.median(r[key] for r in mcp_rounds) for key in mcp_rounds[0]}
    reference_calls = mcp["calls_per_task"] - 2 * mcp["sessions_per_task"]
    model_calls = args.model_calls if args.model_calls is not None else reference_calls + 1
    http = statistics.median(time_http(int(args.request_kb * 1024), 300) for _ in range(args.rounds))
    floor = mcp["mcp_per_task_ms"] + model_calls * http
    result = {**mcp, "http_per_request_ms": http, "model_calls_per_task": model_calls, "floor_per_attempt_ms": floor,
              "load": os.getloadavg()}  # fmt: skip
    print(f"MCP path alone, per attempt: {mcp['mcp_per_task_ms']:.2f} ms CPU ({mcp['sessions_per_task']:.2f} sessions, "
          f"{mcp['calls_per_task']:.1f} tool calls incl. init and geteffects)")  # fmt: skip
    for key in (k for k in mcp if k.endswith("_ms") and k != "mcp_per_task_ms"):
        print(f"  {key[:-3]}: {mcp[key]:.2f} ms")
    print(f"aiohttp alone, per model call of {args.request_kb:g} KB: {http:.3f} ms CPU; x {model_calls:.1f} calls")
    print(f"floor per attempt (the two libraries, no statebox code but the transport): {floor:.2f} ms CPU")
    if args.servers_ms:
        share = floor / (floor + args.servers_ms)
        result["share_floor"] = share
        print(f"with the servers' {args.servers_ms:g} ms per attempt: statebox's share is at least {share:.3f}")
    print(side_by_side.load())
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
