"""A domain's own tools, collected from the modules of its areas in the order they are offered."""

from __future__ import annotations

from types import ModuleType

from statebox.tools import Tool


def tools_of(*areas: ModuleType) -> list[Tool]:
    """The tools each area's module defines, area by area and in the order the module defines them: the order
    an agent is offered them. A tool a module imports belongs to the module that defines it."""
    tools = []
    for area in areas:
        defined = [v for v in vars(area).values() if isinstance(v, Tool) and v.fn.__module__ == area.__name__]
        if not defined:
            raise ValueError(f"module {area.__name__} defines no tool")
        tools += defined
    return tools
