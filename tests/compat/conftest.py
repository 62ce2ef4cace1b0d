"""Shared fixtures for the ThinkingBox-Bench compatibility tests: anyio on asyncio, a fake checkout."""

from __future__ import annotations

from pathlib import Path

import pytest

from tbfakes import FakeCheckout, make_fake_checkout


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> FakeCheckout:
    """A fake checkout whose servers import instantly."""
    return make_fake_checkout(tmp_path_factory.mktemp("checkout"))


@pytest.fixture
def fresh_fake(tmp_path: Path) -> FakeCheckout:
    """A fake checkout of the test's own, free to be damaged."""
    return make_fake_checkout(tmp_path / "checkout")
