"""The live attempts behind one proxy, keyed by unguessable ids, and their reclaiming when idle.

Holding an attempt costs one small record: its MCP server is built on the first MCP
request and kept, and no task or thread runs per attempt.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
from mcp.server import Server

from statebox.mcp.hosted import HostedAttempt
from statebox.mcp.server import build_server
from statebox.tools.arguments import ArgumentValidators

logger = logging.getLogger(__name__)

ID_BYTES = 24  # secrets.token_urlsafe(24) -> 32 characters, 192 bits


@dataclass
class HostedEntry:
    """One attempt held by the proxy."""

    attempt: HostedAttempt
    last_used: float
    validators: ArgumentValidators
    in_flight: int = 0
    _server: Server[Any] | None = field(default=None, repr=False)

    @property
    def server(self) -> Server[Any]:
        """The attempt's MCP server, built on first use and reused after."""
        if self._server is None:
            self._server = build_server(self.attempt, self.validators)
        return self._server


class AttemptRegistry:
    """Attempts by id; an id leaves the registry (and answers 404) before its attempt closes."""

    def __init__(self, idle_timeout_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.idle_timeout_s = idle_timeout_s
        self._clock = clock
        self._entries: dict[str, HostedEntry] = {}
        self._validators = ArgumentValidators()  # compiled schemas, shared by every attempt's server

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, attempt: HostedAttempt) -> str:
        """Hold `attempt` under a fresh unguessable id and return the id."""
        attempt_id = secrets.token_urlsafe(ID_BYTES)
        self._entries[attempt_id] = HostedEntry(attempt, last_used=self._clock(), validators=self._validators)
        return attempt_id

    def get(self, attempt_id: str) -> HostedEntry | None:
        """The entry, marked as just used; None when unknown or destroyed."""
        entry = self._entries.get(attempt_id)
        if entry is not None:
            entry.last_used = self._clock()
        return entry

    @asynccontextmanager
    async def using(self, entry: HostedEntry) -> AsyncIterator[HostedEntry]:
        """Mark `entry` busy for the block, so it is not reclaimed mid-request."""
        entry.in_flight += 1
        try:
            yield entry
        finally:
            entry.in_flight -= 1
            entry.last_used = self._clock()

    async def destroy(self, attempt_id: str) -> bool:
        """Forget the attempt and close it; False when there was no such attempt."""
        entry = self._entries.pop(attempt_id, None)
        if entry is None:
            return False
        with anyio.CancelScope(shield=True):
            await entry.attempt.close()
        return True

    async def reclaim_idle(self) -> int:
        """Destroy every attempt unused for longer than the idle timeout; return how many."""
        now = self._clock()
        idle = [
            attempt_id
            for attempt_id, entry in self._entries.items()
            if entry.in_flight == 0 and now - entry.last_used > self.idle_timeout_s
        ]
        for attempt_id in idle:
            logger.info("reclaiming idle attempt %s", attempt_id[:6])
            await self._destroy_logging_errors(attempt_id)
        return len(idle)

    async def reclaim_forever(self) -> None:
        """Reclaim idle attempts periodically; run as one background task per proxy."""
        period = min(max(self.idle_timeout_s / 4, 0.01), 30.0)
        while True:
            await anyio.sleep(period)
            await self.reclaim_idle()

    async def close_all(self) -> None:
        """Destroy every attempt (on shutdown)."""
        for attempt_id in list(self._entries):
            await self._destroy_logging_errors(attempt_id)

    async def _destroy_logging_errors(self, attempt_id: str) -> None:
        try:
            await self.destroy(attempt_id)
        except Exception:
            # No one is waiting on this close; one failure must not stop the others.
            logger.exception("closing attempt %s failed", attempt_id[:6])
