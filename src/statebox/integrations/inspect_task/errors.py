"""A bad task argument, which `inspect eval` prints as its one line (no traceback)."""

from __future__ import annotations

from statebox.integrations.inspect_task.inspect_private import PrerequisiteError


class TaskArgumentError(PrerequisiteError, ValueError):
    """A task argument statebox cannot use (a missing checkout, globs that match no task)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.text = message

    def __str__(self) -> str:
        return self.text
