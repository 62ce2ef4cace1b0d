"""How the launcher starts one tool server: its command, plain or forked, how many ahead."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from statebox.mcp.servers_file import ServerSpec

Strategy = Literal["plain", "fork"]
# Turns the environment a server would start with into the one it does start with
# (a suite adds what it needs, e.g. what pins the server's clock).
EnvHook = Callable[[Mapping[str, str]], dict[str, str]]

DEFAULT_CALL_TIMEOUT_S = 60.0  # a server that does not answer a call in time is hung
DEFAULT_START_TIMEOUT_S = 30.0  # process start plus the MCP handshake


@dataclass(frozen=True)
class LaunchSpec:
    """One server for the launcher.

    `plain` runs the command as a new process per attempt. `fork` needs a `python -m module
    args...` command: a template of that Python imports the module once and forks a child per
    attempt (see `forkserver.py`). `ahead` processes are started (forked) before any attempt
    asks, so an attempt takes one that is already up.
    """

    server: ServerSpec
    strategy: Strategy = "plain"
    ahead: int = 0

    def __post_init__(self) -> None:
        if self.ahead < 0:
            raise ValueError(f"tool server {self.name!r}: ahead must be >= 0, not {self.ahead}")
        if self.strategy == "fork" and self.python_module() is None:
            command = " ".join(self.server.command)
            raise ValueError(f"tool server {self.name!r}: only `python -m module` can be forked, not `{command}`")

    @property
    def name(self) -> str:
        return self.server.name

    def python_module(self) -> tuple[str, str, list[str]] | None:
        """`(python, module, args)` when the command is `python -m module args...`."""
        command = self.server.command
        if len(command) >= 3 and command[1] == "-m":
            return command[0], command[2], command[3:]
        return None
