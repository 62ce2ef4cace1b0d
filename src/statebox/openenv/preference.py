"""Preference pairs for DPO: a passing and a failing attempt of the same task, split at their shared prompt.

`prompt` is the system message and the customer's opening message (what both attempts started from);
`chosen` and `rejected` are the two continuations (TRL's conversational preference format: lists of
messages). Pairing is deterministic: per task, the passing attempts and the failing attempts are each
sorted by (model, repeat, trial_id) and zipped, so a task with P passes and F fails gives min(P, F)
pairs and every attempt is used at most once. A pair whose two prompts differ (an LLM customer that
opened differently) is not made.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

PREFERENCE_SCHEMA_VERSION = 1


@dataclass
class Pairing:
    """The pairs, and why the other tasks gave none."""

    pairs: list[dict[str, Any]] = field(default_factory=list)
    tasks: int = 0
    only_passed: int = 0
    only_failed: int = 0
    prompts_differ: int = 0  # tasks with a pass and a fail whose openings never matched

    def summary(self) -> str:
        unpaired = self.only_passed + self.only_failed + self.prompts_differ
        return (f"exported {len(self.pairs)} preference pairs from {self.tasks - unpaired} of {self.tasks} tasks; "
                f"{unpaired} tasks with no pair ({self.only_passed} only passed, {self.only_failed} only failed, "
                f"{self.prompts_differ} with different openings)")


def preference_pairs(chats: list[dict[str, Any]]) -> Pairing:
    """Pairs from chat records (those `chat_record` makes), in task order."""
    by_task: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for chat in chats:
        by_task[(chat["suite"], chat["task_id"])].append(chat)
    pairing = Pairing(tasks=len(by_task))
    for key in sorted(by_task):
        _pair_task(by_task[key], pairing)
    return pairing


def _pair_task(attempts: list[dict[str, Any]], pairing: Pairing) -> None:
    order = sorted(attempts, key=lambda c: (c["model"] or "", c["repeat"], c["trial_id"]))
    passed = [c for c in order if c["verdict"]["passed"]]
    failed = [c for c in order if not c["verdict"]["passed"]]
    if not failed:
        pairing.only_passed += 1
        return
    if not passed:
        pairing.only_failed += 1
        return
    made = [pair for good, bad in zip(passed, failed, strict=False) if (pair := _pair(good, bad)) is not None]
    if not made:
        pairing.prompts_differ += 1
    pairing.pairs += made


def _pair(good: dict[str, Any], bad: dict[str, Any]) -> dict[str, Any] | None:
    cut = prompt_length(good["messages"])
    if cut == 0 or good["messages"][:cut] != bad["messages"][:cut]:
        return None
    return {
        "schema_version": PREFERENCE_SCHEMA_VERSION,
        "suite": good["suite"], "task_id": good["task_id"], "domain": good["domain"],
        "prompt": good["messages"][:cut],
        "chosen": good["messages"][cut:],
        "rejected": bad["messages"][cut:],
        "tools": good["tools"],
        "chosen_trial_id": good["trial_id"], "rejected_trial_id": bad["trial_id"],
        "chosen_reward": good["reward"], "rejected_reward": bad["reward"],
        "rejected_signature": bad["verdict"]["signature"],
    }


def prompt_length(messages: list[dict[str, Any]]) -> int:
    """How many leading messages form the prompt: the system message(s) and the first `user` message."""
    for i, message in enumerate(messages):
        if message["role"] == "user":
            return i + 1
    return 0
