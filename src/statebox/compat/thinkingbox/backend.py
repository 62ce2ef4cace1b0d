"""One ThinkingBox-Bench attempt over the benchmark's own tool servers.

Per attempt: a fresh process per server (forked from a template when the command allows),
`__reserved__init` with the merged world state, the scenario's tools for the agent, then
`__reserved__geteffects` for the verdict. `aclose()` asks each server to tear down (failures
tolerated) when a Typesense is in use (the servers' teardown only cleans their Typesense
collections; with embedded search there is nothing to clean, and asking costs a round trip per
server), and always kills the processes, on errors and cancellation too.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field
from functools import partial

import mcp_types as types

from statebox.compat.common.backend import ServersBackend
from statebox.compat.thinkingbox.custom_check import CustomCheckInfraError, CustomCheckRunner
from statebox.compat.thinkingbox.custom_check_context import ContextSetup
from statebox.compat.thinkingbox.custom_check_isolation import IsolationUnavailable, find_isolation
from statebox.compat.thinkingbox.custom_check_outcome import custom_outcome
from statebox.compat.thinkingbox.effects import judge_effects
from statebox.compat.thinkingbox.loader import TbCheckout
from statebox.compat.thinkingbox.models import TbAgentSpec, TbEffects, TbPolicySource, TbScenario, TbServerInit
from statebox.compat.thinkingbox.options import TbRunOptions
from statebox.compat.thinkingbox.protocol import reserved_geteffects, reserved_init, reserved_teardown, visible_tools
from statebox.compat.thinkingbox.surface import TbToolSurface, builtin_specs
from statebox.compat.thinkingbox.task import TbBenchTask, exposed_name
from statebox.mcp.launch import ToolServer, ToolServerLauncher
from statebox.runner.backend import OutcomeInputs, StateOutcome
from statebox.tools import ToolSpec, ToolSurface

logger = logging.getLogger(__name__)
TEARDOWN_TIMEOUT_S = 5.0


@dataclass
class TbRuntime:
    """What every attempt of one campaign shares: the checkout, the launcher, the options."""

    checkout: TbCheckout
    launcher: ToolServerLauncher
    options: TbRunOptions
    agent: TbAgentSpec
    tool_lists: dict[str, list[types.Tool]] = field(default_factory=dict)  # per server: listed once
    inits: dict[tuple[str, str], TbServerInit] = field(default_factory=dict)  # (task, server): merged once
    sources: dict[tuple[str, str], list[TbPolicySource]] = field(default_factory=dict)  # (scenario, server)
    specs: dict[tuple[str, str], list[ToolSpec]] = field(default_factory=dict)  # (server, scenario): made once
    _checks: CustomCheckRunner | None = None  # made at the first custom check
    _builtins: list[ToolSpec] | None = None  # made at the first attempt

    def check_runner(self) -> CustomCheckRunner:
        """The campaign's custom-check runner, in the isolation the options name (found once)."""
        if self._checks is None:
            isolation = self.options.isolation
            if isolation is None:
                try:
                    isolation = find_isolation(self.options.unsafe_custom_checks)
                except IsolationUnavailable as e:
                    raise CustomCheckInfraError(str(e)) from None
            self._checks = CustomCheckRunner(self.options.server_python, isolation)
        return self._checks

    def builtins(self) -> list[ToolSpec]:
        """The agent spec's own tools, made once per campaign (see `visible`)."""
        if self._builtins is None:
            self._builtins = builtin_specs(self.agent.builtin_tools)
        return self._builtins

    def visible(self, server: str, tools: list[types.Tool], scenario: TbScenario) -> list[ToolSpec]:
        """The tools of `server` an agent sees in `scenario`, made once per campaign: every attempt
        offers the same specs, so the agent's model client encodes them once, not per attempt."""
        key = (server, scenario.name)
        if key not in self.specs:
            self.specs[key] = visible_tools(tools, scenario)
        return self.specs[key]

    def init_config(self, task: TbBenchTask, server: str) -> TbServerInit:
        """The task's merged world state for `server`, merged once per campaign; tasks that add no
        policy documents of their own share their scenario's."""
        key = (task.id, server)
        if key not in self.inits:
            init = self.checkout.init_config(task.tb, server)
            if "sources" not in (task.tb.init.get(server) or {}):
                shared = self.sources.setdefault((task.tb.scenario, server), init.sources)
                init = init.model_copy(update={"sources": shared})
            self.inits[key] = init
        return self.inits[key]


