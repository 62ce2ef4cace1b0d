"""ThinkingBox-Bench as an Inspect task (`statebox/thinkingbox_bench -T data=DIR -T server_python=PY`), on the
fake checkout (tests/tbfakes): the benchmark's own tool servers per attempt, the verdict document `statebox run`
gives the same play (with statebox's LLM customer through the `customer` model role), and the `judge` model role
answering the rubric variant's question ("no": it fails on it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from inspect_tb_kit import Bench, inspect_eval_cli, statebox_run_verdicts, verdicts

from statebox.integrations.inspect_task.thinkingbox import open_thinkingbox
from tbfakes import RETAIL_FILE, RUBRIC_FILE, make_fake_checkout

pytestmark = pytest.mark.slow  # each attempt starts the benchmark's tool-server processes
TASKS = [
    f"{RETAIL_FILE}:test_cancel_order",
    f"{RETAIL_FILE}:test_order_lookup_only",
    f"{RUBRIC_FILE}:test_cancel_order",
]


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Bench:
    checkout = make_fake_checkout(tmp_path_factory.mktemp("inspect-tb") / "checkout")
    suite = open_thinkingbox(checkout.root, sys.executable)
    return Bench(checkout.root, sys.executable, suite, TASKS, llm_customer=True)


def test_the_inspect_task_gives_statebox_runs_verdicts_with_the_judge_role_answering_the_rubric(
    bench: Bench, tmp_path: Path
) -> None:
    log, seen = inspect_eval_cli(bench, tmp_path / "logs", judge_answer="no")
    assert log.eval.task_registry_name == "statebox/thinkingbox_bench"
    found = verdicts(log)
    assert {sid: m["value"] for sid, m in found.items()} == {TASKS[0]: "C", TASKS[1]: "C", TASKS[2]: "I"}
    rubric = found[TASKS[2]]["verdict"]
    assert rubric["rubrics"]["status"] == "judged", rubric["rubrics"]
    assert [r["passed"] for r in rubric["rubrics"]["results"]] == [False] and rubric["state_passed"], rubric
    assert set(seen["judge"]) == {"judge"} and set(seen["agent"]) == {"agent", "customer"}, seen
    assert {m["customer_end_reason"] for m in found.values()} == {"satisfied"}, found  # ended through its tool
    documents = {sid: m["verdict"] for sid, m in found.items()}
    assert documents == statebox_run_verdicts(bench, tmp_path / "run", judge_answer="no")


def test_a_checkout_that_is_not_there_is_one_line_naming_the_option(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"^statebox/thinkingbox_bench: --data .*: no such directory"):
        open_thinkingbox(tmp_path / "missing", sys.executable)
