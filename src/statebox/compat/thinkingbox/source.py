"""How a campaign runs ThinkingBox-Bench attempts: one launcher for the whole campaign, a
`TbBackend` per attempt, and agents set up the way the benchmark's agent spec says."""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from statebox.agents.base import Agent
from statebox.agents.llm_agent import LlmAgent, OfferedTools
from statebox.agents.scripted import ReferenceAgent
from statebox.compat.thinkingbox.backend import TbBackend, TbRuntime
from statebox.compat.thinkingbox.clockpin import BENCH_NOW
from statebox.compat.thinkingbox.errors import TbFormatError
from statebox.compat.thinkingbox.launch import BenchLaunch, bench_launcher
from statebox.compat.thinkingbox.models import TbServers
from statebox.llm.client import ModelClient
from statebox.mcp.errors import ToolServerError
from statebox.runner.backend import AttemptBackend
from statebox.runner.errors import CampaignError
from statebox.runner.source import AttemptSource
from statebox.tasks import Task
from statebox.tools.quoting import message_of

if TYPE_CHECKING:
    from statebox.compat.thinkingbox.suite import TbSuite
    from statebox.runner.plan import CampaignConfig

DONE_MARKER = "<DONE>"  # a text reply ending with it ends the episode
TYPESENSE_KEY_ENV = "TYPESENSE_API_KEY"
YOUNG_GC_THRESHOLD = 20_000  # allocations between collections of the youngest generation during a campaign


class TbSource(AttemptSource):
    """Attempts of a `TbSuite` against the checkout's tool servers, clock pinned to the benchmark's now."""

    def __init__(self, suite: TbSuite) -> None:
        self.suite = suite
        self.options = suite.options
        self.checkout = suite.checkout
        self.agent_spec = suite.checkout.agent()
        self._servers: list[str] = []
        self._runtime: TbRuntime | None = None
        # Each (server, scenario) tool list converted and encoded for the model once per campaign, not per
        # attempt: the runtime offers every attempt the same specs (`TbRuntime.visible`), so the lists match.
        self._offered = OfferedTools()

    def manifest(self) -> dict[str, Any]:
        return {
            "search_backend": self.options.search_backend,
            "tools_via": "stdio",
            "thinkingbox": {
                "data": str(self.checkout.root),
                "test_list": str(self.suite.test_list) if self.suite.test_list else None,
                "server_python": self.options.server_python,
                "clock_pin": BENCH_NOW,
                "server_start": "fork" if self.options.fork else "process",
                "unsupported": [task_id for task_id, _ in self.suite.unsupported],
            },
        }

    def check(self, config: CampaignConfig) -> None:
        if config.sampling.parallel_tool_calls:
            raise CampaignError(f"{self.suite.name} runs with parallel tool calls off, as its agent spec says")

    def prepare(self, tasks: list[Task]) -> None:
        """Every server the tasks need is in servers.yaml and startable; every init config merges."""
        try:
            servers = self.checkout.servers()
            for task in tasks:
                bench = self.suite.bench(task.id)
                for name in bench.servers:
                    servers.entry(name).spec(self.options.server_python)
                    self.checkout.init_config(bench.tb, name)
                    if name not in self._servers:
                        self._servers.append(name)
        except (KeyError, ValueError, TbFormatError) as e:
            raise CampaignError(message_of(e)) from None

    def running(self) -> AbstractAsyncContextManager[None]:
        return self._running()

    @asynccontextmanager
    async def _running(self) -> AsyncIterator[None]:
        options = self.options
        launch = BenchLaunch(
            python=options.server_python, fork=options.fork, prefork=options.prefork,
            call_timeout_s=options.call_timeout_s, start_timeout_s=options.start_timeout_s, clock_pin=BENCH_NOW,
            used=self._servers,
        )  # fmt: skip
        launcher = bench_launcher(self._server_entries(), self.checkout.root, launch)
        async with launcher:
            try:
                await launcher.prepare(*self._servers)  # pay each server's import once, up front
            except ToolServerError as e:
                raise CampaignError(str(e)) from None
            self._runtime = TbRuntime(self.checkout, launcher, self.options, self.agent_spec)
            # Everything set up so far (modules, schemas, the suite) lives to the campaign's end:
            # frozen, it is not traversed again by every full collection an attempt's garbage triggers.
            # And the young generation is collected every 20,000 allocations rather than 700: the
            # servers' three 100+ KB states per attempt would otherwise trigger a collection every few rows.
            gc.freeze()
            thresholds = gc.get_threshold()
            gc.set_threshold(max(thresholds[0], YOUNG_GC_THRESHOLD), *thresholds[1:])
            try:
                yield
            finally:
                self._runtime = None
                gc.set_threshold(*thresholds)
                gc.unfreeze()

    def backend(self, task: Task) -> AttemptBackend:
        if self._runtime is None:
            raise RuntimeError("TbSource.backend() is only available while running()")
        return TbBackend(self._runtime, self.suite.bench(task.id))

    def reference_agent(self, task: Task) -> Agent:
        return ReferenceAgent(task.reference, verbatim=True)

    def llm_agent(self, client: ModelClient, task: Task, time_budget_s: float) -> Agent:
        """The benchmark's agent prompt, then the scenario's policy, as two system messages."""
        bench = self.suite.bench(task.id)
        prompt = [self.agent_spec.system_instructions, self.checkout.policy(bench.tb)]
        return LlmAgent(
            client, task.limits, time_budget_s=time_budget_s, system_messages=prompt, done_marker=DONE_MARKER,
            offered=self._offered,
        )  # fmt: skip

    def _server_entries(self) -> TbServers:
        """servers.yaml, plus where Typesense runs when the user gave one."""
        servers = self.checkout.servers()
        url = self.options.typesense_url
        if url is None:
            return servers
        parts = urlsplit(url)
        extra = {
            "TYPESENSE_URL": url,
            "TYPESENSE_HOST": parts.hostname or "",
            "TYPESENSE_PORT": str(parts.port or (443 if parts.scheme == "https" else 8108)),
            "TYPESENSE_PROTOCOL": parts.scheme or "http",
        }
        if TYPESENSE_KEY_ENV in os.environ:
            extra[TYPESENSE_KEY_ENV] = os.environ[TYPESENSE_KEY_ENV]
        entries = {name: e.model_copy(update={"env": {**e.env, **extra}}) for name, e in servers.servers.items()}
        return TbServers(servers=entries)
