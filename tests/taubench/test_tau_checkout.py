"""Reading a τ-bench checkout: its tasks files as data (nothing of it runs), its tools' names, its layout."""

from __future__ import annotations

from pathlib import Path

import pytest

from statebox.compat.taubench.checkout import TauCheckout, read_tasks_file
from statebox.compat.taubench.errors import TauFormatError
from statebox.compat.taubench.suite import load_tau_suite


@pytest.mark.parametrize(
    ("domain", "split", "count"),
    [("airline", "test", 50), ("retail", "test", 115), ("retail", "train", 500), ("retail", "dev", 20)],
)
def test_every_split_reads_its_tasks(checkout: Path, domain: str, split: str, count: int) -> None:
    tasks = TauCheckout(checkout).tasks(domain, split)  # type: ignore[arg-type]
    assert len(tasks) == count, f"{domain} {split}: {len(tasks)} tasks read"


def test_a_task_keeps_its_actions_and_outputs(checkout: Path) -> None:
    task = TauCheckout(checkout).tasks("airline", "test")[1]
    assert task.user_id == "olivia_gonzalez_2305"
    assert [(a.name, a.kwargs) for a in task.actions] == [("cancel_reservation", {"reservation_id": "Z7GOZK"})]
    assert task.outputs == []


def test_the_tools_are_named_as_their_schemas_name_them(checkout: Path) -> None:
    c = TauCheckout(checkout)
    assert {"book_reservation", "cancel_reservation", "think"} <= c.tool_names("airline")
    assert len(c.tool_names("airline")) == 14 and len(c.tool_names("retail")) == 16


def test_the_suite_ids_are_the_task_indices_and_the_reference_is_the_actions(checkout: Path) -> None:
    suite = load_tau_suite(checkout, "retail")
    task = suite.tau_task("5")
    assert [t.id for t in suite.tasks[:3]] == ["0", "1", "2"] and suite.name == "tau-bench:retail"
    assert [c.tool for c in task.reference] == [a.name for a in task.tau.actions]


def test_a_folder_that_is_not_a_checkout_is_one_line_naming_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(TauFormatError, match=r"not a τ-bench checkout .* no tau_bench/envs/airline/tools/__init__.py"):
        TauCheckout(tmp_path)


def test_a_task_that_is_not_a_literal_names_the_file_and_the_task(tmp_path: Path) -> None:
    bad = tmp_path / "tasks_test.py"
    bad.write_text("TASKS = [Task(user_id='a', instruction='b', actions=[], outputs=[]), Task(user_id=make())]\n")
    with pytest.raises(TauFormatError, match=r"tasks_test.py: task 1: "):
        read_tasks_file(bad)
