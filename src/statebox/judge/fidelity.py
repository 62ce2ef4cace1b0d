"""Simulator fidelity: deterministic checks that the simulated customer played its part honestly.

A fault here is the simulator's, not the agent's: the attempt is flagged and reported apart
from the agent's passes and failures, and `--rerun-simulator-faults` runs it again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from statebox.agents.transcript import Transcript
from statebox.tasks import Task
from statebox.tasks.dialogue import asks_for, states
from statebox.tasks.model import Fact

FaultKind = Literal["leaked_fact", "contradicted_fact", "invented_identifier", "satisfied_without_resolution"]

_EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_DATE = r"\b\d{4}-\d{2}-\d{2}\b"


class SimulatorFault(BaseModel):
    """One thing the simulated customer did wrong, with the evidence."""

    kind: FaultKind
    message_index: int  # the transcript entry of the customer's message
    fact: str | None = None  # the fact key concerned, where there is one
    evidence: str


def simulator_faults(task: Task, transcript: Transcript) -> list[SimulatorFault]:
    """Leaked, contradicted or invented facts in the customer's messages; a satisfied end it may not have."""
    profile = task.customer
    authored = " ".join([task.opening_message, profile.goal, profile.persona, *profile.rules, *profile.confirms])
    faults: list[SimulatorFault] = []
    agent_said: list[str] = []
    opening_seen = False
    for i, e in enumerate(transcript.entries):
        if e.role == "agent" and e.content and not e.tool_calls:
            agent_said.append(e.content)
        if e.role != "customer" or not e.content:
            continue
        if not opening_seen:  # the opening message is the task's own text
            opening_seen = True
            continue
        faults += _leaks(profile.facts, e.content, agent_said, i)
        faults += _unknown_identifiers(profile.facts, e.content, agent_said, authored, i)
    if not profile.may_end_satisfied and transcript.customer_end_reason == "satisfied":
        faults.append(SimulatorFault(kind="satisfied_without_resolution", message_index=len(transcript.entries) - 1,
                                     evidence="the customer ended as satisfied, but the task's request cannot be met"))
    return faults


def _leaks(facts: Sequence[Fact], message: str, agent_said: list[str], index: int) -> list[SimulatorFault]:
    out = []
    for f in facts:
        asked = any(asks_for(f, said) or states(f, said) for said in agent_said)
        if states(f, message) and not asked:
            out.append(SimulatorFault(kind="leaked_fact", message_index=index, fact=f.key,
                                      evidence=f"stated {f.key} ({f.value!r}) before the agent asked for it"))
    return out


def _unknown_identifiers(
    facts: Sequence[Fact], message: str, agent_said: list[str], authored: str, index: int
) -> list[SimulatorFault]:
    """Identifiers shaped like one of the customer's facts that the customer cannot know."""
    known = " ".join([authored, *agent_said, *(f.value for f in facts)]).lower()
    last_question = agent_said[-1] if agent_said else ""
    by_shape: dict[str, list[Fact]] = {}
    for f in facts:
        if (shape := _shape(f.value)) is not None:
            by_shape.setdefault(shape, []).append(f)
    out: list[SimulatorFault] = []
    for shape, group in by_shape.items():
        asked = [f for f in group if asks_for(f, last_question)]
        for token in dict.fromkeys(re.findall(shape, message, flags=re.IGNORECASE)):
            if token.lower() in known:
                continue
            if asked:
                out.append(SimulatorFault(kind="contradicted_fact", message_index=index, fact=asked[0].key,
                                          evidence=f"gave {token!r} for {asked[0].key}, whose value is "
                                                   f"{asked[0].value!r}"))
            else:
                out.append(SimulatorFault(kind="invented_identifier", message_index=index, fact=group[0].key,
                                          evidence=f"mentioned {token!r}, shaped like {group[0].key} but not one "
                                                   "it holds"))
    return out


def _shape(value: str) -> str | None:
    """A pattern for values of the same kind: an email, a date, or a PREFIX-1234 identifier."""
    v = value.strip()
    if re.fullmatch(_EMAIL, v):
        return _EMAIL
    if re.fullmatch(_DATE, v):
        return _DATE
    m = re.fullmatch(r"([A-Za-z]{2,6})-(\d{3,})", v)
    if m:
        return rf"\b{re.escape(m.group(1))}-\d{{3,}}\b"
    return None
