"""How τ-bench attempts run: the server's Python, fork or plain start, the timeouts."""

from __future__ import annotations

import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class TauRunOptions:
    """Set by `--server-python` and `--fork/--no-fork`; the timeouts by tests."""

    server_python: str = sys.executable
    fork: bool = True
    prefork: int = 2  # children forked ahead of demand, per domain
    call_timeout_s: float = 60.0  # a call (the effects report replays and hashes twice) answered in time
    start_timeout_s: float = 120.0  # start, MCP handshake and init of one attempt's server
