"""Fixtures for the conversation tests: two scriptable model endpoints (agent, customer) and the suites."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conversation_kit import FakeEndpoint

from minidomain import mini_suite
from statebox.suites import Suite, load_suite


@pytest.fixture(scope="session")
def _agent_server() -> Iterator[Any]:
    with FakeEndpoint() as server:
        yield server


@pytest.fixture(scope="session")
def _customer_server() -> Iterator[Any]:
    with FakeEndpoint() as server:
        yield server


@pytest.fixture
def agent_model(_agent_server: Any) -> Any:
    """The agent's scripted model endpoint, with an empty script and record."""
    _agent_server.reset()
    return _agent_server


@pytest.fixture
def customer_model(_customer_server: Any) -> Any:
    """The LLM customer's scripted model endpoint, with an empty script and record."""
    _customer_server.reset()
    return _customer_server


@pytest.fixture(scope="session")
def mini() -> Suite:
    return mini_suite()


@pytest.fixture(scope="session")
def retail() -> Suite:
    return load_suite("retail")
