"""The reference as a trace: its calls, with the questions, answers and confirmations a careful agent has.

Validation judges the task's trace checks on it (the reference must satisfy each) and on a
mutant of it that breaks each check (which must be caught).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from statebox.judge.trace import Event, violations
from statebox.tasks import Fact, RefCall, Task
from statebox.tasks.checks import AtMost, ConfirmBefore, Never, ReadBefore, TraceCheck, VerifyBefore
from statebox.tasks.dialogue import asks_to_confirm, prerequisites, states
from statebox.tools.surface import ToolOutcome

CONFIRM_QUESTION = "Shall I go ahead with that? Please confirm."
AGREEMENT = "Yes, please go ahead."


class CheckValidation(BaseModel):
    """One trace check on one task: exercised by the reference, satisfied by it, its mutant caught."""

    check: str
    exercised: bool
    satisfied: bool
    mutant_caught: bool

    @property
    def ok(self) -> bool:
        return self.satisfied and (self.mutant_caught or not self.exercised)


def reference_trace(task: Task, played: Sequence[tuple[RefCall, ToolOutcome]]) -> list[Event]:
    """The reference's agent calls in order, each preceded by what it needs from the customer."""
    events = [Event("customer", 0, task.opening_message)]
    known = {f.value for f in task.customer.facts if states(f, task.opening_message)}
    for call, outcome in played:
        if call.actor == "customer":
            continue
        facts, confirm = prerequisites(task, call.tool, call.args, known)
        if facts:
            question = "Could you tell me " + ", ".join(f.asked_by[0] for f in facts) + "?"
            events.append(Event("agent", len(events), question))
            events.append(Event("customer", len(events), " ".join(f"My {f.asked_by[0]} is {f.value}." for f in facts)))
            known |= {f.value for f in facts}
        if confirm:
            events += [Event("agent", len(events), CONFIRM_QUESTION), Event("customer", len(events) + 1, AGREEMENT)]
        events.append(Event("call", len(events), outcome.text, call.tool, dict(call.args), ok=not outcome.is_error))
    return events


def validate_checks(task: Task, trace: list[Event]) -> list[CheckValidation]:
    """Each check: the reference trace satisfies it; a trace that breaks it (where it applies) is caught."""
    out = []
    for check in task.checks:
        satisfied = not violations([check], trace, task.customer.facts)
        broken = _break(check, trace, task.customer.facts)
        caught = broken is not None and bool(violations([check], broken, task.customer.facts))
        out.append(CheckValidation(check=check.name, exercised=broken is not None, satisfied=satisfied,
                                   mutant_caught=caught))
    return out


def _break(check: TraceCheck, trace: list[Event], facts: Sequence[Fact]) -> list[Event] | None:
    """The reference trace changed so that it breaks the check, or None where the reference never meets it."""
    if isinstance(check, Never):
        return [*trace, Event("call", len(trace), "{}", check.tools[0])]
    if isinstance(check, AtMost):
        made = [e for e in trace if e.kind == "call" and e.tool == check.tool and e.ok]
        extra = made[-1] if made else Event("call", len(trace), "{}", check.tool)
        return [*trace, *[extra] * (check.times + 1 - len(made))] if check.times + 1 > len(made) else trace
    if not any(e.kind == "call" and e.ok and e.tool in check.tools for e in trace):
        return None
    if isinstance(check, ConfirmBefore):
        return _without_confirmations(trace)
    if isinstance(check, VerifyBefore):
        identifying = [f for f in facts if f.key in check.facts]
        return [e for e in trace if not (e.kind == "call" and e.tool in check.verified_by)
                and not (e.kind == "customer" and e.index > 0 and any(states(f, e.text) for f in identifying))]
    assert isinstance(check, ReadBefore)
    return [e for e in trace if not (e.kind == "call" and e.tool in check.read_tools)]


def _without_confirmations(trace: list[Event]) -> list[Event]:
    out: list[Event] = []
    skip_reply = False
    for e in trace:
        if e.kind == "agent" and asks_to_confirm(e.text):
            skip_reply = True
            continue
        if skip_reply and e.kind == "customer":
            skip_reply = False
            continue
        out.append(e)
    return out
