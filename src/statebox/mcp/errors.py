"""Errors raised by the MCP layer that are the harness's fault, never the agent's."""

from __future__ import annotations


class ToolServerError(Exception):
    """An external tool server crashed, hung or failed to start: an infrastructure error."""


class InsecureBindError(ValueError):
    """Refused to serve attempts on a non-loopback address without an operator token."""


class CannotListenError(OSError):
    """The address to serve on cannot be bound (already in use, not this machine's, not permitted)."""

    def __init__(self, host: str, port: int, error: OSError) -> None:
        reason = (error.strerror or str(error)).lower()
        super().__init__(error.errno, f"cannot listen on {host}:{port}: {reason}")

    def __str__(self) -> str:
        return str(self.strerror)
