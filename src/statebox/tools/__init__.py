"""Tool definitions: typed functions over a session, their JSON Schemas, validation and errors."""

from __future__ import annotations

from typing import TYPE_CHECKING

from statebox.lazy import lazy_facade

# The names below load on first use: the task model reads `tools.quoting` without the argument validators
# (jsonschema) and the world.
if TYPE_CHECKING:
    from statebox.tools.decorator import Tool as Tool, tool as tool
    from statebox.tools.errors import (
        InvalidArguments as InvalidArguments,
        NotFound as NotFound,
        PreconditionFailed as PreconditionFailed,
        ToolError as ToolError,
        UnknownTool as UnknownTool,
    )
    from statebox.tools.surface import ToolOutcome as ToolOutcome, ToolSpec as ToolSpec, ToolSurface as ToolSurface
    from statebox.tools.toolset import (
        BoundTools as BoundTools,
        CallRecord as CallRecord,
        Toolset as Toolset,
        render as render,
    )

__getattr__, __dir__, __all__ = lazy_facade(__name__, __file__)
