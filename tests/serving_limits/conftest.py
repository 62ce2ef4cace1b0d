"""The served surfaces under attack: real `statebox proxy` and `statebox openenv-serve` processes on loopback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

OPENENV_TESTS = str(Path(__file__).parents[1] / "openenv")  # openenv_play: a careful agent's episode
if OPENENV_TESTS not in sys.path:
    sys.path.insert(0, OPENENV_TESTS)


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"
