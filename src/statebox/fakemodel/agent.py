"""The scripted agent: its next move, reconstructed from the request's messages alone.

Nothing is remembered between requests. The conversation after the customer's opening is
replayed against the plan: the assistant's tool calls so far are the plan's first steps, the
tool messages after them are their results (JSON text, saved for ${name.field} references),
and a customer message answers the facts the agent asked for in its latest question.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from statebox.fakemodel.facts import ask_for, find_in, substitute
from statebox.fakemodel.plan import Plan, Step
from statebox.fakemodel.protocol import Reply, ToolCallOut, Turn
from statebox.tasks import Fact, Task
from statebox.tasks.dialogue import agrees, prerequisites
from statebox.tasks.references import ReferenceResolutionError, resolve

UNKNOWN_REQUEST = (
    "I'm sorry, I didn't quite understand your request. Could you please rephrase it and tell me what you need?"
)
COMPLETED = "Your request has been completed: I took care of {done}. Thank you for contacting us."
FOUND = "Here is what I found: {result}. Thank you for contacting us."
APOLOGY = "I'm sorry, something went wrong while processing your request and I was unable to complete it."
GIVE_UP = "I'm sorry, but I cannot complete this request. I was unable to carry out the necessary change."
NO_FACTS = "I'm sorry, but I cannot proceed without that information, so I am unable to complete your request."
DECLINED = "Understood, I will not make that change. Thank you for contacting us."
CLOSING = "There is nothing more I can do on this request. Thank you for contacting us."
_ERROR_TEXT = re.compile(r"^\s*error\b", re.IGNORECASE)


def normalise(text: str) -> str:
    return " ".join(text.split())


def opening_index(turns: list[Turn]) -> int | None:
    """Where the customer's opening message (the first user message) is."""
    return next((i for i, t in enumerate(turns) if t.role == "user"), None)


@dataclass
class Progress:
    """How far the conversation has got, replayed from the messages."""

    known: dict[str, str] = field(default_factory=dict)  # fact value -> as the customer gave it
    asked: list[Fact] = field(default_factory=list)  # asked in the latest question, not yet answered
    refused: list[Fact] = field(default_factory=list)  # asked, but the answer did not contain them
    issued: dict[str, int] = field(default_factory=dict)  # tool_call_id -> step index
    calls: int = 0
    saved: dict[str, Any] = field(default_factory=dict)
    confirming: int | None = None  # the step the latest question asked the customer to confirm
    confirmed: set[int] = field(default_factory=set)
    declined: bool = False  # the customer said no to a confirmation
    last_result: str = ""
    error_at: int | None = None
    concluded: bool = False  # a final reply was already given


def agent_reply(task: Task, plan: Plan, turns: list[Turn]) -> Reply:
    """The agent's next message for a conversation about `task`."""
    start = opening_index(turns)
    assert start is not None, "the task was recognised from the opening message"
    progress = Progress()
    for fact in task.customer.facts:  # a fact the customer volunteered needs no asking
        if (said := find_in(turns[start].text, fact.value)) is not None:
            progress.known[fact.value] = said
    for turn in turns[start + 1 :]:
        _replay(turn, task, plan, progress)
    return _decide(task, plan, progress).reply


def _replay(turn: Turn, task: Task, plan: Plan, p: Progress) -> None:
    if turn.role == "assistant" and turn.tool_calls:
        for call in turn.tool_calls:
            p.issued[call.id] = p.calls
            p.calls += 1
    elif turn.role == "assistant" and turn.text:
        move = _decide(task, plan, p)  # what that text was: a question, or the final reply
        if move.reply.call is None and move.asks:
            p.asked = list(move.asks)
        elif move.reply.call is None and move.confirms is not None:
            p.confirming = move.confirms
        elif move.reply.call is None:
            p.concluded = True
    elif turn.role == "tool":
        _record_result(turn, plan, p)
    elif turn.role == "user":
        if p.confirming is not None:
            if agrees(turn.text):
                p.confirmed.add(p.confirming)
            else:
                p.declined = True
            p.confirming = None
        for fact in p.asked:
            said = find_in(turn.text, fact.value)
            if said is None:
                p.refused.append(fact)
            else:
                p.known[fact.value] = said
        p.asked = []


def _record_result(turn: Turn, plan: Plan, p: Progress) -> None:
    index = p.issued.get(turn.tool_call_id or "")
    if index is None or index >= len(plan.steps):
        return
    result = _parse(turn.text)
    if _is_error(turn.text, result):
        p.error_at = index if p.error_at is None else p.error_at
        return
    p.last_result = turn.text
    if name := plan.steps[index].call.save_as:
        p.saved[name] = result


@dataclass(frozen=True)
class _Move:
    reply: Reply
    asks: tuple[Fact, ...] = ()  # the facts a question asks for
    confirms: int | None = None  # the step a question asks the customer to confirm


def _decide(task: Task, plan: Plan, p: Progress) -> _Move:
    if p.concluded:
        return _Move(Reply(CLOSING))
    if p.refused:
        return _Move(Reply(NO_FACTS))
    if p.declined:
        return _Move(Reply(DECLINED))
    if p.error_at is not None:
        return _Move(Reply(GIVE_UP if plan.ending == "give-up" else APOLOGY))
    if p.calls >= len(plan.steps):
        return _Move(Reply(GIVE_UP if plan.ending == "give-up" else _summary(plan, p)))
    step = plan.steps[p.calls]
    needed, confirm = prerequisites(task, step.call.tool, step.call.args, set(p.known))
    missing = tuple(needed)
    if missing:
        return _Move(Reply(ask_for(list(missing))), missing)
    if confirm and p.calls not in p.confirmed:
        return _Move(Reply(_confirmation(task, step)), confirms=p.calls)
    try:
        return _Move(Reply(call=ToolCallOut(step.call.tool, _arguments(step, p))))
    except ReferenceResolutionError:
        return _Move(Reply(APOLOGY))


def _arguments(step: Step, p: Progress) -> dict[str, Any]:
    """The step's arguments: facts as the customer gave them, the mistake, then references resolved."""
    args = substitute(step.call.args, p.known)
    if step.mutation is not None:
        args = step.mutation.apply(args)
    args = {k: v for k, v in args.items() if k not in step.drop}
    resolved = resolve(args, p.saved)
    assert isinstance(resolved, dict)
    return resolved


def _confirmation(task: Task, step: Step) -> str:
    """Asking before a write the policy wants confirmed, in the words the customer agrees to."""
    what = "; ".join(task.customer.confirms) or step.call.tool.replace("_", " ")
    return f"Before I do that: shall I go ahead and {what}? Please confirm."


def _summary(plan: Plan, p: Progress) -> str:
    """What was done, asking nothing more (a question would keep the customer talking)."""
    writes = list(dict.fromkeys(s.call.tool.replace("_", " ") for s in plan.steps if s.writes))
    if writes:
        return COMPLETED.format(done=", ".join(writes))
    result = normalise(p.last_result).replace("?", "")[:400] or "no further details"
    return FOUND.format(result=result)


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _is_error(text: str, parsed: Any) -> bool:
    if isinstance(parsed, dict) and "error" in parsed and len(parsed) <= 2:
        return True
    return isinstance(parsed, str) and _ERROR_TEXT.match(text) is not None
