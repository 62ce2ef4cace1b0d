"""The OpenEnv `Environment`: reset opens an episode of a task, each step is one action."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from openenv.core import Environment
from openenv.core.env_server.types import EnvironmentMetadata

from statebox.openenv.episode import Episode, EpisodeOutcome
from statebox.openenv.models import ObservationKind, RewardKind, StateboxAction, StateboxObservation, StateboxState
from statebox.openenv.source import EpisodeSource


class StateboxEnvironment(Environment[StateboxAction, StateboxObservation, StateboxState]):
    """One session's environment. Cheap to make (the server makes one per WebSocket and per probe)."""

    SUPPORTS_CONCURRENT_SESSIONS = True  # every episode has its own in-memory database

    def __init__(self, source: EpisodeSource) -> None:
        super().__init__()
        self.source = source
        self.episode: Episode | None = None
        self._state = StateboxState(suite=source.suite.name, split=source.split)

    async def reset_async(
        self, seed: int | None = None, episode_id: str | None = None, task_id: str | None = None, **_: Any
    ) -> StateboxObservation:
        self.close()
        task = self.source.choose(task_id, seed)
        self.episode = episode = self.source.open(task)
        self._state = StateboxState(
            episode_id=episode_id or uuid.uuid4().hex, suite=self.source.suite.name, task_id=task.id,
            split=self.source.split, entries=1,
        )
        return StateboxObservation(
            kind="start", text=task.opening_message, task_id=task.id, domain=task.domain, policy=episode.policy,
            tools=[spec.model_dump(exclude={"writes"}) for spec in episode.tool_specs()],
            reward_kind=self._reward_kind(),
        )

    async def step_async(self, action: StateboxAction, timeout_s: float | None = None, **_: Any) -> StateboxObservation:
        episode = self.episode
        if episode is None:
            raise RuntimeError("no episode: reset first")
        if action.tool is not None:
            outcome = episode.call_tool(action.tool, action.arguments)
            obs = self._observe("tool_result", outcome.text, is_error=outcome.is_error, error_kind=outcome.error_kind)
        elif action.end:
            episode.end(action.message)
            obs = self._observe("end", "")
        else:
            obs = self._observe("customer", await episode.say(action.message or ""))
        self._state.step_count += 1
        self._state.entries = len(episode.transcript.entries)
        return obs

    def reset(self, seed: int | None = None, episode_id: str | None = None, **kwargs: Any) -> StateboxObservation:
        """In process, outside an event loop (the server always uses the async methods)."""
        return asyncio.run(self.reset_async(seed, episode_id, **kwargs))

    def step(self, action: StateboxAction, timeout_s: float | None = None, **kwargs: Any) -> StateboxObservation:
        return asyncio.run(self.step_async(action, timeout_s, **kwargs))

    @property
    def state(self) -> StateboxState:
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(
            name=f"statebox-{self.source.suite.name}",
            description=f"statebox suite {self.source.suite.name!r} ({len(self.source.task_ids)} tasks"
            + (f", {self.source.split} split)" if self.source.split else ")")
            + ": a simulated customer, business tools over a private database, judged by the end state",
            version="1",
        )

    def close(self) -> None:
        if self.episode is not None:
            self.episode.close()
            self.episode = None

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
            self._finish(obs, episode.outcome)
        return obs

    def _finish(self, obs: StateboxObservation, outcome: EpisodeOutcome) -> None:
        obs.done = True
        obs.reward = outcome.shaped_reward if self.source.shaped else outcome.reward
        obs.info = obs.metadata = outcome.info()
        self._state.done, self._state.finish_reason = True, outcome.finish_reason

    def _reward_kind(self) -> RewardKind:
        return "shaped" if self.source.shaped else "binary"
