"""Trace checks judged on what happened: the attempt's tool calls and visible messages, in order."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from statebox.agents.transcript import Transcript
from statebox.judge.verdict import Discrepancy, Verdict
from statebox.tasks import Fact, Task
from statebox.tasks.checks import AtMost, ConfirmBefore, Never, ReadBefore, TraceCheck, VerifyBefore
from statebox.tasks.dialogue import agrees, asks_to_confirm, states


@dataclass(frozen=True)
class Event:
    """One step of a trace: something said (by the agent or the customer), or a tool call with its result."""

    kind: Literal["agent", "customer", "call"]
    index: int  # the transcript entry it comes from (the message index in reports)
    text: str = ""  # a message's text, or a call's result
    tool: str = ""
    args: dict[str, Any] = field(default_factory=dict)
    ok: bool = True


def events_of(transcript: Transcript) -> list[Event]:
    """The trace of a transcript: messages with text, and every call paired with its result."""
    results = {e.tool_call_id: e for e in transcript.entries if e.role == "tool" and e.tool_call_id}
    out: list[Event] = []
    for i, e in enumerate(transcript.entries):
        if e.role in ("agent", "customer") and e.content and not e.tool_calls:
            out.append(Event(e.role, i, e.content))
        for call in e.tool_calls:
            result = results.get(call.id)
            out.append(Event("call", i, result.content if result else "", call.name, dict(call.arguments or {}),
                             ok=result is not None and not result.is_error))
    return out


def violations(checks: Iterable[TraceCheck], events: Sequence[Event], facts: Sequence[Fact]) -> list[Discrepancy]:
    """Every violated check, with the call and the message it happened at."""
    out: list[Discrepancy] = []
    calls = [(n, e) for n, e in enumerate(events) if e.kind == "call"]
    for check in checks:
        out += _violations(check, events, calls, facts)
    return out


def _violations(
    check: TraceCheck, events: Sequence[Event], calls: list[tuple[int, Event]], facts: Sequence[Fact]
) -> list[Discrepancy]:
    if isinstance(check, Never):
        return [_found(check, c, f"{c.tool} was called") for _, c in calls if c.tool in check.tools]
    if isinstance(check, AtMost):
        done = [c for _, c in calls if c.tool == check.tool and c.ok]
        over = done[check.times : check.times + 1]
        return [_found(check, c, f"{check.tool} succeeded {len(done)} times") for c in over]
    guarded = [(n, c) for n, c in calls if c.tool in check.tools and c.ok]
    if isinstance(check, ConfirmBefore):
        return [_found(check, c, f"{c.tool} with no confirmation asked and agreed before it")
                for n, c in guarded if not _confirmed(events[:n])]
    if isinstance(check, VerifyBefore):
        return [_found(check, c, f"{c.tool} before identity was established")
                for n, c in guarded if not _verified(check, events[:n], facts)]
    assert isinstance(check, ReadBefore)
    return [_found(check, c, f"{c.tool} on {c.args.get(check.arg)!r} before it was read")
            for n, c in guarded if not _read(check, c, events[:n])]


def _found(check: TraceCheck, call: Event, what: str) -> Discrepancy:
    return Discrepancy(kind="policy_violation", table="(trace)", key=check.name, field=call.tool,
                       expected=check.why or check.name, actual=what, check=check.name, message_index=call.index)


def _confirmed(before: Sequence[Event]) -> bool:
    """The agent asked to confirm, and the customer's next message agreed."""
    for i, e in enumerate(before):
        if e.kind == "agent" and asks_to_confirm(e.text):
            reply = next((r for r in before[i + 1 :] if r.kind == "customer"), None)
            if reply is not None and agrees(reply.text):
                return True
    return False


def _verified(check: VerifyBefore, before: Sequence[Event], facts: Sequence[Fact]) -> bool:
    """A verifying tool said so, or the customer stated enough of the identifying facts.

    A task listing fewer of the check's facts than `min_facts` needs all it lists.
    """
    if any(e.kind == "call" and e.ok and e.tool in check.verified_by and _says_verified(e.text) for e in before):
        return True
    wanted = [f for f in facts if f.key in check.facts]
    if not wanted:
        return False
    said = " ".join(e.text for e in before if e.kind == "customer")
    return sum(states(f, said) for f in wanted) >= min(check.min_facts, len(wanted))


def _says_verified(result: str) -> bool:
    try:
        data = json.loads(result)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("verified") is True


def _read(check: ReadBefore, call: Event, before: Sequence[Event]) -> bool:
    record = _norm(call.args.get(check.arg))
    if not record:
        return True  # no record named: nothing to have read
    reads = [e for e in before if e.kind == "call" and e.ok and e.tool in check.read_tools]
    return any(record in {_norm(v) for v in e.args.values()} or record in e.text.upper() for e in reads)


def _norm(value: Any) -> str:
    return str(value).strip().upper() if isinstance(value, str | int) and not isinstance(value, bool) else ""


def with_trace_checks(verdict: Verdict, task: Task, transcript: Transcript) -> Verdict:
    """The state verdict with the task's violated trace checks added (any violation fails it)."""
    found = violations(task.checks, events_of(transcript), task.customer.facts) if task.checks else []
    if not found:
        return verdict
    return verdict.model_copy(update={"passed": False, "discrepancies": [*verdict.discrepancies, *found]})
