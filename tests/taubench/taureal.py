"""τ-bench's release for tests: the checkout unpacked from its tarball, and the server environment built once by
benchmarks/tau_env.py into .cache/tau-env.

Tests that only read the checkout need the releases folder `../shared/thirdparty` (next to the project;
`STATEBOX_THIRDPARTY` names another); tests that run τ-bench's code also need `STATEBOX_REAL_TAU=1`
(`.ci/run` sets it). Everywhere else they skip, saying why.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
THIRDPARTY = Path(os.environ.get("STATEBOX_THIRDPARTY") or ROOT.parent / "shared" / "thirdparty")
TARBALL = THIRDPARTY / "tau-bench-59a200c.tar.gz"
SAMPLE = THIRDPARTY / "tau-bench-airline-trajectories-sample.json"
SWITCH = "STATEBOX_REAL_TAU"


def release_missing() -> str | None:
    if not TARBALL.is_file():
        return f"τ-bench release not found at {TARBALL} (a user's clone has none; STATEBOX_THIRDPARTY names another)"
    return None


def require_release() -> None:
    if (reason := release_missing()) is not None:
        pytest.skip(reason)


def require_real() -> None:
    require_release()
    if os.environ.get(SWITCH) != "1":
        pytest.skip(f"tests that run τ-bench's code are opt-in: set {SWITCH}=1 (.ci/run does)")


def unpack(into: Path) -> Path:
    with tarfile.open(TARBALL) as archive:
        archive.extractall(into, filter="data")
    return into / "tau-bench"


def env_script() -> ModuleType:
    """benchmarks/tau_env.py as a module (loaded once)."""
    if "tau_env" in sys.modules:
        return sys.modules["tau_env"]
    spec = importlib.util.spec_from_file_location("tau_env", ROOT / "benchmarks" / "tau_env.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tau_env"] = module
    spec.loader.exec_module(module)
    return module
