"""What hosted attempts of one suite share, and resources held open across requests.

A hosted attempt (`statebox serve`, `statebox proxy`, an OpenEnv episode) is opened by one request and
closed by another, while a ThinkingBox-Bench attempt's tool servers live in task groups that must be
left by the task that entered them. `HeldContext` therefore enters an async context in a task of its
own and leaves it there when asked. `SuiteHost` makes an `AttemptBackend` per attempt of any suite
through the suite's own `AttemptSource` (a world session for built-in suites, whose references are
replayed once per task), holding the source's shared resources (tool-server templates) while started.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from statebox.judge.rubrics import RubricJudge, RubricScope
from statebox.llm.client import ModelClient
from statebox.runner.backend import AttemptBackend, OutcomeInputs, StateOutcome
from statebox.runner.errors import CampaignError
from statebox.runner.hosted import AttemptSurface, make_customer
from statebox.runner.judging import JudgingInputs, VerdictDocument, judge_verdict
from statebox.runner.source import AttemptSource
from statebox.runner.taskset import TaskSet
from statebox.tasks import Task
from statebox.tools import ToolSurface
from statebox.users.base import SimulatedCustomer

logger = logging.getLogger(__name__)
T = TypeVar("T")


class HeldContext(Generic[T]):
    """An async context manager entered and left in a task of its own: `open()` enters it and returns
    its value (or raises what entering raised); `close()` leaves it, from whichever task calls it."""

    def __init__(self, context: AbstractAsyncContextManager[T], label: str) -> None:
        self._context = context
        self._label = label
        self._entered: asyncio.Future[T] | None = None
        self._release = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def open(self) -> T:
        if self._task is not None:
            raise RuntimeError(f"{self._label} is already open")
        self._entered = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._hold(self._entered), name=f"hold {self._label}")
        try:
            return await asyncio.shield(self._entered)
        except asyncio.CancelledError:  # the opener gave up: leave the context as soon as it is entered
            await self.close()
            raise

    async def close(self) -> None:
        """Leave the context (once); waits until it has been left, even when the caller is cancelled."""
        self._release.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(self._task)

    @property
    def open_now(self) -> bool:
        return self._task is not None and not self._task.done()

    async def _hold(self, entered: asyncio.Future[T]) -> None:
        try:
            async with self._context as value:
                entered.set_result(value)
                await self._release.wait()
        except Exception as exc:
            if not entered.done():
                entered.set_exception(exc)  # the opener raises it
            else:  # nobody waits on the leaving: say what went wrong instead of losing it
                logger.exception("leaving %s failed", self._label)
        finally:
            if not entered.done():  # cancelled while entering
                entered.cancel()


@asynccontextmanager
async def attempt_lifetime(backend: AttemptBackend) -> AsyncIterator[ToolSurface]:
    """The backend's tools, open; the backend always closed afterwards (hold it with `HeldContext`)."""
    try:
        async with backend.tools() as surface:
            yield surface
    finally:
        await backend.aclose()


class SuiteHost:
    """One opened suite, making a backend per hosted attempt; `start()` before, `aclose()` after."""

    def __init__(self, suite: TaskSet) -> None:
        self.suite = suite
        # The hosting surface is the agent's MCP connection already: world-backed tools are called in process.
        self.source: AttemptSource = suite.attempt_source("direct")
        self._held: HeldContext[None] | None = None
        self._prepared: set[str] = set()

    def prepare(self, tasks: list[Task]) -> None:
        """Check what the tasks need (references replayed, servers startable); raises `CampaignError`."""
        todo = [t for t in tasks if t.id not in self._prepared]
        if todo:
            self.source.prepare(todo)
            self._prepared.update(t.id for t in todo)

    async def start(self) -> None:
        """Hold the source's shared resources (once); raises `CampaignError`."""
        if self._held is not None:
            return
        held: HeldContext[None] = HeldContext(self.source.running(), f"suite {self.suite.name}")
        await held.open()
        self._held = held

    def task(self, task_id: str) -> Task:
        """The task by id; LookupError naming the suite otherwise."""
        return self.suite.task(task_id)

    def backend(self, task: Task) -> AttemptBackend:
        """A fresh backend for one attempt of `task` (prepared first if it was not)."""
        self.prepare([task])
        if self._held is None:
            raise CampaignError(f"suite {self.suite.name!r} is not started")
        return self.source.backend(task)

    async def aclose(self) -> None:
        held, self._held = self._held, None
        if held is not None:
            await held.close()


@dataclass(frozen=True)
class HostedJudging:
    """What a hosted attempt's verdict may ask of a judge model: its client (None: rubrics not judged, said so)."""

    judge_client: ModelClient | None = None
    rubrics_on: RubricScope = "conversation"

    def rubric_judge(self, task: Task) -> RubricJudge | None:
        """A judge for one verdict of `task`, when it asks the judge model and there is one."""
        if self.judge_client is None or not task.asks_judge_model():
            return None
        return RubricJudge(self.judge_client)


