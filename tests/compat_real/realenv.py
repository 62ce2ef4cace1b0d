"""The real ThinkingBox-Bench release for tests: built once by benchmarks/tb_env.py into .cache/tb-env.

The tests run only where the releases folder `../shared/thirdparty` exists (next to the project, or
where `STATEBOX_THIRDPARTY` says: a git worktree's checkout) and `STATEBOX_REAL_TB=1` is set (`.ci/run`
sets it); everywhere else they skip, saying why.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
THIRDPARTY = Path(os.environ.get("STATEBOX_THIRDPARTY") or ROOT.parent / "shared" / "thirdparty")
ENV_SCRIPT = ROOT / "benchmarks" / "tb_env.py"
SWITCH = "STATEBOX_REAL_TB"
NOOP_PASSES = "sandbox_neobank_support_v1_group1.py:test_he_017"  # its reference only reads
SAMPLE = [  # two tasks per domain, a rubric variant among them, and the one read-only task
    "sandbox_external_retail_group1.py:test_case_ST002_001",
    "sandbox_external_retail_group1.py:test_case_ST003_003",
    "external_booking_v1_group1.py:test_bmd_001",
    "external_booking_v1_group1_rubrics_yesno.py:test_bmd_004",
    "sandbox_auto_insurance_group1.py:test_bil_001",
    "sandbox_auto_insurance_group1.py:test_bil_002",
    "sandbox_neobank_support_v1_group1.py:test_dc_001",
    NOOP_PASSES,
    "sandbox_consulting_group1.py:test_csa_001",
    "sandbox_consulting_group1.py:test_csa_003",
]


def skip_reason() -> str | None:
    """Why the real-data tests cannot run here, or None."""
    if not (THIRDPARTY / "README.md").is_file():
        return f"real ThinkingBox-Bench release not found at {THIRDPARTY} (a user's clone has none)"
    if os.environ.get(SWITCH) != "1":
        return f"real ThinkingBox-Bench tests are opt-in: set {SWITCH}=1 (.ci/run does)"
    return None


def env_script() -> ModuleType:
    """benchmarks/tb_env.py as a module (loaded once)."""
    if "tb_env" in sys.modules:
        return sys.modules["tb_env"]
    spec = importlib.util.spec_from_file_location("tb_env", ENV_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tb_env"] = module
    spec.loader.exec_module(module)
    return module


def require_real() -> None:
    reason = skip_reason()
    if reason is not None:
        pytest.skip(reason)
