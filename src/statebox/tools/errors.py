"""The tool error model: what an agent sees when a call cannot be done, phrased so it can recover."""

from __future__ import annotations


class ToolError(Exception):
    """A call the tool refused. The message is shown to the agent verbatim, with the kind."""

    kind = "tool_error"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def agent_text(self) -> str:
        """The text the agent sees (the same through every transport)."""
        return agent_error_text(self.kind, self.message, self.hint)


def agent_error_text(kind: str, message: str, hint: str | None = None) -> str:
    """`Error (kind): message Hint: hint` — how every tool failure reads to the agent."""
    text = f"Error ({kind}): {message}"
    return f"{text} Hint: {hint}" if hint else text


class InvalidArguments(ToolError):
    """Arguments missing, of the wrong type, or not allowed by the schema."""

    kind = "invalid_arguments"


class NotFound(ToolError):
    """A lookup found nothing for the identifier given."""

    kind = "not_found"


class PreconditionFailed(ToolError):
    """The request is well formed, but the record's current state does not allow it."""

    kind = "precondition_failed"


class UnknownTool(ToolError):
    """No tool has that name."""

    kind = "unknown_tool"
