"""Errors of a campaign: what stops it before any attempt runs, and the kinds of infrastructure error."""

from __future__ import annotations

import traceback
from typing import Literal, get_args

from statebox.llm.errors import ConfigurationError, InfrastructureError
from statebox.mcp.errors import ToolServerError

# The `kind` of an errors.jsonl record (a contract: docs/contracts.md).
ErrorKind = Literal["model_endpoint", "tool_server", "timeout", "statebox_bug"]
ERROR_KINDS: tuple[ErrorKind, ...] = get_args(ErrorKind)


class CampaignError(RuntimeError):
    """The campaign cannot start (bad run directory, broken task, unstartable tool server); nothing was run."""


def classify(e: BaseException) -> tuple[ErrorKind, str]:
    """What kind of infrastructure error this is, with a message that says where."""
    while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
        e = e.exceptions[0]  # MCP's task groups wrap what the tool path raised
    if isinstance(e, InfrastructureError):
        return "model_endpoint", str(e)
    if isinstance(e, ToolServerError):
        return "tool_server", str(e)
    if isinstance(e, TimeoutError):
        return "timeout", "the attempt exceeded its time budget"
    tb = traceback.format_exception(e)[-3:]
    return "statebox_bug", f"{type(e).__name__}: {e} | {''.join(tb).strip()}"


class CampaignStopped(CampaignError):
    """A failure every attempt would repeat (a bad API key, an unknown model) stopped the run at the first."""


def stopping_error(e: BaseException) -> CampaignStopped | None:
    """The CampaignStopped to raise for `e`, or None when other attempts may still succeed."""
    while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
        e = e.exceptions[0]
    if isinstance(e, ConfigurationError):
        return CampaignStopped(f"{e}; the run stopped, since every attempt would fail alike (fix it, then --resume)")
    return None
