"""Shared fixtures for the MCP tests: anyio on asyncio, and a fake attempt."""

from __future__ import annotations

import pytest
from mcp_fakes import FakeAttempt, FakeFactory


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def attempt() -> FakeAttempt:
    return FakeAttempt()


@pytest.fixture
def factory() -> FakeFactory:
    return FakeFactory()
