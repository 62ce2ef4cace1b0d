"""Fixtures for the neobank domain: one pristine snapshot per test session, a fresh session per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from statebox.domains.neobank import DOMAIN
from statebox.world import Session, Snapshot


@pytest.fixture(scope="session")
def neobank_snapshot() -> Snapshot:
    return DOMAIN.build_snapshot()


@pytest.fixture
def bank(neobank_snapshot: Snapshot) -> Iterator[Session]:
    session = Session(neobank_snapshot)
    yield session
    session.close()
