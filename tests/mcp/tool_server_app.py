"""A tiny external tool server for tests: MCP over stdio, with state kept in module globals.

Tools: add_item(name) -> how many items this process holds; pid() -> this process id;
spawn_child() -> pid of a sleeping child it leaves behind; crash() exits at once;
hang() blocks the whole process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

ITEMS: list[str] = []  # deliberately global: one process must serve one attempt

TOOLS = [
    types.Tool(
        name="add_item",
        description="Add an item; returns how many items there are.",
        input_schema={
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
        },
    ),
    types.Tool(name="pid", description="This server's process id.", input_schema={"type": "object"}),
    types.Tool(name="spawn_child", description="Start a child.", input_schema={"type": "object"}),
    types.Tool(name="crash", description="Exit at once.", input_schema={"type": "object"}),
    types.Tool(name="hang", description="Never answer.", input_schema={"type": "object"}),
]


async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    arguments = params.arguments or {}
    if params.name == "add_item":
        ITEMS.append(arguments["name"])
        text = str(len(ITEMS))
    elif params.name == "pid":
        text = str(os.getpid())
    elif params.name == "spawn_child":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        text = str(child.pid)
    elif params.name == "crash":
        print("about to crash", file=sys.stderr, flush=True)
        os._exit(3)
    elif params.name == "hang":
        time.sleep(120)  # blocks the event loop: the process is hung, not just slow
        text = "woke"
    else:
        return types.CallToolResult(content=[types.TextContent(text="no such tool")], is_error=True)
    return types.CallToolResult(content=[types.TextContent(text=text)])


async def main() -> None:
    server = Server("test-tools", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
