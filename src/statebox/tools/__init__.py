"""Tool definitions: typed functions over a session, their JSON Schemas, validation and errors."""

from statebox.tools.decorator import Tool, tool
from statebox.tools.errors import InvalidArguments, NotFound, PreconditionFailed, ToolError, UnknownTool
from statebox.tools.surface import ToolOutcome, ToolSpec, ToolSurface
from statebox.tools.toolset import BoundTools, CallRecord, Toolset, render

__all__ = [
    "BoundTools",
    "CallRecord",
    "InvalidArguments",
    "NotFound",
    "PreconditionFailed",
    "Tool",
    "ToolError",
    "ToolOutcome",
    "ToolSpec",
    "ToolSurface",
    "Toolset",
    "UnknownTool",
    "render",
    "tool",
]
