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

from statebox.lazy import lazy_facade
from statebox.mcp.errors import (
    CannotListenError as CannotListenError,
    InsecureBindError as InsecureBindError,
    ToolServerError as ToolServerError,
)

# The names below load on first use: the MCP SDK costs about half a second to import, and the
# errors above (which every layer raises or catches) must not bring it in.
if TYPE_CHECKING:
    from statebox.mcp.hosted import AttemptFactory as AttemptFactory, HostedAttempt as HostedAttempt, OnEnd as OnEnd
    from statebox.mcp.inmemory import McpToolSurface as McpToolSurface, connect_in_memory as connect_in_memory
    from statebox.mcp.launch import (
        LaunchSpec as LaunchSpec,
        ToolServer as ToolServer,
        ToolServerLauncher as ToolServerLauncher,
        ToolServerSurface as ToolServerSurface,
    )
    from statebox.mcp.proxy import run_proxy as run_proxy, running_proxy as running_proxy
    from statebox.mcp.proxy_app import create_proxy_app as create_proxy_app
    from statebox.mcp.serve import serve_http as serve_http, serve_stdio as serve_stdio
    from statebox.mcp.server import build_server as build_server
    from statebox.mcp.servers_file import ServerSpec as ServerSpec, load_servers_file as load_servers_file

__getattr__, __dir__, __all__ = lazy_facade(__name__, __file__)
