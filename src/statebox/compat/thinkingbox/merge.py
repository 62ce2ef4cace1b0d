"""The benchmark's rule for laying a task's `init.<server>` over the scenario's world state."""

from __future__ import annotations

import copy
from typing import Any


def merge_world_state(scenario: Any, task: Any) -> Any:
    """Task over scenario: dicts merge recursively (task wins), lists concatenate, other values
    are replaced, and a falsy scenario value (`None`, `{}`, `[]`, "") is replaced outright.

    Neither input is modified; the result shares no containers with them.
    """
    if not scenario:
        return copy.deepcopy(task)
    if isinstance(scenario, dict) and isinstance(task, dict):
        merged = copy.deepcopy(scenario)
        for key, value in task.items():
            merged[key] = merge_world_state(scenario[key], value) if key in scenario else copy.deepcopy(value)
        return merged
    if isinstance(scenario, list) and isinstance(task, list):
        return copy.deepcopy(scenario) + copy.deepcopy(task)
    return copy.deepcopy(task)
