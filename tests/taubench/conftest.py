"""Fixtures for the τ-bench tests: an unpacked checkout (light), the built server environment (opt-in)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from taureal import THIRDPARTY, env_script, require_real, require_release, unpack


@pytest.fixture(scope="session")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """τ-bench's checkout, unpacked from the release (nothing of it runs)."""
    require_release()
    return unpack(tmp_path_factory.mktemp("tau-checkout"))


@pytest.fixture(scope="session")
def tau_env() -> Any:
    """The checkout and the Python it is installed in (built on first use, cached in .cache/tau-env)."""
    require_real()
    script = env_script()
    try:
        return script.build_env(THIRDPARTY)
    except script.EnvError as e:
        pytest.fail(f"building the τ-bench environment failed: {e}")
