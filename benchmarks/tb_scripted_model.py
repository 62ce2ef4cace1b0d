"""An instant scripted OpenAI-compatible endpoint that plays ThinkingBox-Bench tasks, for benchmarks.

    python benchmarks/tb_scripted_model.py --data CHECKOUT --test-list LIST [--port 0]

It prints its base URL (`http://127.0.0.1:PORT`) on the first line once it listens. Each role has
its own path, so that a harness which cannot label its requests is still answered in the right
role: `/agent/v1/chat/completions`, `/user/v1/chat/completions`, `/judge/v1/chat/completions`.
A request carrying statebox's `x-statebox-role` header is answered in that role whatever its path.

- agent: recognises the task from the first user message (the task's `query`), then makes the
  task's reference calls (`init.<server>.golden_test_case.tool_interactions`) one per response,
  verbatim, naming each as the request's tool list names it (`tool` or `<server>__<tool>`), and
  ends with a text reply ending in `<DONE>`;
- user: "That is all, thank you. <DONE>";
- judge: "Yes" (or the endpoint's `judge` answer, e.g. "No").

With `handoff` (a tool name), a task without reference calls is played by handing off instead:
the agent's first reply calls that tool, where the request offers it, with a one-line summary.

GET /stats gives the request counts per role and the endpoint's own time spent answering them,
so that a harness's per-turn cost can be told apart from the model's.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from statebox.compat.thinkingbox import load_tb_suite

ROLE_HEADER = "x-statebox-role"
DONE_TEXT = "Your request is complete. <DONE>"
HANDOFF_SUMMARY = "The customer asks for something I cannot do; please take over."
USER_DONE_TEXT = "That is all, thank you. <DONE>"
ROLES = ("agent", "user", "judge")


@dataclass(frozen=True)
class ScriptedCall:
    """One reference call: the server that answers it and the tool's own name there."""

    server: str
    tool: str
    arguments: dict[str, Any]


@dataclass
class EndpointStats:
    """What the endpoint has answered, and its own time doing it."""

    by_role: Counter[str] = field(default_factory=Counter)
    unknown: int = 0
    busy_s: float = 0.0
    agent_bytes: list[int] = field(default_factory=list)  # each agent request's body

    def as_dict(self) -> dict[str, Any]:
        sizes = sorted(self.agent_bytes)
        median = sizes[len(sizes) // 2] if sizes else 0
        return {"by_role": dict(self.by_role), "unknown": self.unknown, "busy_s": round(self.busy_s, 6),
                "agent_request_bytes_median": median}  # fmt: skip


def scripts_of(data: Path, test_list: Path | None) -> dict[str, list[ScriptedCall]]:
    """The reference calls of every task of the list, by the task's opening message (first task wins)."""
    suite = load_tb_suite(data, test_list)
    scripts: dict[str, list[ScriptedCall]] = {}
    for task in suite.bench_tasks.values():
        calls = []
        for server in task.servers:
            golden = suite.checkout.init_config(task.tb, server).config.get("golden_test_case") or {}
            for step in golden.get("tool_interactions") or []:
                calls.append(ScriptedCall(server, step["tool"], dict(step.get("parameters") or {})))
        scripts.setdefault(" ".join(task.tb.query.split()), calls)
    return scripts


class ScriptedEndpoint:
    """The ASGI app: chat completions per role, and /stats."""

    def __init__(self, scripts: dict[str, list[ScriptedCall]], judge: str = "Yes", handoff: str | None = None) -> None:
        self.scripts = scripts
        self.judge = judge
        self.handoff = handoff
        self.stats = EndpointStats()
        self._count = 0
        routes = [Route(f"/{role}/v1/chat/completions", self._chat(role), methods=["POST"]) for role in ROLES]
        routes.append(Route("/v1/chat/completions", self._chat("agent"), methods=["POST"]))
        routes.append(Route("/stats", self._stats, methods=["GET"]))
        self.app = Starlette(routes=routes)

    def _chat(self, path_role: str) -> Any:
        async def handle(request: Request) -> Response:
            started = time.perf_counter()
            raw = await request.body()
            body = json.loads(raw)
            role = request.headers.get(ROLE_HEADER) or path_role
            role = "user" if role == "customer" else role
            if role == "agent":
                self.stats.agent_bytes.append(len(raw))
            message = self.reply(role, body)
            self._count += 1
            answer = {
                "id": f"chatcmpl-scripted{self._count:08d}",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "scripted"),
                "choices": [{"index": 0, "message": message, "finish_reason": _finish(message)}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
            self.stats.by_role[role] += 1
            response = JSONResponse(answer)
            self.stats.busy_s += time.perf_counter() - started
            return response

        return handle

    def reply(self, role: str, body: dict[str, Any]) -> dict[str, Any]:
        if role == "judge":
            return {"role": "assistant", "content": self.judge}
        if role == "user":
            return {"role": "assistant", "content": USER_DONE_TEXT}
        return self._agent(body)

    def _agent(self, body: dict[str, Any]) -> dict[str, Any]:
        messages = body.get("messages") or []
        opening = next((m for m in messages if m.get("role") == "user"), None)
        script = self.scripts.get(" ".join(_text(opening).split())) if opening else None
        if script is None:
            self.stats.unknown += 1
            return {"role": "assistant", "content": f"I do not know this task. {DONE_TEXT}"}
        made = sum(len(m.get("tool_calls") or []) for m in messages if m.get("role") == "assistant")
        offered = [t.get("function", {}).get("name", "") for t in body.get("tools") or []]
        if not script and self.handoff in offered and made == 0:
            return _call(0, str(self.handoff), {"summary": HANDOFF_SUMMARY})
        if made >= len(script):
            return {"role": "assistant", "content": DONE_TEXT}
        call = script[made]
        return _call(made, offered_name(call, offered), call.arguments)

    async def _stats(self, request: Request) -> Response:
        return JSONResponse(self.stats.as_dict())


def offered_name(call: ScriptedCall, offered: list[str]) -> str:
    """The request's name for the call's tool: its own name, or one that prefixes a server to it."""
    for name in (call.tool, f"{call.server}__{call.tool}"):
        if name in offered:
            return name
    for name in offered:
        if name.endswith(f"__{call.tool}") or name.endswith(f".{call.tool}"):
            return name
    return call.tool  # not offered: the harness answers it as an unknown tool


def _call(number: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    function = {"name": name, "arguments": json.dumps(arguments)}
    tool_call = {"id": f"call_{number}", "type": "function", "function": function}
    return {"role": "assistant", "content": None, "tool_calls": [tool_call]}


def _finish(message: dict[str, Any]) -> str:
    return "tool_calls" if message.get("tool_calls") else "stop"


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):  # content parts
        return " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return str(content or "")


class EndpointThread:
    """The endpoint served by uvicorn in a daemon thread (for a benchmark that owns its process)."""

    def __init__(self, endpoint: ScriptedEndpoint, port: int = 0) -> None:
        config = uvicorn.Config(endpoint.app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> str:
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the scripted endpoint did not start")
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the benchmark checkout")
    parser.add_argument("--test-list", type=Path, default=None, help="the tasks to script (default: all)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--judge", default="Yes", help="what the judge answers (default: Yes)")
    parser.add_argument("--handoff", default=None, help="a tool the agent calls on tasks without reference calls")
    args = parser.parse_args(argv)
    endpoint = ScriptedEndpoint(scripts_of(args.data, args.test_list), args.judge, args.handoff)
    thread = EndpointThread(endpoint, args.port)
    print(thread.start(), flush=True)
    try:
        thread.thread.join()
    except KeyboardInterrupt:
        thread.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
