"""Errors raised by the MCP layer that are the harness's fault, never the agent's."""

from __future__ import annotations


class ToolServerError(Exception):
    """An external tool server crashed, hung or failed to start: an infrastructure error."""


class InsecureBindError(ValueError):
    """Refused to serve attempts on a non-loopback address without an operator token."""
