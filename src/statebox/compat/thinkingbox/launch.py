"""The benchmark's servers.yaml as configuration of statebox's tool-server launcher.

statebox's launcher (`statebox.mcp.launch`) starts the processes; this only says how: a server
whose command is `{python} -m module ...` is forked from a template (two templates share out the
forked servers a campaign uses, so their imports run side by side; with `prefork` children
forked ahead of demand), any other command is started plainly, and every server starts with
its clock pinned to the benchmark's "now", in the checkout's folder.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from statebox.compat.thinkingbox.clockpin import BENCH_NOW, ClockMode, clock_pin_env
from statebox.compat.thinkingbox.models import TbServers
from statebox.mcp.launch import DEFAULT_CALL_TIMEOUT_S, LaunchSpec, ToolServerLauncher

START_TIMEOUT_S = 120.0  # start, MCP handshake (and the caller's init) of one attempt's server
TEMPLATES = 2  # templates the forked servers are shared out between: their imports run side by side
TEMPLATE_GROUP_ENV = "STATEBOX_TEMPLATE_GROUP"  # read by no server: only sets which template forks it


def launch_specs(
    servers: TbServers, *, python: str, fork: bool = True, prefork: int = 0, used: Sequence[str] = ()
) -> list[LaunchSpec]:
    """How each server of servers.yaml starts. An entry statebox cannot start (another `type`) is
    left out: a campaign whose tasks need it is refused before it starts, naming the entry. The
    forked servers among `used` are dealt round `TEMPLATES` templates (the launcher shares one
    template per environment), so that on two cores their imports run at once."""
    specs = []
    forked_used = [name for name in used if name in servers.servers and servers.servers[name].python_module()]
    for name, entry in servers.servers.items():
        try:
            spec = entry.spec(python)
        except ValueError:
            continue
        forked = fork and entry.python_module() is not None
        if forked and name in forked_used:
            group = str(forked_used.index(name) % TEMPLATES)
            spec = spec.model_copy(update={"env": {**spec.env, TEMPLATE_GROUP_ENV: group}})
        specs.append(LaunchSpec(spec, "fork" if forked else "plain", prefork if forked else 0))
    return specs


@dataclass(frozen=True)
class BenchLaunch:
    """How a campaign starts the benchmark's servers; every field has the benchmark's default.
    `used`: the servers the campaign will start, in the order they are prepared (shared out
    between the templates)."""

    python: str = sys.executable
    fork: bool = True
    prefork: int = 0
    call_timeout_s: float = DEFAULT_CALL_TIMEOUT_S
    start_timeout_s: float = START_TIMEOUT_S
    clock_pin: str | None = BENCH_NOW
    clock_mode: ClockMode = "advance"
    used: Sequence[str] = ()


def bench_launcher(
    servers: TbServers, cwd: str | Path | None = None, launch: BenchLaunch | None = None
) -> ToolServerLauncher:
    """A launcher for the servers of servers.yaml, run in `cwd`, clock pinned."""
    how = launch if launch is not None else BenchLaunch()
    return ToolServerLauncher(
        launch_specs(servers, python=how.python, fork=how.fork, prefork=how.prefork, used=how.used),
        cwd=cwd,
        environment=partial(clock_pin_env, pin=how.clock_pin, mode=how.clock_mode),
        call_timeout_s=how.call_timeout_s,
        start_timeout_s=how.start_timeout_s,
    )