class BackendAttempt:
    """One hosted attempt of any suite on its `AttemptBackend`; `open()` it before serving it."""

    def __init__(
        self,
        suite: str,
        task: Task,
        backend: AttemptBackend,
        customer: SimulatedCustomer | None,
        judging: HostedJudging | None = None,
    ) -> None:
        self.id = secrets.token_urlsafe(24)
        self.suite_name, self.task, self.backend, self.customer = suite, task, backend, customer
        self.judging = judging or HostedJudging()
        self.policy = backend.policy
        self.opening_message = task.opening_message
        self.closed = False
        self._held: HeldContext[ToolSurface] = HeldContext(attempt_lifetime(backend), f"attempt of {task.id}")
        self.channel: AttemptSurface | None = None

    async def open(self) -> BackendAttempt:
        """Start the attempt's state (a session, or tool servers initialised with the task's world)."""
        tools = await self._held.open()
        self.channel = AttemptSurface(tools, self.customer, self.opening_message, self.backend.customer_actions())
        return self

    @property
    def surface(self) -> ToolSurface:
        if self.channel is None:
            raise RuntimeError("the attempt is not open")
        return self.channel

    def status(self) -> dict[str, Any]:
        channel = self.channel
        transcript = channel.transcript if channel is not None else None
        return {
            "id": self.id,
            "suite": self.suite_name,
            "task": self.task.id,
            "tool_calls": channel.calls if channel is not None else 0,
            "conversation_ended": transcript is not None and transcript.finish_reason == "customer_ended",
            "end_reason": transcript.customer_end_reason if transcript is not None else None,
            "closed": self.closed,
        }

    async def outcome(self) -> StateOutcome:
        """The judge's view of the end state so far (the attempt stays open)."""
        if self.closed or self.channel is None:
            raise RuntimeError(f"the attempt of {self.task.id!r} is closed")
        return await self.backend.outcome(OutcomeInputs(self.channel.transcript, self.judging.rubric_judge(self.task)))

    async def verdict(self) -> tuple[StateOutcome, VerdictDocument]:
        """The end state so far and the verdict document on it (`runner/judging.py`, as `statebox run` judges)."""
        state = await self.outcome()
        assert self.channel is not None
        inputs = JudgingInputs(self.task, state, self.channel.transcript, self.backend.writes,
                               customer=self.customer is not None)  # fmt: skip
        return state, await judge_verdict(inputs, self.judging.rubric_judge(self.task), self.judging.rubrics_on)

    async def result(self) -> dict[str, Any]:
        """`{"task", "effects", "verdict"}`: the verdict is the verdict document (docs/contracts.md)."""
        state, document = await self.verdict()
        return {"task": self.task.id, "effects": state.effects, "verdict": document.model_dump(mode="json")}

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            await self._held.close()


SuiteOpener = Callable[[str], TaskSet]
"""Opens a suite by name (LookupError: no such suite; ValueError: bad options for it)."""


class HostedAttemptFactory:
    """Attempts of any suite by name and task id, for `statebox serve`, `statebox proxy` and OpenEnv.

    Each suite is opened once (by `open_suite`, with the provider options the command was given)
    and its `SuiteHost` started on first use; `aclose()` closes the hosts (after the attempts).
    """

    def __init__(
        self, open_suite: SuiteOpener, user_client: ModelClient | None = None, judge_client: ModelClient | None = None
    ) -> None:
        self.open_suite = open_suite
        self.user_client = user_client
        self.judge_client = judge_client
        self._hosts: dict[str, SuiteHost] = {}
        self._lock = asyncio.Lock()

    async def host(self, name: str) -> SuiteHost:
        """The started host of suite `name`; LookupError/ValueError for a suite that cannot be opened."""
        async with self._lock:
            if name not in self._hosts:
                host = SuiteHost(await asyncio.to_thread(self.open_suite, name))
                try:
                    if host.source.prepare_ahead:  # cheap checks, and every template the tasks need started up front
                        host.prepare(host.suite.tasks)
                    await host.start()
                except CampaignError as e:
                    raise ValueError(str(e)) from None
                self._hosts[name] = host
            return self._hosts[name]

    async def __call__(self, suite_name: str, task_id: str, user: str | None) -> BackendAttempt:
        host = await self.host(suite_name)
        task = host.task(task_id)
        customer = make_customer(user, task, self.user_client)
        try:
            backend = host.backend(task)
        except CampaignError as e:
            raise ValueError(str(e)) from None
        try:
            judging = HostedJudging(self.judge_client, host.suite.rubrics_on)
            return await BackendAttempt(suite_name, task, backend, customer, judging).open()
        except BaseExceptionGroup as group:  # the MCP client's task groups wrap what starting a server raised
            raise _single(group) from None

    async def aclose(self) -> None:
        hosts, self._hosts = list(self._hosts.values()), {}
        for host in hosts:
            await host.aclose()


def _single(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The one exception a chain of single-member groups wraps, else the group itself."""
    found: BaseException = group
    while isinstance(found, BaseExceptionGroup) and len(found.exceptions) == 1:
        found = found.exceptions[0]
    return found
