"""OpenEnv's `EnvClient` for a statebox server, with the bearer token a non-loopback server needs."""

from __future__ import annotations

from typing import Any

from openenv.core import EnvClient
from openenv.core.client_types import StepResult
from websockets.asyncio.client import connect as ws_connect

from statebox.openenv.models import StateboxAction, StateboxObservation, StateboxState


class StateboxEnv(EnvClient[StateboxAction, StateboxObservation, StateboxState]):
    """`async with StateboxEnv(base_url="http://127.0.0.1:8000") as env: await env.reset(task_id=...)`."""

    def __init__(self, base_url: str, *, token: str | None = None, **kwargs: Any) -> None:
        super().__init__(base_url, **kwargs)
        self._token = token

    async def connect(self) -> StateboxEnv:
        if self._token is not None and self._ws is None:  # type: ignore[has-type]
            try:
                self._ws = await ws_connect(
                    self._ws_url, open_timeout=self._connect_timeout, max_size=self._max_message_size,
                    additional_headers={"Authorization": f"Bearer {self._token}"},
                )
            except Exception as e:  # as the base client does: one error type for "could not connect"
                raise ConnectionError(f"Failed to connect to {self._ws_url}: {e}") from e
        await super().connect()
        return self

    def _step_payload(self, action: StateboxAction) -> dict[str, Any]:
        return action.model_dump(exclude={"metadata"}, exclude_none=True)

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[StateboxObservation]:
        obs = StateboxObservation(**payload.get("observation", {}), done=payload.get("done", False),
                                  reward=payload.get("reward"))
        obs.metadata = obs.info
        return StepResult(observation=obs, reward=payload.get("reward"), done=payload.get("done", False))

    def _parse_state(self, payload: dict[str, Any]) -> StateboxState:
        return StateboxState(**payload)
