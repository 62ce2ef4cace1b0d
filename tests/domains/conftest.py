"""Shared fixtures for the built-in domains: one pristine retail snapshot per test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from statebox.domains.retail import DOMAIN
from statebox.world import Session, Snapshot


@pytest.fixture(scope="session")
def retail_snapshot() -> Snapshot:
    return DOMAIN.build_snapshot()


@pytest.fixture
def retail(retail_snapshot: Snapshot) -> Iterator[Session]:
    session = Session(retail_snapshot)
    yield session
    session.close()
