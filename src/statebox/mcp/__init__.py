"""MCP for statebox: each attempt as an MCP server, the proxy, and external tool servers.

- `build_server(attempt)`: the low-level MCP server of one `HostedAttempt`.
- `connect_in_memory(attempt)` / `McpToolSurface`: the in-process client the agent loop uses.
- `serve_stdio` / `serve_http`: one attempt for `statebox serve`.
- `run_proxy` / `running_proxy` / `create_proxy_app`: many attempts for `statebox proxy`.
- `ToolServerLauncher` / `LaunchSpec` / `load_servers_file`: external tool servers, a fresh process
  (plain or forked) per attempt (see `mcp/launch/`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from statebox.lazy import lazy_attributes
from statebox.mcp.errors import CannotListenError, InsecureBindError, ToolServerError

if TYPE_CHECKING:
    from statebox.mcp.hosted import AttemptFactory, HostedAttempt, OnEnd
    from statebox.mcp.inmemory import McpToolSurface, connect_in_memory
    from statebox.mcp.launch import LaunchSpec, ToolServer, ToolServerLauncher, ToolServerSurface
    from statebox.mcp.proxy import run_proxy, running_proxy
    from statebox.mcp.proxy_app import create_proxy_app
    from statebox.mcp.serve import serve_http, serve_stdio
    from statebox.mcp.server import build_server
    from statebox.mcp.servers_file import ServerSpec, load_servers_file

# Where each name lives. They load on first use: the MCP SDK costs about half a second to import, and the
# errors above (which every layer raises or catches) must not bring it in.
_PARTS = {
    "AttemptFactory": "hosted",
    "HostedAttempt": "hosted",
    "OnEnd": "hosted",
    "McpToolSurface": "inmemory",
    "connect_in_memory": "inmemory",
    "LaunchSpec": "launch",
    "ToolServer": "launch",
    "ToolServerLauncher": "launch",
    "ToolServerSurface": "launch",
    "run_proxy": "proxy",
    "running_proxy": "proxy",
    "create_proxy_app": "proxy_app",
    "serve_http": "serve",
    "serve_stdio": "serve",
    "build_server": "server",
    "ServerSpec": "servers_file",
    "load_servers_file": "servers_file",
}

__getattr__ = lazy_attributes(__name__, _PARTS)


__all__ = [
    "AttemptFactory",
    "CannotListenError",
    "HostedAttempt",
    "InsecureBindError",
    "LaunchSpec",
    "McpToolSurface",
    "OnEnd",
    "ServerSpec",
    "ToolServer",
    "ToolServerError",
    "ToolServerLauncher",
    "ToolServerSurface",
    "build_server",
    "connect_in_memory",
    "create_proxy_app",
    "load_servers_file",
    "run_proxy",
    "running_proxy",
    "serve_http",
    "serve_stdio",
]
