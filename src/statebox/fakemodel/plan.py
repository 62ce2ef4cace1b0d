"""What the fake agent will do for one attempt: the reference solution, with the mode's mistake."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Literal, get_args

from statebox.fakemodel.mistakes import Mutation, find_mutation
from statebox.tasks import Domain, RefCall, Task
from statebox.tasks.references import references_in

Mode = Literal["reference", "skip-last-write", "wrong-value", "extra-write", "give-up", "flaky"]
MODES: tuple[str, ...] = get_args(Mode)
MISTAKES: tuple[Mode, ...] = ("skip-last-write", "wrong-value", "extra-write", "give-up")
INSERT_PREFIXES = ("create_", "add_", "send_", "file_")


@dataclass(frozen=True)
class Step:
    """One tool call to make: a reference call, possibly spoiled by the attempt's mistake."""

    call: RefCall
    writes: bool
    mutation: Mutation | None = None  # wrong-value: one argument changed
    drop: frozenset[str] = frozenset()  # give-up: arguments left out (the required ones)


@dataclass(frozen=True)
class Plan:
    """The calls of one attempt and how it ends: a summary, or a give-up after the last call."""

    mode: Mode
    steps: tuple[Step, ...]
    ending: Literal["summary", "give-up"] = "summary"


def attempt_mode(mode: Mode, error_rate: float, seed: int | None, opening: str) -> Mode:
    """The mode one attempt plays. `flaky` draws a mistake with probability `error_rate`.

    The draw is a stable hash of (request seed, opening message), so every request of one
    attempt makes the same choice and attempts with different seeds disagree.
    """
    if mode != "flaky":
        return mode
    digest = hashlib.sha256(f"{seed}\x1f{' '.join(opening.split())}".encode()).digest()
    draw = int.from_bytes(digest[:8], "big") / 2**64
    if draw >= error_rate:
        return "reference"
    return MISTAKES[int.from_bytes(digest[8:16], "big") % len(MISTAKES)]


def build_plan(task: Task, domain: Domain, mode: Mode) -> Plan:
    """The steps for a (non-flaky) mode. A mistake that cannot apply leaves the reference as is."""
    # The customer's own calls happen on the customer's side, when the agent asks for their fact.
    agent_calls = [c for c in task.reference if c.actor == "agent"]
    steps = [Step(c, c.tool in domain.tools and domain.tools[c.tool].writes) for c in agent_calls]
    writes = [i for i, s in enumerate(steps) if s.writes]
    if mode in ("reference", "flaky") or not writes:
        return Plan(mode, tuple(steps))
    if mode == "skip-last-write":
        return Plan(mode, tuple(_without(steps, writes[-1])))
    if mode == "extra-write":
        return Plan(mode, (*steps, _repeatable(steps, writes)))
    if mode == "wrong-value":
        return Plan(mode, tuple(_spoil_last_write(steps, writes, task, domain)))
    return _give_up(steps, writes[0], domain, mode)


def _without(steps: list[Step], index: int) -> list[Step]:
    """All steps but `index`, and those that use a result it (transitively) saved."""
    lost = {steps[index].call.save_as} - {None}
    kept = []
    for i, step in enumerate(steps):
        if i == index or references_in(step.call.args) & lost:
            if step.call.save_as:
                lost.add(step.call.save_as)
            continue
        kept.append(step)
    return kept


def _repeatable(steps: list[Step], writes: list[int]) -> Step:
    """The last write that inserts a row (safe to repeat), else the last write; never re-saved."""
    inserts = [i for i in writes if steps[i].call.tool.startswith(INSERT_PREFIXES)]
    chosen = steps[(inserts or writes)[-1]]
    return replace(chosen, call=chosen.call.model_copy(update={"save_as": None}))


def _spoil_last_write(steps: list[Step], writes: list[int], task: Task, domain: Domain) -> list[Step]:
    free_text = {f for spec in domain.world.tables.values() for f in spec.free_text}
    for i in reversed(writes):
        schema = domain.tools[steps[i].call.tool].spec.input_schema
        mutation = find_mutation(steps[i].call.args, schema, task.customer.facts, free_text)
        if mutation is not None:
            return [*steps[:i], replace(steps[i], mutation=mutation), *steps[i + 1 :]]
    return steps


def _give_up(steps: list[Step], first_write: int, domain: Domain, mode: Mode) -> Plan:
    """Reads up to the first write, that write without its required arguments, then give up."""
    required = frozenset(domain.tools[steps[first_write].call.tool].spec.input_schema.get("required", []))
    if not required:  # nothing to leave out: give up before writing
        return Plan(mode, tuple(steps[:first_write]), ending="give-up")
    return Plan(mode, (*steps[:first_write], replace(steps[first_write], drop=required)), ending="give-up")
