"""A GRPO-style rollout loop against `statebox openenv-serve`: a group of episodes of one task, each turned into
chat messages with its reward, and the group-relative advantages GRPO trains on.

    statebox openenv-serve retail --port 8000 &
    python examples/grpo_rollout.py --url http://127.0.0.1:8000 --task air_purifier_return_refund_wrong_rma_number

The policy here is scripted (it knows the task's reference and plays it, or gives up, by a seeded coin), so the loop
runs with no model; a real model is a `Policy` whose `act` applies the tokenizer's chat template to `messages` and
`tools` and parses the generated tool call (docs/training.md shows one). Everything else — the episode over
OpenEnv's client, the chat messages, the rewards, the advantages — is what a trainer uses unchanged.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
from dataclasses import dataclass, field
from typing import Any, Protocol

from statebox.openenv.client import StateboxEnv
from statebox.openenv.models import StateboxAction
from statebox.suites import load_suite
from statebox.tasks import Task
from statebox.tasks.references import resolve


class Policy(Protocol):
    async def act(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        """The next assistant message: `tool_calls` (arguments as objects), or `content`; `end: True` to finish."""
        ...


@dataclass
class Rollout:
    messages: list[dict[str, Any]]
    reward: float
    info: dict[str, Any]
    advantage: float = 0.0


def openai_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The reset observation's tools in the function format chat templates take."""
    return [{"type": "function", "function": {"name": t["name"], "description": t.get("description", ""),
                                              "parameters": t["input_schema"]}} for t in tools]


async def rollout(env: StateboxEnv, task_id: str, policy: Policy, max_actions: int = 60) -> Rollout:
    """One episode: the policy's messages and tool calls stepped through the environment until it is done."""
    start = await env.reset(task_id=task_id)
    tools = openai_tools(start.observation.tools)
    messages: list[dict[str, Any]] = [{"role": "system", "content": start.observation.policy or ""},
                                      {"role": "user", "content": start.observation.text}]
    for _ in range(max_actions):
        reply = await policy.act(messages, tools)
        messages.append({k: v for k, v in reply.items() if k != "end"})
        for call in reply.get("tool_calls", []):
            fn = call["function"]
            result = await env.step(StateboxAction(tool=fn["name"], arguments=fn["arguments"]))
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": result.observation.text})
        if not reply.get("tool_calls"):
            result = await env.step(StateboxAction(message=reply.get("content") or "", end=bool(reply.get("end"))))
            if not result.done:
                messages.append({"role": "user", "content": result.observation.text})
        if result.done:
            return Rollout(messages, float(result.reward or 0.0), result.observation.info)
    last = await env.step(StateboxAction(end=True))
    return Rollout(messages, float(last.reward or 0.0), last.observation.info)


def group_advantages(rollouts: list[Rollout]) -> None:
    """GRPO's advantage: each reward minus the group's mean, over the group's standard deviation (0 if all equal)."""
    rewards = [r.reward for r in rollouts]
    mean, spread = statistics.fmean(rewards), statistics.pstdev(rewards)
    for r in rollouts:
        r.advantage = (r.reward - mean) / spread if spread > 0 else 0.0


@dataclass
class ScriptedPolicy:
    """Stands in for the model: asks for the customer's facts, then plays the task's reference — or, when `gives_up`,
    ends at once (a failing attempt, so a group has rewards to compare)."""

    task: Task
    gives_up: bool
    _plan: list[dict[str, Any]] = field(default_factory=list)
    _saved: dict[str, Any] = field(default_factory=dict)
    _pending: str | None = None  # where the last call's result is saved, for `${...}` in later calls

    def __post_init__(self) -> None:
        asks = " ".join(f"What is your {f.asked_by[0]}?" for f in self.task.customer.facts if f.via is None)
        self._plan = [{"content": asks}] if asks else []
        self._plan.append({"content": "Can you confirm you want me to go ahead with that?"})
        self._plan += [{"call": c} for c in self.task.reference if c.actor != "customer"]
        self._plan.append({"content": "It is done.", "end": True})

    async def act(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        self._remember(messages)
        if self.gives_up:
            return {"role": "assistant", "content": "I cannot help with this.", "end": True}
        step = self._plan.pop(0)
        if "call" not in step:
            return {"role": "assistant", **step}
        call = step["call"]
        args = resolve(call.args, self._saved)
        self._pending = call.save_as
        return {"role": "assistant", "content": None,
                "tool_calls": [{"id": f"call_{len(messages)}", "type": "function",
                                "function": {"name": call.tool, "arguments": args}}]}

    def _remember(self, messages: list[dict[str, Any]]) -> None:
        if self._pending and messages[-1]["role"] == "tool":
            self._saved[self._pending] = json.loads(messages[-1]["content"])
        self._pending = None


async def rollout_group(url: str, task: Task, size: int, seed: int) -> list[Rollout]:
    """`size` episodes of `task`, one session each, concurrently; advantages computed over the group."""
    coin = random.Random(seed)
    policies = [ScriptedPolicy(task, gives_up=coin.random() < 0.5) for _ in range(size)]

    async def one(policy: ScriptedPolicy) -> Rollout:
        async with StateboxEnv(base_url=url) as env:
            return await rollout(env, task.id, policy)

    group = list(await asyncio.gather(*(one(p) for p in policies)))
    group_advantages(group)
    return group


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--suite", default="retail")
    parser.add_argument("--task", default="air_purifier_return_refund_wrong_rma_number")
    parser.add_argument("--group", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    task = next(t for t in load_suite(args.suite).tasks if t.id == args.task)
    for i, r in enumerate(asyncio.run(rollout_group(args.url, task, args.group, args.seed))):
        print(f"rollout {i}: reward {r.reward:.1f} advantage {r.advantage:+.2f} messages {len(r.messages)}")


if __name__ == "__main__":
    main()
