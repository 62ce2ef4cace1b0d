"""OpenEnv's `EnvClient` for a statebox server, with the bearer token a non-loopback server needs."""

from __future__ import annotations

from typing import Any

from openenv.core import EnvClient
from openenv.core.client_types import StepResult

from statebox.openenv.mcp_view import StateboxToolList, StateboxToolResult
from statebox.openenv.models import StateboxAction, StateboxObservation, StateboxState
from statebox.openenv.upstream import check_client, connect_with_headers


class StateboxEnv(EnvClient[StateboxAction, StateboxObservation, StateboxState]):
    """`async with StateboxEnv(base_url="http://127.0.0.1:8000") as env: await env.reset(task_id=...)`."""

    def __init__(self, base_url: str, *, token: str | None = None, **kwargs: Any) -> None:
        super().__init__(base_url, **kwargs)
        self._token = token
        check_client(self)

    async def connect(self) -> StateboxEnv:
        if self._token is not None:
            await connect_with_headers(self, {"Authorization": f"Bearer {self._token}"})
        await super().connect()
        return self

    def _step_payload(self, action: StateboxAction) -> dict[str, Any]:
        return action.model_dump(exclude={"metadata"}, exclude_none=True)

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[StateboxObservation]:
        # `metadata` comes over the wire: the task on the start observation, the verdict (as `info`) at the end.
        # OpenEnv's MCP actions (`type` list_tools / call_tool) are answered in OpenEnv's MCP observation types.
        data = payload.get("observation", {})
        kind: Any = StateboxToolResult if "tool_name" in data else StateboxObservation if "kind" in data else (
            StateboxToolList)
        obs = kind(**data, done=payload.get("done", False), reward=payload.get("reward"))
        return StepResult(observation=obs, reward=payload.get("reward"), done=payload.get("done", False))

    def _parse_state(self, payload: dict[str, Any]) -> StateboxState:
        return StateboxState(**payload)
