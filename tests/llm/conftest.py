"""Fixtures for the model-client tests: one fake endpoint reset per test, fast retries."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from statebox.llm import RetryPolicy

from .fake_endpoints import FakeEndpoint


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def _running_endpoint() -> Iterator[FakeEndpoint]:
    with FakeEndpoint() as server:
        yield server


@pytest.fixture
def endpoint(_running_endpoint: FakeEndpoint) -> FakeEndpoint:
    """The shared fake server, with an empty script and record."""
    _running_endpoint.reset()
    return _running_endpoint


@pytest.fixture
def fast_retry() -> RetryPolicy:
    """Three retries with millisecond backoff and a 2 s request timeout."""
    return RetryPolicy(max_retries=3, base_delay=0.01, max_delay=0.05, timeout_s=2.0, rng=random.Random(0))
