"""What the MCP layer needs from one attempt: its tools, its customer channel and its results."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from statebox.tools.surface import ToolSurface


class HostedAttempt(Protocol):
    """One live attempt as the MCP server and the proxy see it.

    `surface` is everything the agent may call (including `reply_to_customer` when the
    attempt has a simulated customer); setup and grading stay behind `result()`, which
    only the operator reaches.
    """

    id: str
    surface: ToolSurface
    policy: str
    opening_message: str

    def status(self) -> dict[str, Any]:
        """A JSON-able snapshot for the operator (progress, whether the conversation ended)."""
        ...

    def result(self) -> dict[str, Any]:
        """`{"effects": ..., "verdict": {"passed": bool, "discrepancies": [...]}}`."""
        ...

    async def close(self) -> None:
        """Release the attempt's resources; called once, when the attempt is destroyed."""
        ...


AttemptFactory = Callable[[str, str, str | None], Awaitable[HostedAttempt]]
"""`(suite, task, user) -> attempt`; raises LookupError for an unknown suite or task and
ValueError for a bad user kind, each with a message fit to show the operator."""

OnEnd = Callable[[HostedAttempt], Awaitable[None] | None]
"""Called once when a served attempt ends, e.g. to write its effects and verdict to a file."""
