"""A custom-check task's attempts are graded by its check over the attempt's real effects: what each
of the task's tool servers answered to `__reserved__geteffects`, as the benchmark's harness hands
`x.effects` to a test (here the fake checkout's servers, started for real)."""

from __future__ import annotations

import asyncio
import sys

import pytest
import yaml

from statebox.compat.thinkingbox import TbTaskValidation, load_tb_suite, validate_tb_suite
from statebox.compat.thinkingbox.options import TbRunOptions
from tbfakes import FakeCheckout, make_fake_checkout

FILE = "custom_graded.py"
SOURCE = '''# Custom checks over the fake server's effects.

"""!
scenario: sandbox_external_retail
init:
  sandbox_external_retail:
    golden_test_case:
      tool_interactions:
        - tool: cancel_order
          parameters: {order_id: ORD-1, reason: customer_request}
"""


def order(x, order_id):
    rows = x.effects["sandbox_external_retail"]["result_db_state"]["orders"]
    return next(row for row in rows if row["id"] == order_id)


def test_cancelled(x, judge):
    """!
    query: Cancel ORD-1.
    """
    assert order(x, "ORD-1")["status"] == "cancelled", "ORD-1 is not cancelled"
    assert set(x.effects) == {"sandbox_external_retail"}


def test_shipped(x, judge):
    """!
    query: Ship ORD-1.
    """
    assert order(x, "ORD-1")["status"] == "shipped", f"ORD-1 is {order(x, 'ORD-1')['status']}"
'''
IDS = [f"{FILE}:test_cancelled", f"{FILE}:test_shipped"]


@pytest.fixture(scope="module")
def validated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, TbTaskValidation]:
    fake: FakeCheckout = make_fake_checkout(tmp_path_factory.mktemp("graded") / "checkout")
    (fake.root / "dataset/test_case" / FILE).write_text(SOURCE, encoding="utf-8")
    test_list = fake.root / "graded.yaml"
    test_list.write_text(yaml.safe_dump(IDS))
    suite = load_tb_suite(fake.root, test_list, TbRunOptions(server_python=sys.executable))
    assert suite.custom_check_ids() == IDS
    return {r.id: r for r in asyncio.run(validate_tb_suite(suite))}


def test_the_reference_reaches_a_state_its_custom_check_accepts_and_doing_nothing_does_not(
    validated: dict[str, TbTaskValidation],
) -> None:
    result = validated[f"{FILE}:test_cancelled"]
    assert (result.reference_passes, result.noop_passes, result.problems) == (True, False, [])


def test_a_check_the_reference_fails_is_a_problem_naming_the_task_and_line(
    validated: dict[str, TbTaskValidation],
) -> None:
    result = validated[f"{FILE}:test_shipped"]
    line = next(i for i, text in enumerate(SOURCE.splitlines(), start=1) if '== "shipped"' in text)
    assert (result.reference_passes, result.noop_passes) == (False, False)
    assert result.problems == [
        f"{FILE}:test_shipped: custom check failed at dataset/test_case/{FILE}:{line}: "
        "AssertionError: ORD-1 is cancelled"
    ]
