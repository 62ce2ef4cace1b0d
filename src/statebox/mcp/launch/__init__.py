"""The launcher of external stdio tool servers: one fresh process per attempt, nothing left running.

- `ToolServerLauncher(specs)`: starts the servers `LaunchSpec`s describe, plainly or forked from a
  template that imported the server once (servers prepared together with the same Python,
  environment and folder share one template), with processes started `ahead` of demand;
  `connect(name)` gives an attempt a `ToolServer` (an initialised, guarded MCP session).
- `ToolServer.guard`: a per-call deadline; a crashed or hung server is a `ToolServerError`.
- `ToolServerSurface`: a server's tools as a `ToolSurface`.
- `ForkServer` / `ForkTarget`: the fork server on its own (`fork_template.py` runs in the
  server's Python; `fork_preload.py` is what the template imports before it forks).
"""

from statebox.mcp.launch.bridge import MessageStreams, message_streams
from statebox.mcp.launch.forkserver import ForkedChild, ForkServer, ForkTarget, forked_stdio_client
from statebox.mcp.launch.launcher import ToolServerLauncher
from statebox.mcp.launch.server import StartedServer, ToolServer
from statebox.mcp.launch.spec import DEFAULT_CALL_TIMEOUT_S, DEFAULT_START_TIMEOUT_S, EnvHook, LaunchSpec, Strategy
from statebox.mcp.launch.surface import ToolServerSurface

__all__ = [
    "DEFAULT_CALL_TIMEOUT_S",
    "DEFAULT_START_TIMEOUT_S",
    "EnvHook",
    "ForkServer",
    "ForkTarget",
    "ForkedChild",
    "LaunchSpec",
    "MessageStreams",
    "StartedServer",
    "Strategy",
    "ToolServer",
    "ToolServerLauncher",
    "ToolServerSurface",
    "forked_stdio_client",
    "message_streams",
]
