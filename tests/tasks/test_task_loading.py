"""Task files: one task or a `tasks:` list; a malformed file names the file, the task and the field."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from textwrap import dedent

import pytest

from minidomain import TASK_DIR
from statebox.tasks import RefCall, TaskFileError, load_task_dir, load_task_file

GOOD = """\
id: {id}
opening_message: Hi, my printer jams.
customer:
  goal: get the printer fixed
  facts:
    - key: ticket_id
      value: T-1
      asked_by: [ticket number]
reference:
  - tool: update_ticket
    args: {{ticket_id: T-1, status: solved}}
"""


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(dedent(text), encoding="utf-8")
    return path


def load_error(path: Path) -> TaskFileError:
    with pytest.raises(TaskFileError) as info:
        load_task_file(path, "mini")
    return info.value


def test_a_single_task_file_loads():
    [task] = load_task_file(TASK_DIR / "solve_printer.yaml", "mini")
    assert task.id == "solve-printer-ticket"
    assert task.customer.facts[0].asked_by == ["ticket number", "ticket id"]
    assert task.reference[1] == RefCall(
        tool="add_comment", args={"ticket_id": "T-1", "body": "Customer confirms the printer works again."}
    )


def test_a_file_with_a_tasks_list_loads_every_task():
    tasks = load_task_file(TASK_DIR / "tickets.yaml", "mini")
    assert [t.id for t in tasks] == ["report-outage", "hold-or-solve"]
    assert tasks[0].now == datetime(2024, 6, 1, 9, 30, tzinfo=UTC)
    assert tasks[0].reference[0].save_as == "ticket"
    assert tasks[1].expect.ignore_fields == ["tickets.priority"]
    assert tasks[1].expect.alternatives[0][0].args == {"ticket_id": "T-2", "status": "solved"}


def test_the_loader_fills_in_the_domain_and_the_defaults():
    [task] = load_task_file(TASK_DIR / "read_only.yaml", "mini")
    assert task.domain == "mini"
    assert task.read_only and task.limits.max_turns == 12 and task.initial_rows == {}


def test_a_directory_loads_every_task_file_sorted_by_path():
    ids = [t.id for t in load_task_dir(TASK_DIR, "mini")]
    assert ids == ["check-status", "solve-printer-ticket", "split-request", "report-outage", "hold-or-solve"]


def test_invalid_yaml_is_an_error_naming_the_file(tmp_path):
    path = write(tmp_path, "broken.yaml", "id: x\nopening_message: [unclosed\n")
    err = load_error(path)
    assert str(err).startswith(f"{path}: not valid YAML"), str(err)


def test_a_missing_required_field_is_named_with_the_file_and_the_task(tmp_path):
    path = write(
        tmp_path, "t.yaml", GOOD.format(id="no-opening").replace("opening_message: Hi, my printer jams.\n", "")
    )
    err = load_error(path)
    assert (err.path, err.task, err.field) == (str(path), "no-opening", "opening_message")
    assert str(err) == f"{path}: task 'no-opening': field 'opening_message': Field required"


def test_a_wrong_type_deep_inside_a_task_is_named_by_its_path(tmp_path):
    text = GOOD.format(id="deep").replace("asked_by: [ticket number]", "asked_by: ticket number")
    err = load_error(write(tmp_path, "t.yaml", text))
    assert (err.task, err.field) == ("deep", "customer.facts.0.asked_by"), str(err)
    assert "valid list" in str(err), str(err)


def test_an_unknown_field_is_named(tmp_path):
    err = load_error(write(tmp_path, "t.yaml", GOOD.format(id="extra") + "priority: high\n"))
    assert (err.task, err.field) == ("extra", "priority"), str(err)
    assert "Extra inputs are not permitted" in str(err)


def test_an_unknown_field_in_a_reference_call_is_named(tmp_path):
    text = GOOD.format(id="ref").replace("    args: {ticket_id", "    arguments: {ticket_id")
    err = load_error(write(tmp_path, "t.yaml", text))
    assert (err.task, err.field) == ("ref", "reference.0.arguments"), str(err)


def test_an_ignore_field_without_a_table_is_named(tmp_path):
    err = load_error(write(tmp_path, "t.yaml", GOOD.format(id="ign") + "expect:\n  ignore_fields: [priority]\n"))
    assert (err.task, err.field) == ("ign", "expect.ignore_fields"), str(err)
    assert "table.field" in str(err)


def test_the_error_names_the_broken_task_of_a_tasks_list(tmp_path):
    first = GOOD.format(id="fine")
    second = GOOD.format(id="broken").replace("goal: get the printer fixed", "goal: [not, a, string]")
    text = "tasks:\n" + "".join("  - " + t.replace("\n", "\n    ").rstrip() + "\n" for t in (first, second))
    err = load_error(write(tmp_path, "list.yaml", text))
    assert (err.task, err.field) == ("broken", "customer.goal"), str(err)


def test_a_task_without_an_id_is_named_by_its_position(tmp_path):
    err = load_error(write(tmp_path, "t.yaml", GOOD.format(id="x").replace("id: x\n", "")))
    assert (err.task, err.field) == ("#0", "id"), str(err)


def test_a_list_entry_that_is_not_a_mapping_is_an_error(tmp_path):
    err = load_error(write(tmp_path, "t.yaml", "tasks:\n  - just a string\n"))
    assert "task #0 is a str, expected a mapping" in str(err), str(err)


def test_an_empty_tasks_list_is_an_error(tmp_path):
    err = load_error(write(tmp_path, "t.yaml", "tasks: []\n"))
    assert "non-empty 'tasks' list" in str(err), str(err)


def test_a_duplicate_id_in_another_file_names_both_files(tmp_path):
    first = write(tmp_path, "a.yaml", GOOD.format(id="twin"))
    second = write(tmp_path, "b.yaml", GOOD.format(id="twin"))
    with pytest.raises(TaskFileError) as info:
        load_task_dir(tmp_path, "mini")
    err = info.value
    assert (err.path, err.task, err.field) == (str(second), "twin", "id")
    assert f"also in {first}" in str(err), str(err)


def test_a_duplicate_id_within_one_file_is_an_error(tmp_path):
    text = "tasks:\n" + "".join("  - " + GOOD.format(id="twin").replace("\n", "\n    ").rstrip() + "\n" for _ in "ab")
    with pytest.raises(TaskFileError, match="task 'twin': field 'id': duplicate task id"):
        load_task_dir(write(tmp_path, "list.yaml", text).parent, "mini")
