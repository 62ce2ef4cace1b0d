"""The OpenEnv `Environment`: reset opens an episode of a task, each step is one action.

An action is statebox's (a tool call, a message, the end) or OpenEnv's MCP `list_tools` / `call_tool`
(answered by `mcp_view`); OpenEnv's JSON-RPC routes reach the same steps through `mcp_client`.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Coroutine
from typing import Any, TypeVar

from openenv.core import Environment, Observation
from openenv.core.env_server.types import EnvironmentMetadata

from statebox.openenv.episode import Episode, EpisodeOutcome, Turn
from statebox.openenv.mcp_view import McpBridge, StateboxToolResult, call_result, tool_list
from statebox.openenv.models import ObservationKind, RewardKind, StateboxAction, StateboxObservation, StateboxState
from statebox.openenv.source import EpisodeSource
from statebox.openenv.tool_forms import openai_tools
from statebox.tools import ToolOutcome

R = TypeVar("R")


NO_EPISODE = (
    "no episode: reset first (the tools are the task's; JSON-RPC goes as `mcp` messages on the /ws session "
    "you reset, POST /mcp has no episode)"
)


class SessionExpired(RuntimeError):
    """A step after the idle reaper closed the session's episode."""


class StateboxEnvironment(Environment[StateboxAction, StateboxObservation, StateboxState]):
    """One session's environment. Cheap to make (the server makes one per WebSocket and per probe).

    The episode lives on the event loop that reset it; the synchronous `reset`/`step` (in process,
    outside a loop) run on a loop of the environment's own, so the episode survives between calls.
    """

    SUPPORTS_CONCURRENT_SESSIONS = True  # every episode has its own state (a database, or tool servers)
    # OpenEnv makes (and closes) each session's environment in a worker thread, by default a thread per
    # session that then idles for the session's life; everything here runs on the event loop, so one
    # shared thread does, and 100 sessions hold 100 fewer threads (each with its stack and malloc arena).
    REQUIRES_SINGLE_THREAD_EXECUTOR = True

    def __init__(self, source: EpisodeSource) -> None:
        super().__init__()
        self.source = source
        self.episode: Episode | None = None
        self._state = StateboxState(suite=source.suite.name, split=source.split)
        self._loop: asyncio.AbstractEventLoop | None = None  # where the episode lives
        self._own_loop: asyncio.AbstractEventLoop | None = None  # for the synchronous API
        self._closing: asyncio.Task[None] | None = None
        self._last_used = source.clock()
        self._busy = 0
        self._expired_after: float | None = None
        self.mcp_client = McpBridge(self)  # what OpenEnv's JSON-RPC routes (`/mcp`, `mcp` messages) call

    async def reset_async(
        self, seed: int | None = None, episode_id: str | None = None, task_id: str | None = None, **_: Any
    ) -> StateboxObservation:
        self._busy += 1
        try:
            await self.aclose()
            self._expired_after = None
            task = self.source.choose(task_id, seed)
            self._loop = asyncio.get_running_loop()
            self.episode = episode = await self.source.open(task)
            self.source.environments.add(self)
        finally:
            self._touch()
        self._state = StateboxState(
            episode_id=episode_id or uuid.uuid4().hex, suite=self.source.suite.name, task_id=task.id,
            split=self.source.split, entries=1,
        )
        offered = episode.offered()
        return StateboxObservation(
            kind="start", text=task.opening_message, task_id=task.id, domain=task.domain, policy=episode.policy,
            tools=[spec.model_dump(exclude={"writes"}) for spec in offered], openai_tools=openai_tools(offered),
            reward_kind=self._reward_kind(),
            metadata={"task_id": task.id, "domain": task.domain, "opening_message": task.opening_message,
                      "policy": episode.policy},  # what a client that keeps only `metadata` (MCPToolClient) needs
        )

    async def step_async(self, action: StateboxAction, timeout_s: float | None = None, **_: Any) -> Observation:
        episode = self._open_episode()
        if action.type == "list_tools":  # OpenEnv's MCP listing: no step of the episode
            return tool_list(episode.offered())
        self._busy += 1
        try:
            turn = await self._act(episode, action)
        finally:
            self._touch()
        self._state.step_count += 1
        self._state.entries = len(episode.transcript.entries)
        if action.type == "call_tool":
            return self._mcp_result(str(action.tool), turn)
        return self._observe(turn.kind, turn.outcome.text, is_error=turn.outcome.is_error,
                             error_kind=turn.outcome.error_kind)

    def _open_episode(self) -> Episode:
        if self.episode is not None:
            return self.episode
        if self._expired_after is not None:
            raise SessionExpired(
                f"this session's episode was closed after {self._expired_after:g} s without a reset or step "
                "(the server's --idle-timeout), unjudged; reset to start a new one"
            )
        raise RuntimeError(NO_EPISODE)

    @staticmethod
    async def _act(episode: Episode, action: StateboxAction) -> Turn:
        if action.tool is not None:
            return await episode.use(action.tool, action.arguments)
        if action.end:
            await episode.end(action.message)
            return Turn("end", ToolOutcome(text=""))
        return Turn("customer", ToolOutcome(text=await episode.say(action.message or "")))

    def reset(self, seed: int | None = None, episode_id: str | None = None, **kwargs: Any) -> StateboxObservation:
        """In process, outside an event loop (the server always uses the async methods)."""
        return self._run(self.reset_async(seed, episode_id, **kwargs))

    def step(self, action: StateboxAction, timeout_s: float | None = None, **kwargs: Any) -> Observation:
        return self._run(self.step_async(action, timeout_s, **kwargs))

    @contextlib.asynccontextmanager
    async def mcp_session(self) -> AsyncIterator[McpBridge]:
        """OpenEnv holds this open for a session's life: nothing to open, the tools are the episode's."""
        yield self.mcp_client

    @property
    def state(self) -> StateboxState:
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(
            name=f"statebox-{self.source.suite.name}",
            description=f"statebox suite {self.source.suite.name!r} ({len(self.source.task_ids)} tasks"
            + (f", {self.source.split} split)" if self.source.split else ")")
            + ": a simulated customer, business tools over a private state, judged by the end state",
            version="1",
        )

    def idle_since(self, now: float) -> float:
        if self._busy or self.episode is None:
            return 0.0
        return now - self._last_used

    async def expire(self, timeout_s: float | None) -> None:
        """Close the episode (the idle reaper, or the server stopping); the next step says why."""
        if timeout_s is not None and self.episode is not None:
            self._expired_after = timeout_s
        await self.aclose()

    async def aclose(self) -> None:
        """Release the open episode, if any (on the loop it lives on)."""
        self.source.environments.discard(self)
        episode, self.episode = self.episode, None
        if episode is not None:
            await episode.close()

    def close(self) -> None:
        """Release the episode from any thread: OpenEnv calls this from a worker thread, or on its loop."""
        loop = self._loop
        if loop is None or loop.is_closed():
            self.episode = None
        elif loop is self._own_loop and not loop.is_running():
            loop.run_until_complete(self.aclose())
        elif _running_loop() is loop:
            self._closing = loop.create_task(self.aclose())
        else:  # a worker thread shared by every session: hand the closing to the loop, never wait on it
            asyncio.run_coroutine_threadsafe(self.aclose(), loop)
        if self._own_loop is not None and not self._own_loop.is_running():
            self._own_loop.close()
            self._own_loop = None

    def _run(self, coroutine: Coroutine[Any, Any, R]) -> R:
        if self._own_loop is None:
            self._own_loop = asyncio.new_event_loop()
        return self._own_loop.run_until_complete(coroutine)

    def _touch(self) -> None:
        self._busy -= 1
        self._last_used = self.source.clock()

    def _observe(self, kind: ObservationKind, text: str, *, is_error: bool = False, error_kind: str | None = None
                 ) -> StateboxObservation:
        episode = self.episode
        assert episode is not None
        obs = StateboxObservation(
            kind="end" if episode.done else kind,
            text=text, is_error=is_error, error_kind=error_kind, task_id=episode.task.id, domain=episode.task.domain,
            reward_kind=self._reward_kind(),
        )
        if episode.outcome is not None:
            obs.info = self._finish(obs, episode.outcome)
        return obs

    def _mcp_result(self, tool_name: str, turn: Turn) -> StateboxToolResult:
        episode = self.episode
        assert episode is not None
        outcome = turn.outcome
        obs = StateboxToolResult(
            tool_name=tool_name, result=call_result(outcome), kind="end" if episode.done else turn.kind,
            is_error=outcome.is_error, error_kind=outcome.error_kind, task_id=episode.task.id,
            reward_kind=self._reward_kind(),
        )
        if episode.outcome is not None:
            self._finish(obs, episode.outcome)
        return obs

    def _finish(self, obs: Observation, outcome: EpisodeOutcome) -> dict[str, Any]:
        """Mark `obs` the last: done, the reward, the verdict in `metadata` (returned, for `info`)."""
        obs.done = True
        obs.reward = outcome.shaped_reward if self.source.shaped else outcome.reward
        obs.metadata = outcome.info()
        self._state.done, self._state.finish_reason = True, outcome.finish_reason
        return obs.metadata

    def _reward_kind(self) -> RewardKind:
        return "shaped" if self.source.shaped else "binary"


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
