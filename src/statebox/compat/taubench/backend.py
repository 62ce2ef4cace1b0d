"""One τ-bench attempt on a fresh process of statebox's τ-bench server (forked from a template).

Per attempt: `__reserved__init` (fresh data by τ-bench's `load_data()`, the task by its index), the
domain's tools for the agent, then `__reserved__effects` with what the agent said to the customer (the
transcript the runner passes in), graded by τ-bench's own reward. `aclose()` kills and reaps the process,
on errors and cancellation too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import mcp_types as types

from statebox.compat.common.backend import ServersBackend
from statebox.compat.taubench.judgement import judge_effects, responses
from statebox.compat.taubench.launch import server_name
from statebox.compat.taubench.protocol import reserved_effects, reserved_hash, reserved_init
from statebox.compat.taubench.surface import TauToolSurface, tool_specs
from statebox.compat.taubench.task import TauBenchTask
from statebox.mcp.errors import ToolServerError
from statebox.mcp.launch import ToolServer, ToolServerLauncher
from statebox.runner.backend import OutcomeInputs, StateOutcome
from statebox.tools import ToolSurface


@dataclass
class TauRuntime:
    """What every attempt of one campaign shares: the launcher, the policies, each server's tool list."""

    launcher: ToolServerLauncher
    policies: dict[str, str]  # domain -> wiki (a task's `domain`)
    start_timeout_s: float
    tool_lists: dict[str, list[types.Tool]] = field(default_factory=dict)  # per server: listed once


class TauBackend(ServersBackend):
    """The state of one attempt lives in its server process until `aclose()`."""

    def __init__(self, runtime: TauRuntime, task: TauBenchTask) -> None:
        super().__init__(runtime.policies[task.domain])
        self.runtime = runtime
        self.task = task
        self.link: ToolServer | None = None

    async def serve(self) -> ToolSurface:
        return TauToolSurface(await self.start(), tool_specs(await self._tool_list()))

    async def start(self) -> ToolServer:
        """The attempt's server, initialised with fresh data and the task (started once)."""
        if self.link is None:
            runtime, task = self.runtime, self.task
            name = server_name(task.tau_domain)
            link = await self.connect(runtime.launcher, name)
            init = partial(reserved_init, link.session, name, task.split, task.index)
            served = await link.guard("__reserved__init", init, runtime.start_timeout_s)
            if not served.same_grading(task.tau):
                raise ToolServerError(
                    f"tool server {name!r}: its τ-bench grades task {task.domain} {task.split} {task.index} "
                    "differently from the checkout given with --data (is --server-python's τ-bench another version?)"
                )
            self.link = link
        return self.link

    async def _tool_list(self) -> list[types.Tool]:
        assert self.link is not None
        name = self.link.name
        if name not in self.runtime.tool_lists:
            self.runtime.tool_lists[name] = await self.link.list_tools()
        return self.runtime.tool_lists[name]

    async def outcome(self, inputs: OutcomeInputs) -> StateOutcome:
        if self.link is None:
            raise RuntimeError("outcome() before the attempt's server was started")
        link = self.link
        report = partial(reserved_effects, link.session, link.name, responses(inputs.transcript))
        judged = judge_effects(await link.guard("__reserved__effects", report))
        self._changed = judged.changed
        return StateOutcome(judged.verdict, judged.effects, required_effects=judged.requires_changes)

    async def state_hash(self) -> str:
        """The data's hash now (validation reads it after each reference call)."""
        link = await self.start()
        return await link.guard("__reserved__hash", partial(reserved_hash, link.session, link.name))

    def tool_writes(self, tool: str) -> bool:
        """Tools that only read never write."""
        return TauToolSurface.writes_tool(tool)
