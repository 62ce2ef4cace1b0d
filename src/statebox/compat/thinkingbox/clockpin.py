"""Run tool servers with their wall clock pinned: the environment that loads the clock shim.

The shim (`clockshim/sitecustomize.py`, standard library only) runs at interpreter start-up
of any Python that has its folder on PYTHONPATH, so it works for plain process starts and for
the fork server's template alike (forked children restart from the pinned instant).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

BENCH_NOW = "2025-10-01T13:00:00Z"  # "now" in every ThinkingBox-Bench policy
SHIM_DIR = Path(__file__).with_name("clockshim")
PIN_ENV = "STATEBOX_CLOCK_PIN"
MODE_ENV = "STATEBOX_CLOCK_MODE"

ClockMode = Literal["advance", "frozen"]


def clock_pin_env(env: Mapping[str, str], pin: str | None = BENCH_NOW, mode: ClockMode = "advance") -> dict[str, str]:
    """`env` plus what pins the clock of a Python started with it; `pin=None` leaves it unpinned."""
    pinned = dict(env)
    if pin is None:
        return pinned
    existing = pinned.get("PYTHONPATH")
    pinned["PYTHONPATH"] = os.pathsep.join([str(SHIM_DIR), existing] if existing else [str(SHIM_DIR)])
    pinned[PIN_ENV] = pin
    pinned[MODE_ENV] = mode
    return pinned
