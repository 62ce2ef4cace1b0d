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
        """The text the agent sees."""
        text = f"Error ({self.kind}): {self.message}"
        return f"{text} Hint: {self.hint}" if self.hint else text


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
