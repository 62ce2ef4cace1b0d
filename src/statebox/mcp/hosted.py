"""What the MCP layer needs from one attempt: its tools, its customer channel and its results."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from statebox.tools.surface import ToolSurface

RESERVED_PREFIX = "__reserved__"
"""Tools named so set up and grade an attempt (ThinkingBox-Bench's `__reserved__init`, `__reserved__geteffects`,
`__reserved__server_tool`, ...). No statebox surface lists them or lets an agent call them."""


def is_reserved(name: str) -> bool:
    """Whether `name` is a setup or grading tool, out of any agent's reach."""
    return name.startswith(RESERVED_PREFIX)


class HostedAttempt(Protocol):
    """One live attempt as the MCP server and the proxy see it.

    `surface` is everything the agent may call (including `reply_to_customer` when the
    attempt has a simulated customer); setup and grading stay behind `result()`, which
    only the operator reaches.
    """

    id: str
    policy: str
    opening_message: str

    @property
    def surface(self) -> ToolSurface:
        """What the agent may call."""
        ...

    def status(self) -> dict[str, Any]:
        """A JSON-able snapshot for the operator (progress, whether the conversation ended)."""
        ...

    def result(self) -> dict[str, Any] | Awaitable[dict[str, Any]]:
        """`{"task", "effects", "verdict"}`, the verdict being the verdict document every surface returns
        (docs/contracts.md); awaitable when the end state lives in tool servers (see `attempt_result`)."""
        ...

    async def close(self) -> None:
        """Release the attempt's resources; called once, when the attempt is destroyed."""
        ...


async def attempt_result(attempt: HostedAttempt) -> dict[str, Any]:
    """The attempt's effects and verdict, whether its `result()` answers at once or must be awaited."""
    result = attempt.result()
    return result if isinstance(result, dict) else await result


AttemptFactory = Callable[[str, str, str | None], Awaitable[HostedAttempt]]
"""`(suite, task, user) -> attempt`; raises LookupError for an unknown suite or task and
ValueError for a bad user kind, each with a message fit to show the operator."""

OnEnd = Callable[[HostedAttempt], Awaitable[None] | None]
"""Called once when a served attempt ends, e.g. to write its effects and verdict to a file."""
