"""The fake model's HTTP app: one API's wire format (`wire/`), a model list, request statistics."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from statebox.fakemodel.agent import UNKNOWN_REQUEST, agent_reply, normalise, opening_index
from statebox.fakemodel.customer import customer_reply
from statebox.fakemodel.plan import MODES, Mode, attempt_mode, build_plan
from statebox.fakemodel.protocol import BadRequest, ChatRequest, Reply, tools_chars, usage
from statebox.fakemodel.rubric import judge_reply
from statebox.fakemodel.wire import APIS, Api, wire_format
from statebox.tasks import Task
from statebox.tasks.worlds import TaskWorlds

Role = Literal["agent", "customer", "judge"]
ROLE_HEADER = "x-statebox-role"  # what statebox's model client sends with every request
_TOOL_LISTS = 256  # distinct tool lists whose length is remembered


@dataclass(frozen=True)
class FakeModelConfig:
    """How the fake model plays, and the infrastructure failures it injects."""

    mode: Mode = "reference"
    error_rate: float = 0.3  # flaky: probability that an attempt makes a mistake
    latency_ms: float = 0.0  # from a chat request's arrival to its response (the reply is worked out meanwhile)
    seed: int = 0  # seeds the injected failures (fail_rate)
    fail_first_n: int = 0  # the first n chat requests get HTTP 500
    fail_rate: float = 0.0  # then each chat request gets HTTP 500 with this probability
    judge_answer: Literal["yes", "no"] = "yes"
    # each response's latency drawn uniformly from latency_ms +- this (mean latency_ms), seeded by `seed`
    latency_jitter_ms: float = 0.0
    api: Api = "openai"  # the wire format spoken (fakemodel/wire)

    def __post_init__(self) -> None:
        if self.api not in APIS:
            raise ValueError(f"unknown api {self.api!r}; choose one of {', '.join(APIS)}")
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r}; choose one of {', '.join(MODES)}")
        for name in ("error_rate", "fail_rate"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, not {getattr(self, name)}")
        if self.latency_ms < 0 or self.fail_first_n < 0:
            raise ValueError("latency_ms and fail_first_n must not be negative")
        if not 0 <= self.latency_jitter_ms <= self.latency_ms:
            raise ValueError(
                f"latency_jitter_ms must be between 0 and latency_ms ({self.latency_ms}), not {self.latency_jitter_ms}"
            )


@dataclass
class Stats:
    """What the server has seen, served at GET /stats."""

    requests: int = 0  # chat requests, including failed and bad ones
    completions: int = 0
    failures_injected: int = 0
    bad_requests: int = 0
    by_role: Counter[str] = field(default_factory=Counter)
    by_mode: Counter[str] = field(default_factory=Counter)  # modes played by agent requests

    def as_dict(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "completions": self.completions,
            "failures_injected": self.failures_injected,
            "bad_requests": self.bad_requests,
            "by_role": dict(self.by_role),
            "by_mode": dict(self.by_mode),
        }


class FakeModelApp:
    """An ASGI app playing the agent, the simulated customer and the rubric judge for a suite."""

    def __init__(self, suite: TaskWorlds, config: FakeModelConfig | None = None) -> None:
        self.suite = suite
        self.config = config or FakeModelConfig()
        self.stats = Stats()
        self.openings = index_openings(suite.tasks)
        self._failures = random.Random(self.config.seed)
        self._jitter = random.Random(self.config.seed + 1)
        self._tool_chars: dict[str, int] = {}  # a tool list's JSON length, by its JSON text (see _tools_chars)
        self.wire = wire_format(self.config.api)
        routes = [Route(self.wire.route, self._chat, methods=["POST"])]
        if self.config.api == "openai":  # as before: Chat Completions also without the /v1 prefix
            routes.append(Route("/chat/completions", self._chat, methods=["POST"]))
        routes += [Route(f"{p}/models", self._models, methods=["GET"]) for p in ("/v1", "")]
        self._app = Starlette(routes=[*routes, Route("/stats", self._stats, methods=["GET"])])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._app(scope, receive, send)

    def respond(self, request: ChatRequest, role: str | None = None) -> tuple[Reply, Role, Mode | None]:
        """The reply to a request, which role answered it, and the agent's mode (None otherwise).

        The role is the one statebox's client declared (a request without one is the agent's).
        """
        if role == "customer":
            return customer_reply(request, self.openings), "customer", None
        if role == "judge":
            return judge_reply(self.config.judge_answer), "judge", None
        start = opening_index(request.turns)
        task = self.openings.get(normalise(request.turns[start].text)) if start is not None else None
        if task is None:
            return Reply(UNKNOWN_REQUEST), "agent", None
        mode = attempt_mode(self.config.mode, self.config.error_rate, request.seed, task.opening_message)
        plan = build_plan(task, self.suite.domain_of(task), mode)
        return agent_reply(task, plan, request.turns), "agent", mode

    async def _chat(self, http: Request) -> Response:
        """The reply, sent `latency_ms` (+- jitter) after the request arrived: the time spent working
        it out is part of that latency, not added to it, so requests arriving together are answered
        together however long the server takes to take them in."""
        due = time.monotonic() + self._latency_s()
        response = await self._answer(http)
        if (wait := due - time.monotonic()) > 0:
            await asyncio.sleep(wait)
        return response

    def _latency_s(self) -> float:
        latency, jitter = self.config.latency_ms, self.config.latency_jitter_ms
        if jitter:
            latency += self._jitter.uniform(-jitter, jitter)
        return latency / 1000

    async def _answer(self, http: Request) -> Response:
        self.stats.requests += 1
        number = self.stats.requests
        if self._inject_failure(number):
            self.stats.failures_injected += 1
            return JSONResponse(self.wire.error("injected failure (fake model)", "server_error"), status_code=500)
        try:
            params = {**http.query_params, **http.path_params}
            request = self.wire.parse(json.loads(await http.body()), params)
        except (ValueError, BadRequest) as e:
            self.stats.bad_requests += 1
            return JSONResponse(self.wire.error(f"bad request: {e}", "invalid_request_error"), status_code=400)
        reply, role, mode = self.respond(request, http.headers.get(ROLE_HEADER))
        self.stats.completions += 1
        self.stats.by_role[role] += 1
        headers: dict[str, str] = {"x-statebox-fake-role": role}
        if mode is not None:
            self.stats.by_mode[mode] += 1
            headers["x-statebox-fake-mode"] = mode
        counts = usage(request, reply, self._tools_chars(request))
        return JSONResponse(self.wire.write(request, reply, f"chatcmpl-fake{number:08d}", counts), headers=headers)

    def _tools_chars(self, request: ChatRequest) -> int:
        """Every request of a campaign sends the same tools: their length is measured once per list.

        A list is known by its tools' names and descriptions (far cheaper than encoding every schema
        again); schemas changed under the same names and descriptions keep the first length seen, a
        difference only in the fake token count, which is an estimate anyway.
        """
        functions = [t.get("function") if isinstance(t, dict) else None for t in request.tools]
        key = json.dumps([(f.get("name"), f.get("description")) if isinstance(f, dict) else None for f in functions])
        found = self._tool_chars.get(key)
        if found is None:
            if len(self._tool_chars) >= _TOOL_LISTS:
                self._tool_chars.clear()
            found = self._tool_chars[key] = tools_chars(request.tools)
        return found

    def _inject_failure(self, number: int) -> bool:
        if number <= self.config.fail_first_n:
            return True
        return self.config.fail_rate > 0 and self._failures.random() < self.config.fail_rate

    async def _models(self, http: Request) -> Response:
        model = {"id": "fake", "object": "model", "created": 0, "owned_by": "statebox"}
        return JSONResponse({"object": "list", "data": [model]})

    async def _stats(self, http: Request) -> Response:
        return JSONResponse(self.stats.as_dict())


def index_openings(tasks: list[Task]) -> dict[str, Task]:
    """Tasks by whitespace-normalised opening message; the first task wins a shared opening."""
    index: dict[str, Task] = {}
    for task in tasks:
        index.setdefault(normalise(task.opening_message), task)
    return index
