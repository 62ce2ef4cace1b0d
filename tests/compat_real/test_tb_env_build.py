"""benchmarks/tb_env.py: the real servers' environment, built once and found again in milliseconds."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from realenv import THIRDPARTY, env_script


def test_a_missing_release_is_a_one_line_error_naming_the_tarball(tmp_path: Path) -> None:
    tb_env = env_script()
    with pytest.raises(tb_env.EnvError, match=r"thinkingbox-data-v1.0.tar.gz: no such file"):
        tb_env.build_env(tmp_path / "nothing-here", tmp_path / "cache")
    assert tb_env.main(["--thirdparty", str(tmp_path), "--cache", str(tmp_path / "cache")]) == 1


def test_a_built_environment_is_reused_and_imports_both_server_packages(tb_env: Any) -> None:
    started = time.perf_counter()
    again = env_script().build_env(THIRDPARTY)
    assert time.perf_counter() - started < 1.0 and again == tb_env
    assert (tb_env.data / "releases" / "thinkingbox_bench_v1" / "testlist_thinkingbox_bench_v1.yaml").is_file()
    modules = ["tb_business_ops_servers_202606.mcp_sandbox_external_retail", "thinkingbox_tools.mcp_airline_tau_bench"]
    probe = "import importlib, sys; [importlib.import_module(m) for m in sys.argv[1:]]"
    done = subprocess.run([str(tb_env.python), "-c", probe, *modules], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
