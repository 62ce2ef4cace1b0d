"""A τ-bench task as statebox runs it: a statebox `Task` (opening, customer, reference, limits) that keeps
τ-bench's own task beside it (its domain, split and index, which the server's init is given)."""

from __future__ import annotations

import hashlib
import json

from pydantic import ConfigDict

from statebox.compat.taubench.models import RESPOND, TERMINATE_TOOLS, Domain, Split, TauTaskData
from statebox.tasks import Customer, Limits, RefCall, Task

# τ-bench's user simulator writes its own opening from the instruction; statebox's conversation opens
# with a fixed line that names the task's user, and the LLM customer goes on from its private instruction.
OPENINGS = {
    "airline": "Hi! I'm {user} and I need some help with my flights.",
    "retail": "Hi! I'm {user} and I need some help with my orders.",
}
CONTEXT_RULE = (
    "Your GOAL text above is your whole situation: everything you know and how to behave. Say only what it "
    "allows, one step at a time; when your goal is met, or cannot be, end the conversation."
)
MAX_STEPS = 30  # τ-bench's agents take at most 30 steps (model calls) per episode


class TauBenchTask(Task):
    """A τ-bench task; `tau` is the task as its tasks file writes it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tau: TauTaskData
    split: Split
    index: int
    checkout: str  # the fingerprint of the domain's files in the checkout (tasks, data, tools, policy)

    @property
    def tau_domain(self) -> Domain:
        return "airline" if self.domain == "airline" else "retail"


def tau_task(domain: Domain, split: Split, index: int, tau: TauTaskData, fingerprint: str) -> TauBenchTask:
    """One τ-bench task as a statebox task; its reference is the task's actions, in order."""
    reference = [RefCall(tool=a.name, args=dict(a.kwargs)) for a in tau.actions if a.name != RESPOND]
    writes = [a for a in tau.actions if a.name not in TERMINATE_TOOLS]
    return TauBenchTask(
        id=str(index),
        domain=domain,
        title=tau.instruction[:80],
        opening_message=OPENINGS[domain].format(user=_user_name(tau.user_id)),
        customer=Customer(goal=tau.instruction, rules=[CONTEXT_RULE]),
        reference=reference,
        limits=Limits(max_turns=MAX_STEPS, max_steps_per_turn=MAX_STEPS, max_tool_errors=MAX_STEPS),
        tags=[f"split:{split}", "outputs" if tau.outputs else "no-outputs", "writes" if writes else "no-actions"],
        tau=tau,
        split=split,
        index=index,
        checkout=fingerprint,
    )


def _user_name(user_id: str) -> str:
    """`mia_li_3668` -> `Mia Li`: the name a customer gives (the id itself is part of the instruction)."""
    parts = [p for p in user_id.split("_") if not p.isdigit()]
    return " ".join(p.capitalize() for p in parts) or user_id


def task_digest(task: TauTaskData) -> str:
    blob = json.dumps(task.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
