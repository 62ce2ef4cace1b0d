"""Make test-support packages kept under tests/ (such as `minidomain`) importable from any test, and mark the
slow ones: `make test-fast` (pytest -m "not slow") leaves out the tests that start processes, browsers or
whole-suite campaigns; `make test` runs everything."""

from __future__ import annotations

import compileall
import sys
from pathlib import Path

import pytest

import statebox

_HERE = Path(__file__).resolve().parent
_TESTS = str(_HERE)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

# Folders, files and tests (node ids relative to tests/) that each take seconds: processes, HTTP servers, browsers,
# real ThinkingBox environments, whole-suite campaigns.
SLOW = (
    "acceptance_mcp/",
    "compat_real/",
    "compat_run/",
    "ray_executor/",
    "inspect_task/",
    "campaign/test_demo_command.py",
    "campaign/test_campaign_kill_resume.py",
    "campaign/test_campaign_workers.py",
    "campaign/test_campaign_shards.py",
    "cli/test_newcomer_task_file_errors.py",
    "cli/test_newcomer_port_in_use.py",
    "mcp/test_mcp_external.py",
    "mcp/test_mcp_serve.py",
    "mcp/test_hosted_suites.py",
    "report/test_html_report_browser.py",
    "compat/test_tb_forkserver.py",
    "compat/test_tb_shared_template.py",
    "compat/test_tb_custom_check.py::test_a_check_that_",  # the time and memory limits, hit for real
    "compat/test_tb_custom_check_grading.py",
    "domains/test_every_domain.py::test_every_task_passes_every_validation_check",
    "campaign/test_campaign_simulator_faults.py",
    "campaign/test_campaign_endpoint_errors.py",
    "conversation/test_conversation_acceptance.py",
    "offline/test_regrade.py",
    "offline/test_play.py",
    "offline/test_offline_thinkingbox.py",
    "offline/test_show.py",
    "offline/test_verify.py",
    "export/",
    "openenv/test_openenv_serve_cli.py",
    "llm/test_run_configuration_errors.py",
    "campaign/test_campaign_torn_lines.py",
    "tools/test_tool_quickcheck.py::test_reference_calls_pass_the_quick_check_as_they_pass_the_full_validator",
    "report/test_report_failure_analysis.py::test_a_real_",
)


def pytest_configure(config: pytest.Config) -> None:
    """Compile statebox to bytecode once, before any worker starts (xdist's controller, or the
    only process): with PYTHONDONTWRITEBYTECODE set, each of the hundreds of `statebox` subprocesses the tests
    start would otherwise compile every module it imports again (about 0.3 s of CPU for `statebox serve`)."""
    if hasattr(config, "workerinput"):  # an xdist worker: its controller has compiled them
        return
    compileall.compile_dir(Path(statebox.__file__).resolve().parent, quiet=2)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        where = item.path.resolve().relative_to(_HERE).as_posix() + "::" + item.name
        if where.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
