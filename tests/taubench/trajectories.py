"""τ-bench trajectories built in its own results format, for import tests: a record per attempt, `traj` as
OpenAI chat messages, `reward_info` as τ-bench's RewardResult (None: the episode was cut off)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STOP = "###STOP###"


def tool_call(n: int, name: str, arguments: dict[str, Any]) -> list[dict[str, Any]]:
    """An assistant message calling one tool, and the tool's answer (the text is not replayed)."""
    call_id = f"call_{n}"
    return [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
            ],
        },
        {"role": "tool", "tool_call_id": call_id, "name": name, "content": "(recorded result)"},
    ]


def record(
    task_id: int,
    trial: int,
    task: dict[str, Any],
    calls: list[tuple[str, dict[str, Any]]],
    *,
    says: str = "Done.",
    reward: float = 1.0,
    finished: bool = True,
    wiki: str = "policy",
) -> dict[str, Any]:
    """One attempt: the customer opens, the agent makes `calls`, says `says`, the customer stops (if finished)."""
    traj: list[dict[str, Any]] = [{"role": "system", "content": wiki}, {"role": "user", "content": "Hi, I need help."}]
    for n, (name, arguments) in enumerate(calls):
        traj += tool_call(n, name, arguments)
    traj.append({"role": "assistant", "content": says})
    if finished:
        traj.append({"role": "user", "content": f"Thanks. {STOP}"})
    info = {"r_actions": reward, "gt_data_hash": "0" * 64}
    reward_info = {"reward": reward, "info": info, "actions": task["actions"]} if finished else None
    return {
        "task_id": task_id,
        "trial": trial,
        "reward": reward if finished else 0.0,
        "info": {"task": task, "source": "user", "user_cost": 0.0, "reward_info": reward_info},
        "traj": traj,
    }


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps(records, indent=1))
    return path