class TbBackend(ServersBackend):
    """The state of one attempt lives in the task's server processes until `aclose()`."""

    def __init__(self, runtime: TbRuntime, task: TbBenchTask) -> None:
        super().__init__(runtime.checkout.policy(task.tb))
        self.runtime = runtime
        self.task = task
        self.surface = TbToolSurface()
        self.links: list[ToolServer] = []

    async def serve(self) -> ToolSurface:
        for server in self.task.servers:
            await self._start(server)
        self.surface.add_builtins(self.runtime.agent.builtin_tools, self.runtime.builtins())
        return self.surface

    async def _start(self, server: str) -> None:
        runtime, tb = self.runtime, self.task.tb
        link = await self.connect(runtime.launcher, server)
        self.links.append(link)
        session, timeout = link.session, runtime.options.start_timeout_s
        init = runtime.init_config(self.task, server)
        embedded = runtime.options.typesense_url is None
        config = init.config if embedded else {**init.config, "sources": [s.model_dump() for s in init.sources]}
        tools = runtime.tool_lists.get(server)
        if tools is not None and runtime.options.known_tools:
            link.know_tools(tools)  # listed once per campaign: no session lists them again to validate
        await link.guard("__reserved__init", partial(reserved_init, session, server, config), timeout)
        if tools is None:
            tools = runtime.tool_lists[server] = await link.list_tools()
        scenario = runtime.checkout.scenario(tb.scenario)
        visible = runtime.visible(server, tools, scenario)
        self.surface.add_server(link, tools, scenario, self.task.servers, init.sources if embedded else None, visible)

    async def outcome(self, inputs: OutcomeInputs) -> StateOutcome:
        if len(self.links) != len(self.task.servers):
            raise RuntimeError("outcome() before the attempt's servers were started")
        if self.task.custom_check is not None:  # graded by the test function's own check, sandboxed
            runner, check, setup = self.runtime.check_runner(), self.task.custom_check, self._setup()
            return await custom_outcome(self.links, check, runner, inputs.transcript, setup, inputs.rubric_judge)
        reports: dict[str, TbEffects] = {}
        for link in self.links:
            report = partial(reserved_geteffects, link.session, link.name)
            reports[link.name] = await link.guard("__reserved__geteffects", report)
        judged = judge_effects(reports)
        self._changed = judged.changed
        return StateOutcome(judged.verdict, judged.summary, required_effects=judged.requires_changes)

    def _setup(self) -> ContextSetup:
        """What of the attempt's setup a custom check sees: the prompts, and the tools that end the turn or speak."""
        scenario = self.runtime.checkout.scenario(self.task.tb.scenario)
        servers = self.task.servers
        exposed = {exposed_name(server, ref.name, servers): ref.name for server in servers for ref in scenario.tools}
        return ContextSetup.of(self.runtime.agent, self.policy, scenario, exposed)

    def tool_writes(self, tool: str) -> bool:
        """The servers don't say which tools write: every tool does but those a server marks read-only."""
        return self.surface.writes(tool)

    async def aclose(self) -> None:
        try:
            for link in self.links if self.runtime.options.typesense_url is not None else ():
                if link.failure is None:
                    with contextlib.suppress(Exception):
                        teardown = partial(reserved_teardown, link.session)
                        answer = await link.guard("__reserved__teardown", teardown, TEARDOWN_TIMEOUT_S)
                        logger.debug("teardown of %s: %.200s", link.name, answer)
        finally:
            self.surface.close()
            await super().aclose()
