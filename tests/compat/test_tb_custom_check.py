"""Custom checks: a test function's own Python over `x.effects`, loaded as a task and run only in a
sandboxed subprocess (own process, no network, no processes, no file writes, time and memory limits)."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from statebox.compat.thinkingbox import TbCheckout, load_tb_suite
from statebox.compat.thinkingbox.custom_check import (
    HOOK_ONLY,
    ISOLATED,
    CustomCheck,
    CustomCheckInfraError,
    CustomCheckResult,
    CustomCheckRunner,
    SandboxLimits,
)
from tbfakes import RETAIL_FILE, make_fake_checkout

FILE = "custom_checks.py"
SOURCE = '''# A generated custom-check test file of a fake ThinkingBox-Bench checkout.

import json
import socket
import subprocess
import time

from thinkingbox.common import Judge, TestContext

raise SystemExit("only imports, helpers, classes and constants of a test file reach the sandbox")

"""!
scenario: sandbox_external_retail
"""

LIMIT = 100.0


def orders(x):
    return {row["id"]: row for row in x.effects["sandbox_external_retail"]["result_db_state"]["orders"]}


def require_status(x, order_id, status):
    found = orders(x)[order_id]["status"]
    assert found == status, f"order {order_id} is {found}, expected {status}"


def test_passes(x: TestContext, judge: Judge):
    """!
    query: Cancel ORD-1.
    """
    require_status(x, "ORD-1", "cancelled")
    assert orders(x)["ORD-1"]["total"] <= LIMIT * 2
    assert judge.text_yesno(x.response, "Does the reply confirm the cancellation?")


def test_fails_in_a_helper(x: TestContext, judge: Judge):
    """!
    query: Ship ORD-1.
    """
    require_status(x, "ORD-1", "shipped")


def test_fails_a_bare_assert(x, judge):
    """!
    query: Count my orders.
    """
    assert len(orders(x)) == 99


def test_crashes(x):
    """!
    query: Find ORD-404.
    """
    return orders(x)["ORD-404"]


def test_prints_then_passes(x, judge):
    """!
    query: Talk a lot.
    """
    print("{" * 100000)
    assert json.dumps(1) == "1"


def test_loops_forever(x, judge):
    """!
    query: Loop.
    """
    while True:
        pass


def test_sleeps(x, judge):
    """!
    query: Sleep.
    """
    time.sleep(600)


def test_allocates_too_much(x, judge):
    """!
    query: Grow.
    """
    hog = []
    while True:
        hog.append(bytearray(10**7))


def test_connects(x, judge):
    """!
    query: Phone home.
    """
    socket.create_connection(("127.0.0.1", x.effects["port"]), timeout=2)


def test_writes_a_file(x, judge):
    """!
    query: Leave a note.
    """
    with open(x.effects["path"], "w") as handle:
        handle.write("written by a check")


def test_runs_a_process(x, judge):
    """!
    query: Spawn.
    """
    subprocess.run(["true"])


def test_reads_outside_the_checkout(x, judge):
    """!
    query: Snoop.
    """
    with open(x.effects["outside"]) as handle:
        handle.read()


async def test_async_check(x, judge):
    """!
    query: Await.
    """
    assert x.effects
'''
CUSTOM = [
    "test_passes", "test_fails_in_a_helper", "test_fails_a_bare_assert", "test_crashes", "test_prints_then_passes",
    "test_loops_forever", "test_sleeps", "test_allocates_too_much", "test_connects", "test_writes_a_file",
    "test_runs_a_process", "test_reads_outside_the_checkout",
]  # fmt: skip
# A wall-clock limit far above what any check here needs, however loaded the machine (a passing check takes well
# under a second), so only the check that sleeps meets one: it gets a short limit of its own.
LIMITS = SandboxLimits(wall_s=60.0, cpu_s=1, memory_mb=256)
SHORT_WALL = SandboxLimits(wall_s=3.0, cpu_s=1, memory_mb=256)


def line_of(text: str) -> int:
    """The line of the fake file where `text` starts."""
    return next(i for i, line in enumerate(SOURCE.splitlines(), start=1) if text in line)


def effects(status: str = "cancelled", **extra: Any) -> dict[str, Any]:
    orders = [{"id": "ORD-1", "status": status, "total": 120.0}, {"id": "ORD-2", "status": "processing", "total": 80}]
    return {"sandbox_external_retail": {"result_db_state": {"orders": orders}}, **extra}


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> TbCheckout:
    root = tmp_path_factory.mktemp("custom") / "checkout"
    make_fake_checkout(root)
    (root / "dataset/test_case" / FILE).write_text(SOURCE, encoding="utf-8")
    ids = [f"{FILE}:{name}" for name in [*CUSTOM, "test_async_check"]] + [f"{RETAIL_FILE}:test_cancel_order"]
    (root / "custom_list.yaml").write_text(yaml.safe_dump(ids))
    return TbCheckout(root)


def run(
    checkout: TbCheckout, function: str, given: dict[str, Any], limits: SandboxLimits = LIMITS
) -> CustomCheckResult:
    check = checkout.custom_check(f"{FILE}:{function}")
    assert check is not None, f"{function} did not load as a custom check"
    return asyncio.run(CustomCheckRunner(sys.executable, limits).run(check, given))


def infra_error(checkout: TbCheckout, function: str, given: dict[str, Any], limits: SandboxLimits = LIMITS) -> str:
    with pytest.raises(CustomCheckInfraError) as caught:
        run(checkout, function, given, limits)
    return str(caught.value)


# -- loading --------------------------------------------------------------------------------------


def test_a_body_of_its_own_loads_as_a_custom_check_task(checkout: TbCheckout) -> None:
    tasks, _ = checkout.tasks(checkout.root / "custom_list.yaml")
    assert [t.id for t in tasks] == [f"{FILE}:{name}" for name in CUSTOM] + [f"{RETAIL_FILE}:test_cancel_order"]
    check = checkout.custom_check(f"{FILE}:test_passes")
    assert check == CustomCheck(
        task_id=f"{FILE}:test_passes", file=str(checkout.root / "dataset/test_case" / FILE),
        label=f"dataset/test_case/{FILE}", function="test_passes", lineno=line_of("def test_passes"),
        data_root=str(checkout.root),
    )  # fmt: skip
    assert tasks[0].checks == [] and checkout.custom_check(f"{RETAIL_FILE}:test_cancel_order") is None


def test_an_async_test_function_stays_unsupported_with_its_line(checkout: TbCheckout) -> None:
    _, unsupported = checkout.tasks(checkout.root / "custom_list.yaml")
    assert unsupported == [
        (f"{FILE}:test_async_check", f"line {line_of('async def')}: async def; a custom check is a plain function "
                                     "of x (the effects) and judge")
    ]  # fmt: skip


def test_the_listing_says_which_tasks_are_custom_check(checkout: TbCheckout) -> None:
    suite = load_tb_suite(checkout.root, checkout.root / "custom_list.yaml")
    listing = suite.listing()
    assert listing.title == f"thinkingbox-bench: {len(CUSTOM) + 1} tasks ({len(CUSTOM)} custom-check), 1 unsupported"
    checks = {row[0]: row[listing.columns.index("check")] for row in listing.rows}
    assert checks[f"{FILE}:test_passes"] == "custom" and checks[f"{RETAIL_FILE}:test_cancel_order"] == "database"
    assert suite.listing_json()["custom_check"] == [f"{FILE}:{name}" for name in CUSTOM]


def test_data_files_named_by_the_benchmark_variable_resolve_to_the_checkout(tmp_path: Path) -> None:
    fake = make_fake_checkout(tmp_path / "checkout")
    scenario = fake.root / "dataset/scenario/sandbox_external_retail.yaml"
    data = yaml.safe_load(scenario.read_text())
    data["world_state"]["sandbox_external_retail"]["flights"] = "$THINKINGBOX_DATA/support/flights.json"
    data["world_state"]["sandbox_external_retail"]["users"] = ["${THINKINGBOX_DATA}/support/users.json"]
    scenario.write_text(yaml.safe_dump(data))
    checkout = TbCheckout(fake.root)
    config = checkout.init_config(checkout.task(f"{RETAIL_FILE}:test_cancel_order"), "sandbox_external_retail").config
    assert (config["flights"], config["users"]) == (f"{fake.root}/support/flights.json",
                                                   [f"{fake.root}/support/users.json"])  # fmt: skip


# -- verdicts -------------------------------------------------------------------------------------


def test_a_check_whose_assertions_hold_passes_and_lists_its_unjudged_questions(checkout: TbCheckout) -> None:
    result = run(checkout, "test_passes", effects("cancelled"))
    assert (result.status, result.message) == ("passed", "")
    assert result.judge_calls == [{"method": "text_yesno", "args": ["", "Does the reply confirm the cancellation?"]}]


def test_a_failing_assertion_in_a_helper_names_the_task_the_line_and_the_test_functions_line(
    checkout: TbCheckout,
) -> None:
    result = run(checkout, "test_fails_in_a_helper", effects("cancelled"))
    assert (result.status, result.line, result.function_line) == (
        "failed", line_of("assert found == status"), line_of('require_status(x, "ORD-1", "shipped")')
    )  # fmt: skip
    assert result.describe() == (
        f"{FILE}:test_fails_in_a_helper: custom check failed at dataset/test_case/{FILE}:{result.line} "
        f"(from line {result.function_line} of the test function): "
        "AssertionError: order ORD-1 is cancelled, expected shipped"
    )


def test_a_bare_assert_is_named_by_its_source(checkout: TbCheckout) -> None:
    result = run(checkout, "test_fails_a_bare_assert", effects())
    assert result.describe() == (
        f"{FILE}:test_fails_a_bare_assert: custom check failed at dataset/test_case/{FILE}:"
        f"{line_of('assert len(orders(x)) == 99')}: AssertionError: assert len(orders(x)) == 99"
    )


def test_a_crashing_check_fails_the_attempt_naming_the_exception_and_line(checkout: TbCheckout) -> None:
    result = run(checkout, "test_crashes", effects())
    assert (result.status, result.passed) == ("error", False)
    assert result.describe().startswith(f"{FILE}:test_crashes: custom check crashed at dataset/test_case/{FILE}:")
    assert result.message == "KeyError: 'ORD-404'" and result.function_line == line_of('return orders(x)["ORD-404"]')


def test_what_a_check_prints_never_reaches_the_verdict(checkout: TbCheckout) -> None:
    assert run(checkout, "test_prints_then_passes", effects()).status == "passed"


# -- the sandbox ----------------------------------------------------------------------------------


def test_the_network_is_refused_and_nothing_connects(checkout: TbCheckout) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(0.2)
        result = run(checkout, "test_connects", effects(port=listener.getsockname()[1]))
        with pytest.raises(TimeoutError):
            listener.accept()
    assert result.status == "error" and "custom-check sandbox refuses socket." in result.message, result.describe()
    assert result.line == line_of("socket.create_connection(")


def test_writing_a_file_is_refused_and_nothing_is_written(checkout: TbCheckout, tmp_path: Path) -> None:
    target = tmp_path / "note.txt"
    result = run(checkout, "test_writes_a_file", effects(path=str(target)))
    assert result.message == f"PermissionError: the custom-check sandbox refuses writing {str(target)!r}"
    assert not target.exists()


def test_starting_a_process_is_refused(checkout: TbCheckout) -> None:
    result = run(checkout, "test_runs_a_process", effects())
    assert result.message == "PermissionError: the custom-check sandbox refuses subprocess.Popen", result.describe()


def test_reading_outside_the_checkout_is_refused(checkout: TbCheckout, tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("not for checks")
    result = run(checkout, "test_reads_outside_the_checkout", effects(outside=str(outside)))
    assert result.message == f"PermissionError: the custom-check sandbox refuses opening {str(outside)!r}"


def test_a_check_that_loops_forever_is_an_infrastructure_error_of_its_cpu_limit(checkout: TbCheckout) -> None:
    assert infra_error(checkout, "test_loops_forever", effects()) == (
        f"{FILE}:test_loops_forever: custom check killed by the time limit (1 s CPU)"
    )


def test_a_check_that_never_returns_is_killed_by_the_wall_clock_limit(checkout: TbCheckout) -> None:
    assert infra_error(checkout, "test_sleeps", effects(), SHORT_WALL) == (
        f"{FILE}:test_sleeps: custom check killed by the time limit (3 s wall clock)"
    )


def test_a_check_that_allocates_too_much_is_an_infrastructure_error_of_its_memory_limit(
    checkout: TbCheckout,
) -> None:
    assert infra_error(checkout, "test_allocates_too_much", effects()) == (
        f"{FILE}:test_allocates_too_much: custom check hit the memory limit (256 MB)"
    )


def test_a_python_that_cannot_run_the_sandbox_is_a_one_line_infrastructure_error(checkout: TbCheckout) -> None:
    check = checkout.custom_check(f"{FILE}:test_passes")
    assert check is not None
    with pytest.raises(CustomCheckInfraError) as caught:
        asyncio.run(CustomCheckRunner("/bin/false", LIMITS).run(check, effects()))
    assert str(caught.value) == f"{FILE}:test_passes: custom check sandbox died without a verdict: exit status 1"


def test_the_check_runs_in_its_own_network_namespace_where_the_system_allows_it(checkout: TbCheckout) -> None:
    unshare = shutil.which("unshare")
    if unshare is None or subprocess.run([unshare, "-rn", "true"], capture_output=True).returncode != 0:
        pytest.skip("user and network namespaces are not available to this user here")
    assert run(checkout, "test_passes", effects()).isolation == ISOLATED


def test_without_namespaces_the_audit_hook_alone_keeps_the_check_off_the_network(
    checkout: TbCheckout, tmp_path: Path
) -> None:
    refusing = tmp_path / "unshare"  # an unshare that may not create namespaces, as in many containers
    refusing.write_text("#!/bin/sh\necho 'unshare: unshare failed: Operation not permitted' >&2\nexit 1\n")
    refusing.chmod(0o755)
    runner = CustomCheckRunner(sys.executable, LIMITS, unshare=str(refusing))
    check = checkout.custom_check(f"{FILE}:test_connects")
    assert check is not None
    with socket.create_server(("127.0.0.1", 0)) as listener:
        result = asyncio.run(runner.run(check, effects(port=listener.getsockname()[1])))
    assert (result.isolation, result.status) == (HOOK_ONLY, "error")
    assert "custom-check sandbox refuses socket." in result.message, result.describe()
