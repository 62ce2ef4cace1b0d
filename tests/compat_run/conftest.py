"""Fixtures for running ThinkingBox-Bench through statebox's runner against generated fake checkouts."""

from __future__ import annotations

from pathlib import Path

import pytest
from tb_run_kit import add_crashing_task

from tbfakes import FakeCheckout, make_fake_checkout


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def tb_fake(tmp_path_factory: pytest.TempPathFactory) -> FakeCheckout:
    """A fake checkout whose servers import instantly, shared by a module's tests."""
    return make_fake_checkout(tmp_path_factory.mktemp("tb-run"))


@pytest.fixture
def crashing_fake(tmp_path: Path) -> tuple[FakeCheckout, Path]:
    """A fresh fake checkout with a task whose reference makes the server exit, and a test list
    of that task and a healthy one."""
    fake = make_fake_checkout(tmp_path / "checkout")
    return fake, add_crashing_task(fake, tmp_path / "crash-list.yaml")
