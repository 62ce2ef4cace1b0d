"""examples/grpo_rollout.py against a real `statebox openenv-serve`: a group of episodes, their chat messages,
rewards from the server's judge, and GRPO's group-relative advantages."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from statebox.suites import load_suite

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "grpo_rollout.py"
TASK = "air_purifier_return_refund_wrong_rma_number"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("grpo_rollout", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["grpo_rollout"] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def test_a_group_of_rollouts_gets_the_servers_rewards_and_group_relative_advantages(openenv_server: str) -> None:
    example = _example()
    task = next(t for t in load_suite("retail").tasks if t.id == TASK)
    group = asyncio.run(example.rollout_group(openenv_server, task, 4, 0))
    rewards = [r.reward for r in group]
    assert sorted(rewards) == [0.0, 0.0, 1.0, 1.0], [(r.reward, r.info.get("signature")) for r in group]
    assert abs(sum(r.advantage for r in group)) < 1e-9
    assert all((r.advantage > 0) == (r.reward == 1.0) for r in group), [(r.reward, r.advantage) for r in group]
    passed = next(r for r in group if r.reward == 1.0)
    assert passed.info["passed"] and passed.info["finish_reason"] == "agent_ended", passed.info
    roles = [m["role"] for m in passed.messages]
    assert roles[:2] == ["system", "user"] and roles[-1] == "assistant", roles
    calls = [c for m in passed.messages for c in m.get("tool_calls", [])]
    assert calls and all(isinstance(c["function"]["arguments"], dict) for c in calls)
    assert {c["function"]["name"] for c in calls} >= {"issue_refund"}


def test_advantages_are_zero_when_every_reward_is_the_same() -> None:
    example = _example()
    group = [example.Rollout(messages=[], reward=1.0, info={}) for _ in range(3)]
    example.group_advantages(group)
    assert [r.advantage for r in group] == [0.0, 0.0, 0.0]
