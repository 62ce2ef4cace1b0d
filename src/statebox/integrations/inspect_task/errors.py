"""A bad task argument, which `inspect eval` prints as its one line (no traceback).

Inspect prints the message of its `PrerequisiteError` alone and every other exception with a traceback;
that class lives in a private module, so its presence is checked here, once, when the package loads.
"""

from __future__ import annotations

import inspect_ai._util.error as inspect_errors

from statebox.private_api import require

require(inspect_errors, ("PrerequisiteError",), distribution="inspect-ai", needed_by=__name__)


class TaskArgumentError(inspect_errors.PrerequisiteError, ValueError):
    """A task argument statebox cannot use (a missing checkout, globs that match no task)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.text = message

    def __str__(self) -> str:
        return self.text
