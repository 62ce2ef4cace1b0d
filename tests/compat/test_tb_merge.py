"""The benchmark's world-state merge rule, as a pure function."""

from __future__ import annotations

from statebox.compat.thinkingbox import merge_world_state


def test_dicts_merge_recursively_and_the_task_wins() -> None:
    scenario = {"a": {"x": 1, "y": 2}, "b": 1}
    assert merge_world_state(scenario, {"a": {"y": 3, "z": 4}}) == {"a": {"x": 1, "y": 3, "z": 4}, "b": 1}


def test_lists_concatenate_scenario_first() -> None:
    assert merge_world_state({"rows": [1, 2]}, {"rows": [3]}) == {"rows": [1, 2, 3]}


def test_other_values_are_replaced() -> None:
    assert merge_world_state({"v": "scenario", "n": 1}, {"v": "task", "n": [1]}) == {"v": "task", "n": [1]}


def test_a_falsy_scenario_value_is_replaced_outright() -> None:
    merged = merge_world_state(
        {"patch": None, "rows": [], "cfg": {}}, {"patch": {"t": [1]}, "rows": {"k": 1}, "cfg": 5}
    )
    assert merged == {"patch": {"t": [1]}, "rows": {"k": 1}, "cfg": 5}


def test_inputs_are_not_modified_nor_shared() -> None:
    scenario, task = {"a": {"rows": [1]}}, {"a": {"rows": [2]}, "b": {"c": [3]}}
    merged = merge_world_state(scenario, task)
    merged["a"]["rows"].append(9)
    merged["b"]["c"].append(9)
    assert scenario == {"a": {"rows": [1]}} and task == {"a": {"rows": [2]}, "b": {"c": [3]}}
