"""The reserved calls of statebox's τ-bench server (`server/statebox_tau_server.py`), over an `mcp.ClientSession`.

Per attempt: `reserved_init(split, index)` -> the agent's tool calls -> `reserved_effects(responses)`.
Reserved tools are never listed to agents, and an agent calling one gets the unknown-tool answer.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types
from mcp import ClientSession
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from statebox.compat.taubench.models import TauTaskData
from statebox.mcp.errors import ToolServerError

RESERVED_PREFIX = "__reserved__"
INIT_TOOL = RESERVED_PREFIX + "init"
EFFECTS_TOOL = RESERVED_PREFIX + "effects"
HASH_TOOL = RESERVED_PREFIX + "hash"


class TauEffects(BaseModel):
    """What the server reports at the end of an attempt (see the server's module doc)."""

    model_config = ConfigDict(extra="ignore")

    reward: float
    reward_info: dict[str, Any]  # τ-bench's RewardResult, as its own code computed it
    state_hash: str
    gt_data_hash: str
    r_actions: bool
    outputs: dict[str, bool] | None = None  # per required output: said to the customer (None: the task has none)
    changes: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)  # pristine -> result
    golden_changes: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)  # pristine -> replay of the actions


def is_reserved(name: str) -> bool:
    return name.startswith(RESERVED_PREFIX)


def result_text(result: types.CallToolResult) -> str:
    return "".join(part.text for part in result.content if isinstance(part, types.TextContent))


async def reserved_init(session: ClientSession, server: str, split: str, index: int) -> TauTaskData:
    """Fresh data and the task for one attempt; the task as the server's τ-bench has it."""
    answer = _answer(
        server, "initialise", result_text(await session.call_tool(INIT_TOOL, {"split": split, "index": index}))
    )
    try:
        return TauTaskData.model_validate(answer.get("task"))
    except ValidationError as e:
        raise ToolServerError(f"tool server {server!r} answered init with a task statebox cannot read: {e}") from e


async def reserved_effects(session: ClientSession, server: str, responses: list[str]) -> TauEffects:
    """The reward by τ-bench's own code, both hashes and the changed entries."""
    text = result_text(await session.call_tool(EFFECTS_TOOL, {"responses": responses}))
    try:
        return TauEffects.model_validate(_answer(server, "report effects", text))
    except ValidationError as e:
        raise ToolServerError(f"tool server {server!r} reported malformed effects: {e}") from e


async def reserved_hash(session: ClientSession, server: str) -> str:
    """The state's hash now, by τ-bench's `get_data_hash`."""
    answer = _answer(server, "hash its state", result_text(await session.call_tool(HASH_TOOL, {})))
    return str(answer.get("state_hash"))


def _answer(server: str, what: str, text: str) -> dict[str, Any]:
    try:
        answer = json.loads(text)
    except ValueError:
        answer = None
    if not isinstance(answer, dict) or answer.get("status") != "ok":
        raise ToolServerError(f"tool server {server!r} could not {what}: {text[:2000]}")
    return answer
