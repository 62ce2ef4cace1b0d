"""Custom checks: a test function's own Python over `x`, loaded as a task and run only in a sandboxed
process; its verdicts, failure lines and limits (the escapes are in test_tb_custom_check_escapes)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from statebox.compat.thinkingbox import TbCheckout, load_tb_suite
from statebox.compat.thinkingbox.custom_check import (
    CustomCheck,
    CustomCheckInfraError,
    CustomCheckResult,
    CustomCheckRunner,
    SandboxLimits,
)
from statebox.compat.thinkingbox.custom_check_isolation import Isolation
from tbfakes import RETAIL_FILE, make_fake_checkout, require_isolation

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
    checkout: TbCheckout, function: str, given: dict[str, Any], limits: SandboxLimits = LIMITS,
    isolation: Isolation | None = None,
) -> CustomCheckResult:  # fmt: skip
    check = checkout.custom_check(f"{FILE}:{function}")
    assert check is not None, f"{function} did not load as a custom check"
    runner = CustomCheckRunner(sys.executable, isolation or require_isolation(), limits)
    return asyncio.run(runner.run(check, {"effects": given}, None))


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


def test_a_check_whose_assertions_hold_but_asks_the_judge_without_a_judge_model_is_not_judged(
    checkout: TbCheckout,
) -> None:
    result = run(checkout, "test_passes", effects("cancelled"))
    assert (result.status, result.message) == ("not_judged", "")
    assert [q.model_dump() for q in result.questions] == [
        {"method": "text_yesno", "args": {"text": "", "question": "Does the reply confirm the cancellation?"},
         "answer": None, "reason": ""}
    ]  # fmt: skip
    assert result.describe() == (f"{FILE}:test_passes: custom check not judged: 1 judge(...) question and no judge "
                                 "model (--judge-model)")  # fmt: skip


def test_a_check_that_fails_before_asking_the_judge_is_judged_failed(checkout: TbCheckout) -> None:
    result = run(checkout, "test_passes", effects("processing"))
    assert (result.status, result.questions) == ("failed", [])


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
