"""A domain folder written by `statebox new-domain`, outside the package."""

from __future__ import annotations

from pathlib import Path

import pytest
from owndomain_kit import NAME, statebox


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh scaffold in its own folder, by `statebox new-domain NAME DIR`."""
    folder = tmp_path_factory.mktemp("repo") / "acme"
    made = statebox("new-domain", NAME, str(folder))
    assert made.returncode == 0, made.stderr
    return folder
