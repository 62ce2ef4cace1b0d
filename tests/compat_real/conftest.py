"""Fixtures for the tests on the real ThinkingBox-Bench release: the built environment, a sample list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from realenv import SAMPLE, THIRDPARTY, env_script, require_real


@pytest.fixture(scope="session")
def tb_env() -> Any:
    """The benchmark checkout and server Python (built on first use, cached in .cache/tb-env)."""
    require_real()
    tb_env = env_script()
    try:
        return tb_env.build_env(THIRDPARTY)
    except tb_env.EnvError as e:
        pytest.fail(f"building the real ThinkingBox-Bench environment failed: {e}")


@pytest.fixture(scope="session")
def sample_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A test list of the sample tasks (every domain)."""
    path = tmp_path_factory.mktemp("tb-real") / "sample.yaml"
    path.write_text(yaml.safe_dump(SAMPLE))
    return path
