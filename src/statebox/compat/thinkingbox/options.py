"""How ThinkingBox-Bench attempts run: the servers' Python, the search backend, fork or plain start."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from statebox.compat.thinkingbox.custom_check_isolation import Isolation

EMBEDDED_SEARCH = "embedded-fts5"


@dataclass(frozen=True)
class TbRunOptions:
    """Set by `--server-python`, `--typesense`, `--fork/--no-fork` and `--unsafe-custom-checks`; the
    timeouts by tests. `isolation` is found when the suite is opened for a command that runs checks."""

    server_python: str = sys.executable
    typesense_url: str | None = None  # None: statebox answers search_policy with embedded search
    fork: bool = True
    prefork: int = 2  # children forked ahead of demand, per server
    known_tools: bool = True  # attempts' sessions told the tools listed once (False: each lists them, as the SDK does)
    call_timeout_s: float = 60.0  # a server that does not answer a call in time is hung
    start_timeout_s: float = 120.0  # start, MCP handshake and init of one attempt's servers
    unsafe_custom_checks: bool = False  # without bubblewrap, run custom checks with the inner layers only
    isolation: Isolation | None = None  # None: found at the first custom check

    @property
    def search_backend(self) -> str:
        return f"typesense:{self.typesense_url}" if self.typesense_url else EMBEDDED_SEARCH
