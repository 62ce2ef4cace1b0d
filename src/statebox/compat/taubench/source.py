"""How a campaign runs τ-bench attempts: one launcher (a template per domain) for the whole campaign, a
`TauBackend` per attempt, and agents set up the way τ-bench runs its own (the policy as the one system prompt)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any

from statebox.agents.base import Agent, AgentTurn, AttemptContext
from statebox.agents.llm_agent import LlmAgent
from statebox.agents.scripted import ReferenceAgent
from statebox.compat.taubench.backend import TauBackend, TauRuntime
from statebox.compat.taubench.launch import server_name, tau_launcher
from statebox.compat.taubench.task import TauBenchTask
from statebox.llm.client import ModelClient
from statebox.mcp.errors import ToolServerError
from statebox.runner.backend import AttemptBackend
from statebox.runner.errors import CampaignError
from statebox.runner.source import AttemptSource
from statebox.tasks import Task

if TYPE_CHECKING:
    from statebox.compat.taubench.suite import TauSuite


class TauReferenceAgent(ReferenceAgent):
    """Replays the task's actions as τ-bench's reward replays them (verbatim, past failures), then tells
    the customer the task's required outputs, as τ-bench's outputs rule asks of an agent."""

    def __init__(self, task: TauBenchTask) -> None:
        super().__init__(task.reference, verbatim=True)
        self.outputs = list(task.tau.outputs)

    async def turn(self, ctx: AttemptContext, customer_message: str) -> AgentTurn:
        turn = await super().turn(ctx, customer_message)
        if self.outputs:
            turn.reply = "Here is what you asked for: " + "; ".join(self.outputs) + ". " + turn.reply
        return turn


class TauSource(AttemptSource):
    """Attempts of a `TauSuite` on statebox's τ-bench server, in the server Python, on the checkout's code."""

    def __init__(self, suite: TauSuite) -> None:
        self.suite = suite
        self.options = suite.options
        self._runtime: TauRuntime | None = None

    def manifest(self) -> dict[str, Any]:
        return {
            "tools_via": "stdio",
            "tau_bench": {
                "data": str(self.suite.checkout.root),
                "domain": self.suite.domain,
                "split": self.suite.split,
                "server_python": self.options.server_python,
                "server_start": "fork" if self.options.fork else "process",
                "checkout": self.suite.checkout.fingerprint(self.suite.domain),
            },
        }

    def running(self) -> AbstractAsyncContextManager[None]:
        return self._running()

    @asynccontextmanager
    async def _running(self) -> AsyncIterator[None]:
        suite, options = self.suite, self.options
        launcher = tau_launcher(suite.checkout.root, [suite.domain], options)
        async with launcher:
            try:
                await launcher.prepare(server_name(suite.domain))  # pay τ-bench's import once, up front
            except ToolServerError as e:
                raise CampaignError(f"{e} (is --server-python a Python where τ-bench and mcp are installed?)") from None
            policies: dict[str, str] = {suite.domain: suite.checkout.wiki(suite.domain)}
            self._runtime = TauRuntime(launcher, policies, options.start_timeout_s)
            try:
                yield
            finally:
                self._runtime = None

    def backend(self, task: Task) -> AttemptBackend:
        if self._runtime is None:
            raise RuntimeError("TauSource.backend() is only available while running()")
        return TauBackend(self._runtime, self.suite.tau_task(task.id))

    def reference_agent(self, task: Task) -> Agent:
        return TauReferenceAgent(self.suite.tau_task(task.id))

    def llm_agent(self, client: ModelClient, task: Task, time_budget_s: float) -> Agent:
        """τ-bench's tool-calling agent's set-up: the domain's policy is the one system message."""
        wiki = self.suite.checkout.wiki(self.suite.domain)
        return LlmAgent(client, task.limits, time_budget_s=time_budget_s, system_messages=[wiki])
