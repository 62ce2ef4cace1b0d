"""The driver's view of its Ray workers: how many attempts each has in flight, and which are down.

A worker whose attempt failed with a Ray error (its process or its node lost), and with it every
other worker (which may share the lost node), is down until it answers a ping: Ray restarts a lost
one (on another node if its own is gone), and an attempt handed to it meanwhile would fail at once
("the actor is restarting") and be counted as a second death.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import ray
from ray.exceptions import RayError

PING_RETRY_S = 0.2  # between pings of a worker that is still restarting


@dataclass
class Roster:
    """The workers (Ray actor handles), their attempts in flight, and a ping per worker that is down."""

    workers: list[Any]
    load: list[int] = field(default_factory=list)
    down: dict[int, Any] = field(default_factory=dict)  # worker index -> its pending ping

    def __post_init__(self) -> None:
        self.load = [0] * len(self.workers)

    def least_loaded(self) -> int | None:
        """The worker to hand the next attempt to: the live one with the fewest in flight (None: all down)."""
        up = [i for i in range(len(self.workers)) if i not in self.down]
        return min(up, key=self.load.__getitem__) if up else None

    def lost(self, index: int) -> None:
        """Worker `index` failed an attempt with a Ray error: it, and every other worker (the same node
        may have taken them too), are down until they answer; a live one answers in milliseconds."""
        for other, worker in enumerate(self.workers):
            if other not in self.down:
                self.down[other] = worker.pid.remote()

    def pings(self) -> list[Any]:
        return list(self.down.values())

    def answered(self, ping: Any) -> None:
        """A ping is ready: its worker is up again, or (still restarting) is pinged again shortly."""
        index = next(i for i, ref in self.down.items() if ref == ping)
        try:
            ray.get(ping)
        except RayError:
            time.sleep(PING_RETRY_S)
            self.down[index] = self.workers[index].pid.remote()
            return
        del self.down[index]
