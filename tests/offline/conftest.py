"""One small demo-like pair of runs (reference agent, flaky fake model) shared by the offline tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from offline_kit import make_runs


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """`reference` and `fake-flaky` runs of a few retail tasks; tests copy them before changing anything."""
    return make_runs(tmp_path_factory.mktemp("offline-runs"))
